from __future__ import annotations

import io
from pathlib import Path

import pytest

from companion.base.clock import ManualClock
from companion.devices.sim import ScriptEntry, SimStrip, SimulatedKeypad, TerminalEntry
from companion.entry import Entry
from companion.view.leds import Flash
from tests.devices.keypads import texts

RED, OFF = (255, 0, 0), (0, 0, 0)


def test_the_strip_records_every_frame_and_effect() -> None:
    strip = SimStrip(3)
    strip.show((RED, OFF, OFF))
    strip.show((RED, RED, OFF), (Flash((1,), RED),))
    assert strip.frame == (RED, RED, OFF)
    assert strip.frames == [(RED, OFF, OFF), (RED, RED, OFF)]
    assert strip.shown[1][1] == (Flash((1,), RED),)
    with pytest.raises(ValueError, match="has 3 colours, not 2"):
        strip.show((RED, RED))
    assert len(strip.shown) == 2


def test_an_unplugged_strip_gets_the_whole_latest_picture_when_it_comes_back() -> None:
    strip = SimStrip(2)
    strip.show((RED, OFF))
    strip.unplug()
    assert not strip.connected
    strip.show((OFF, RED))
    strip.show((RED, RED))
    assert strip.frame == (RED, OFF)
    strip.plug()
    assert strip.frame == (RED, RED)
    assert len(strip.shown) == 2


def drive(lines: ScriptEntry | TerminalEntry, keypad: SimulatedKeypad, clock: ManualClock, seconds: float) -> None:
    for _ in range(round(seconds / 0.01)):
        lines.poll(clock.now)
        keypad.poll(clock.now)
        clock.advance(0.01)


def test_a_script_feeds_entries_and_keys_in_order(tmp_path: Path, keypad: SimulatedKeypad,
                                                  clock: ManualClock) -> None:
    script = tmp_path / "deal.txt"
    script.write_text("# a deal\nC5H\n\nkey:53\ngo\nkey: * 2 4\nkey:Z\nundo\n", encoding="utf-8")
    got: list[Entry] = []
    lines = ScriptEntry(script, keypad)
    lines.start(got.append)
    keypad.start(got.append)
    assert not lines.finished
    drive(lines, keypad, clock, 3.0)
    assert texts(got) == ["C5H", "5H", "go", "QS", "key:Z", "undo"]
    assert [entry.source for entry in got] == ["script", "keypad", "script", "keypad", "script", "script"]
    assert lines.finished


def test_terminal_lines_without_a_keypad_pass_key_texts_on() -> None:
    got: list[Entry] = []
    terminal = TerminalEntry(io.StringIO("5h\nkey:5\n"))
    terminal.start(got.append)
    terminal.reader.join(timeout=5)
    terminal.poll(0.0)
    assert got == [Entry("5h", "terminal"), Entry("key:5", "terminal")]
    assert terminal.finished


def test_a_byte_that_is_not_utf8_is_a_bad_entry_and_reading_goes_on(tmp_path) -> None:
    got: list[Entry] = []
    strict = io.TextIOWrapper(io.BytesIO(b"5h\n\xff\xfe\n10c\n"), encoding="utf-8", errors="strict")  # a Pi's locale
    terminal = TerminalEntry(strict)
    terminal.start(got.append)
    terminal.reader.join(timeout=5)
    terminal.poll(0.0)
    assert got == [Entry("5h", "terminal"), Entry("\ufffd\ufffd", "terminal"), Entry("10c", "terminal")]
    script = tmp_path / "script.txt"
    script.write_bytes(b"5h\nQ\xffS\n")
    lines = ScriptEntry(script)
    lines.start(got.append)
    lines.poll(0.0)
    assert got[-2:] == [Entry("5h", "script"), Entry("Q\ufffdS", "script")]


def test_the_recording_strip_keeps_only_its_latest_frames() -> None:
    strip = SimStrip(2)
    for n in range(SimStrip.KEPT + 50):
        strip.show(((n % 256, 0, 0), OFF))
    assert len(strip.shown) == SimStrip.KEPT and strip.frame == (((SimStrip.KEPT + 49) % 256, 0, 0), OFF)
