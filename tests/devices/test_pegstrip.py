"""The host's strip driver talking to the real firmware over a pseudo-terminal pair, as it talks to a Pico over USB
(the simulated Pico: the firmware under CPython with stand-in neopixel and machine, its clock the test's manual
clock): the strip, and the keypad wired to the Pico."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.base.clock import ManualClock
from companion.boards import load_layout
from companion.devices.base import DeviceError
from companion.devices.pegstrip import PicoPegStrip
from companion.devices.picokeys import PicoKeypad
from companion.devices.picosim import SimulatedPico
from companion.entry import Entry
from companion.view.leds import Flash, Frame, Walk
from tests.devices.picoboard import PICO_COLUMNS, PICO_ROWS, MainLoop, tap, wait_for
from tests.devices.said import said

LAYOUT = load_layout("two-track-61")
RED, BLUE, OFF = (200, 0, 0), (0, 0, 200), (0, 0, 0)


def pegs(red: tuple[int, int], blue: tuple[int, int]) -> Frame:
    """Front and back peg of each player, as the view draws them."""
    frame = [OFF] * LAYOUT.led_count
    for score in red:
        frame[LAYOUT.led_for(0, score)] = RED
    for score in blue:
        frame[LAYOUT.led_for(1, score)] = BLUE
    return tuple(frame)


def showing(pico: SimulatedPico, frame: Frame) -> bool:
    strip = pico.strip
    return strip is not None and len(strip) == len(frame) and all(strip[i] == frame[i] for i in range(len(frame)))


@pytest.fixture
def strip(pico: SimulatedPico, clock: ManualClock) -> Iterator[PicoPegStrip]:
    driver = PicoPegStrip(
        str(pico.port), LAYOUT.led_count, clock=clock, brightness=255, max_current_ma=2000, keepalive_s=30
    )
    assert wait_for(driver.changed, lambda: driver.connected)
    yield driver
    driver.close()


def red_walk(*scores: int) -> Walk:
    return Walk(tuple(LAYOUT.led_for(0, score) for score in scores), RED)


def test_a_scripted_deal_ends_with_the_pegs_on_the_strip(
    pico: SimulatedPico, strip: PicoPegStrip, clock: ManualClock
) -> None:
    strip.show(pegs((0, 0), (0, 0)))
    strip.show(pegs((0, 2), (0, 0)), (red_walk(1, 2),))
    strip.show(pegs((2, 5), (0, 0)), (red_walk(3, 4, 5),))
    strip.show(pegs((2, 5), (0, 6)), (Walk(tuple(LAYOUT.led_for(1, s) for s in range(1, 7)), BLUE),))
    final = pegs((5, 12), (6, 8))
    strip.show(final, (Flash((LAYOUT.led_for(0, 12),), RED),))
    assert wait_for(pico.ticked, lambda: pico.controller.lights.picture == list(final))
    assert pico.strip is not None and pico.now_ms() == 0

    clock.advance(0.1)  # the Pico's clock at 100 ms: the first peg is on its second hole, the next walk not begun
    assert wait_for(pico.strip.changed, lambda: pico.strip[LAYOUT.led_for(0, 2)] == RED)
    assert pico.strip[LAYOUT.led_for(0, 5)] == OFF

    clock.advance(2.4)  # 2500 ms: every animation over, well within the watchdog's 3 s
    assert wait_for(pico.strip.changed, lambda: showing(pico, final))
    # GRB on the wire: the buffer that goes down the data line holds green, red, blue
    red_led = LAYOUT.led_for(0, 12)
    assert pico.strip.buf[3 * red_led : 3 * red_led + 3] == bytes((0, 200, 0))


def test_pulling_the_cable_and_plugging_it_back_restores_the_picture(
    pico: SimulatedPico, strip: PicoPegStrip, clock: ManualClock
) -> None:
    strip.show(pegs((10, 14), (3, 9)))
    first = pico.strip
    assert first is not None and wait_for(first.changed, lambda: showing(pico, pegs((10, 14), (3, 9))))

    pico.unplug()
    latest = pegs((14, 20), (9, 17))
    strip.show(latest)  # never blocks, even with nobody at the other end
    assert wait_for(strip.changed, lambda: not strip.connected)
    assert said(strip.problem).startswith(f"lost the Pico on {pico.port}: ")

    pico.plug()  # a Pico that just powered up: blank strip
    clock.advance(2.0)
    strip.poll(clock.monotonic())
    assert wait_for(strip.changed, lambda: strip.connected)
    fresh = pico.strip  # configured by the driver over the link
    assert fresh is not None and fresh is not first
    assert wait_for(fresh.changed, lambda: showing(pico, latest))


def test_a_strip_that_is_not_plugged_in_is_reported_and_picked_up_later(clock: ManualClock, tmp_path: Path) -> None:
    port = tmp_path / "ttyACM0"
    driver = PicoPegStrip(str(port), LAYOUT.led_count, clock=clock, max_current_ma=2000)
    try:
        assert wait_for(driver.changed, lambda: "is missing: is the Pico plugged in?" in said(driver.problem))
        driver.show(pegs((1, 3), (0, 2)))
        assert not driver.connected
        pico = SimulatedPico(clock, port)
        try:
            clock.advance(2.0)
            driver.poll(clock.monotonic())
            assert wait_for(pico.ticked, lambda: pico.controller.configured)
            strip = pico.strip
            assert strip is not None and len(strip) == LAYOUT.led_count
            assert wait_for(strip.changed, lambda: strip[LAYOUT.led_for(1, 2)] != (0, 0, 0))
        finally:
            pico.close()
    finally:
        driver.close()


def test_bad_settings_are_refused_before_anything_is_sent(tmp_path: Path) -> None:
    with pytest.raises(DeviceError, match="brightness 300 is out of range"):
        PicoPegStrip(str(tmp_path / "tty"), 10, brightness=300)
    with pytest.raises(ValueError, match="colour order 'RGBW'"):
        PicoPegStrip(str(tmp_path / "tty"), 10, color_order="RGBW")


# -- the keypad on the Pico: keys scanned by the firmware come over the same link


@pytest.fixture
def keyed(tmp_path: Path, clock: ManualClock) -> Iterator[tuple[SimulatedPico, PicoPegStrip, MainLoop]]:
    board = SimulatedPico(clock, tmp_path / "ttyACM0")
    keypad = PicoKeypad(PICO_ROWS, PICO_COLUMNS, clock=clock)
    entries = MainLoop(keypad, clock)
    driver = PicoPegStrip(str(board.port), LAYOUT.led_count, clock=clock, brightness=255, max_current_ma=2000,
                          keepalive_s=30, keypad=keypad)
    try:
        assert wait_for(driver.changed, lambda: driver.connected)
        yield board, driver, entries
    finally:
        driver.close()
        keypad.close()
        board.close()


def test_keys_pressed_on_the_pico_arrive_as_entries(
    keyed: tuple[SimulatedPico, PicoPegStrip, MainLoop], clock: ManualClock
) -> None:
    board, driver, entries = keyed
    assert board.controller.keypad is not None  # the host sent KEYPAD with the configured pins
    assert board.keypad_pins == (PICO_ROWS, PICO_COLUMNS)
    assert driver.problem is None

    tap(board, clock, "5")
    tap(board, clock, "3")
    assert entries.get(timeout=10) == Entry("5H", "keypad")  # the five of hearts, in two presses
    driver.show(pegs((0, 5), (0, 0)))  # keys and the picture share the link
    tap(board, clock, "*")
    tap(board, clock, "2")
    tap(board, clock, "4")
    tap(board, clock, "A")
    assert [entries.get(timeout=10).text for _ in range(2)] == ["QS", "go"]
    strip = board.strip
    assert strip is not None and wait_for(strip.changed, lambda: strip[LAYOUT.led_for(0, 5)] == RED)
    assert entries.empty()


def test_keys_still_arrive_after_the_link_is_pulled_and_restored(
    keyed: tuple[SimulatedPico, PicoPegStrip, MainLoop], clock: ManualClock
) -> None:
    board, driver, entries = keyed
    tap(board, clock, "B")
    assert entries.get(timeout=10).text == "undo"

    board.unplug()
    driver.show(pegs((1, 2), (0, 0)))
    assert wait_for(driver.changed, lambda: not driver.connected)
    board.plug()  # a Pico just powered up: no keypad until told
    assert board.controller.keypad is None and board.keypad_pins is None
    clock.advance(2.0)
    driver.poll(clock.monotonic())
    assert wait_for(driver.changed, lambda: driver.connected)
    assert board.keypad_pins == (PICO_ROWS, PICO_COLUMNS)  # KEYPAD sent again after the handshake
    tap(board, clock, "0")
    tap(board, clock, "2")
    assert entries.get(timeout=10) == Entry("10D", "keypad")  # the ten of diamonds


def test_a_firmware_without_a_keypad_leaves_the_strip_working_and_says_so(tmp_path: Path, clock: ManualClock) -> None:
    board = SimulatedPico(clock, tmp_path / "ttyACM0")
    firmware = board.firmware["controller"]
    firmware.CAPABILITIES &= ~16  # a Pico flashed with firmware that has no keypad
    keypad = PicoKeypad(PICO_ROWS, PICO_COLUMNS, clock=clock)
    driver = PicoPegStrip(str(board.port), LAYOUT.led_count, clock=clock, brightness=255, max_current_ma=2000,
                          keypad=keypad)
    try:
        assert wait_for(driver.changed, lambda: driver.connected)
        assert "does not scan a keypad: reflash it" in said(driver.problem)
        driver.show(pegs((0, 3), (0, 0)))
        strip = board.strip
        assert strip is not None and wait_for(strip.changed, lambda: strip[LAYOUT.led_for(0, 3)] == RED)
    finally:
        driver.close()
        board.close()
