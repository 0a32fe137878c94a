"""The simulated Pico (devices.strip = "pico-sim"): the real driver, protocol and firmware down to the neopixel
write, on the injected clock; unplugging and plugging it back; the driver's connection changes in the log."""

from __future__ import annotations

import errno
import itertools
import logging
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import serial

from companion.base.clock import ManualClock
from companion.boards import load_layout
from companion.devices.pegstrip import PicoPegStrip
from companion.devices.picosim import SimulatedPico, load_firmware
from companion.view.leds import OFF, Color, Frame, Walk
from tests.devices.picoboard import wait_for
from tests.devices.said import said

LAYOUT = load_layout("two-track-61")
RED, BLUE = (224, 16, 16), (16, 64, 255)
LEVEL = 64  # the strip's brightness


def pegs(red: tuple[int, int], blue: tuple[int, int]) -> Frame:
    frame = [OFF] * LAYOUT.led_count
    for score in red:
        frame[LAYOUT.led_for(0, score)] = RED
    for score in blue:
        frame[LAYOUT.led_for(1, score)] = BLUE
    return tuple(frame)


def lit(frame: Frame) -> Frame:
    """What the LEDs hold for `frame` at the strip's brightness (the firmware's integer scaling)."""
    return tuple(tuple(c * LEVEL // 255 for c in colour) for colour in frame)  # type: ignore[misc]


@pytest.fixture
def strip(pico: SimulatedPico, clock: ManualClock) -> Iterator[PicoPegStrip]:
    driver = PicoPegStrip(str(pico.port), LAYOUT.led_count, clock=clock, brightness=LEVEL, max_current_ma=2000)
    yield driver
    driver.close()


def test_the_firmware_is_loaded_apart_from_sys_modules() -> None:
    before = set(sys.modules)
    firmware = load_firmware()
    assert set(sys.modules) == before
    assert firmware["controller"].link is firmware["link"]  # its imports resolve among its own modules
    assert load_firmware()["lights"] is not firmware["lights"]  # two Picos share nothing


def test_a_run_on_real_hardware_never_imports_the_simulated_pico(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "from companion.config import load_config\n"
        "from companion.base.clock import ManualClock\n"
        "from companion.registry import open_devices\n"
        "config = load_config(overrides=['devices.keypad=none', 'devices.buttons=none', 'devices.scanner=none',\n"
        f"    'devices.display=none', 'strip.port={tmp_path / 'none'}'], system_path=None)\n"
        "open_devices(config, clock=ManualClock(), simulate=False).close()\n"
        "print(sorted(m for m in sys.modules if 'picosim' in m or m in ('controller', 'lights', 'neopixel')))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


def test_the_leds_hold_the_pegs_after_the_animations_play_in_the_picos_time(
    pico: SimulatedPico, strip: PicoPegStrip
) -> None:
    strip.show(pegs((0, 0), (0, 0)))
    assert pico.settle(strip)
    walk = Walk(tuple(LAYOUT.led_for(0, score) for score in range(1, 6)), RED)
    strip.show(pegs((0, 5), (0, 0)), (walk,))
    assert strip.wait_delivered(10)
    # acknowledged, and the clock has not moved: the peg is on the walk's first hole, not yet at its destination
    assert pico.leds()[LAYOUT.led_for(0, 1)] == lit((RED,))[0]
    assert pico.leds()[LAYOUT.led_for(0, 5)] == OFF

    assert pico.settle(strip)  # the Pico's clock skips to the end of the walk
    assert pico.leds() == lit(pegs((0, 5), (0, 0)))
    front = LAYOUT.led_for(0, 5)
    assert pico.strip is not None
    assert pico.strip.written[3 * front : 3 * front + 3] == bytes((16 * LEVEL // 255, 224 * LEVEL // 255, 4))  # GRB
    drawn: Color = pico.picture()[front]
    assert all(abs(a - b) <= 4 for a, b in zip(drawn, RED, strict=True))  # brightness divided back out


def test_unplugging_the_pico_and_plugging_it_back_restores_the_picture(
    pico: SimulatedPico, strip: PicoPegStrip, clock: ManualClock
) -> None:
    strip.show(pegs((3, 7), (0, 4)))
    assert pico.settle(strip)
    first = pico.strip
    pico.unplug()
    latest = pegs((7, 12), (4, 9))
    strip.show(latest)  # never blocks with nobody at the other end
    assert wait_for(strip.changed, lambda: not strip.connected)
    assert not pico.settle(strip)  # at once: nothing there to wait for
    assert pico.leds() == lit(pegs((3, 7), (0, 4)))  # the strip keeps what it last had

    pico.plug()  # a freshly powered Pico: a strip of its own
    clock.advance(2.0)
    strip.poll(clock.monotonic())
    assert pico.settle(strip)
    assert pico.strip is not first and pico.leds() == lit(latest)


def test_connection_changes_are_logged_once_each_with_what_to_check(
    clock: ManualClock, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="companion.devices.pegstrip")
    port = tmp_path / "ttyACM0"
    attempts: list[str] = []

    def counted(name: str, baud: int, timeout: float) -> serial.Serial:
        attempts.append(name)
        return serial.Serial(name, baud, timeout=timeout, write_timeout=2, exclusive=True)

    # retrying at once (retry_s=0): the port is missing again and again, and that is one warning
    driver = PicoPegStrip(str(port), LAYOUT.led_count, clock=clock, max_current_ma=2000, open_port=counted,
                          retry_s=0)
    pico = None
    try:
        assert wait_for(driver.changed, lambda: len(attempts) >= 3)
        pico = SimulatedPico(clock, port)
        assert wait_for(driver.changed, lambda: driver.connected)
        pico.unplug()
        assert wait_for(driver.changed, lambda: not driver.connected)
    finally:
        driver.close()
        if pico is not None:
            pico.close()
    said = [(record.levelname, record.getMessage()) for record in caplog.records]
    assert said[:2] == [
        ("WARNING", f"LED strip: not connected: {port} is missing: is the Pico plugged in? Check its USB cable, and "
                    "that strip.port names it (ls /dev/ttyACM*)"),
        ("INFO", f"LED strip: connected to crib-pico 1.0 on {port}"),
    ]
    level, lost = said[2]  # the error in the middle is the port's own ("[Errno 5] Input/output error", ...)
    assert level == "WARNING" and lost.startswith(f"LED strip: not connected: lost the Pico on {port}: ")
    assert lost.endswith("; check its USB cable")
    # the driver may try again before it closes (the port missing again): a change, so said once
    assert all(level == "WARNING" for level, _ in said[3:]) and all(a != b for a, b in itertools.pairwise(said))


def test_no_permission_and_old_firmware_say_what_to_do(
    clock: ManualClock, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    def denied(name: str, baud: int, timeout: float) -> serial.Serial:
        raise serial.SerialException(errno.EACCES, f"could not open port {name}: [Errno 13] Permission denied")

    driver = PicoPegStrip("/dev/ttyACM0", 10, clock=clock, open_port=denied)
    try:
        assert wait_for(driver.changed, lambda: "dialout" in said(driver.problem))
    finally:
        driver.close()

    pico = SimulatedPico(clock, tmp_path / "ttyACM0")
    pico.firmware["controller"].VERSION = 2  # a Pico flashed with another protocol
    driver = PicoPegStrip(str(pico.port), LAYOUT.led_count, clock=clock, max_current_ma=2000)
    try:
        assert wait_for(driver.changed, lambda: "reflash it" in said(driver.problem))
        assert not driver.connected and "does not speak protocol 1" in caplog.text
    finally:
        driver.close()
        pico.close()


def test_a_killed_simulators_port_directory_is_removed_by_the_next_one(tmp_path, monkeypatch) -> None:
    import tempfile
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True,
                          check=True).stdout.strip()  # a process that has ended
    stale = tmp_path / f"crib-pico-{gone}-abc"
    stale.mkdir()
    (stale / "ttyACM0").symlink_to("/dev/pts/999")
    alive = tmp_path / f"crib-pico-{1}-abc"  # init never ends: its directory is left alone
    alive.mkdir()
    pico = SimulatedPico(ManualClock())
    assert not stale.exists() and alive.exists() and pico.port.parent.parent == tmp_path
    pico.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == [alive.name]


def test_a_firmware_that_crashes_goes_dim_then_its_watchdog_resets_it_and_the_board_comes_back(
    pico: SimulatedPico, strip: PicoPegStrip, clock: ManualClock
) -> None:
    shown = pegs((3, 7), (0, 4))
    strip.show(shown)
    assert pico.settle(strip) and pico.leds() == lit(shown)
    crashed = pico.controller

    def bug(now: int) -> bytes:
        raise ZeroDivisionError("a bug in the firmware")

    crashed.tick = bug
    assert pico.turn()
    assert crashed.failed
    waiting = pico.leds()  # never left bright: the pegs are gone, at most the dim glow on every sixth LED
    assert crashed.lights.waiting and waiting != lit(shown)
    assert all(max(colour) <= 24 and (index % 6 == 0 or not any(colour)) for index, colour in enumerate(waiting))
    clock.advance(2.5)  # no turn has worked for longer than the watchdog's 2 s
    assert wait_for(pico.ticked, lambda: pico.resets == 1 and pico.controller is not crashed)
    assert pico.controller.lights.selftest_until <= pico.now_ms()  # after a watchdog reset: no bright self-test
    assert wait_for(strip.changed, lambda: not strip.connected)  # its USB port went away and came back
    for _ in range(20):  # the driver's retries, 2 s apart and then longer
        clock.advance(1.0)
        strip.poll(clock.monotonic())
        if wait_for(strip.changed, lambda: strip.connected, timeout=0.5):
            break
    assert strip.connected
    assert pico.settle(strip) and pico.leds() == lit(shown)  # the host sent the whole board again


def test_a_lost_link_turns_the_pegs_into_the_dim_waiting_pattern_within_the_watchdog_time(
    pico: SimulatedPico, strip: PicoPegStrip, clock: ManualClock
) -> None:
    shown = pegs((3, 7), (0, 4))
    strip.show(shown)
    assert pico.settle(strip) and pico.leds() == lit(shown)
    strip.close()  # the Pi stops talking (its daemon stopped, or its end of the cable pulled)
    clock.advance(2.5)
    assert pico.turn() and pico.leds() == lit(shown)  # within the 3 s CONFIG gave: still the pegs
    clock.advance(1.0)
    assert pico.turn()
    waiting = pico.leds()
    assert pico.controller.lights.waiting and waiting != lit(shown)
    assert all(max(colour) <= 24 and (index % 6 == 0 or not any(colour)) for index, colour in enumerate(waiting))
    assert pico.resets == 0  # the firmware itself is well: its watchdog is fed all along
