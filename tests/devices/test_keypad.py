from __future__ import annotations

from companion.clock import ManualClock
from companion.devices.keypad import Buttons
from companion.devices.sim import SimulatedKeypad
from companion.entry import Entry
from tests.devices.conftest import run, texts


def test_a_tapped_key_is_read_through_the_row_and_column_pins(keypad: SimulatedKeypad, clock: ManualClock) -> None:
    keypad.press("6")
    assert keypad.keypad.read_matrix() == {(1, 2)}
    # the driver leaves every row high between scans, so no column reads low
    assert all(pin.state for pin in keypad.row_pins)
    assert all(pin.state for pin in keypad.column_pins)
    keypad.release()
    assert keypad.keypad.read_matrix() == set()


def test_one_press_gives_exactly_one_entry(keypad: SimulatedKeypad, clock: ManualClock) -> None:
    got: list[Entry] = []
    keypad.start(got.append)
    keypad.tap("53")
    run(keypad, clock, 1.0)
    assert got == [Entry("5H", "keypad")]
    keypad.tap("*24A")
    run(keypad, clock, 1.0)
    assert texts(got) == ["5H", "QS", "go"]
    assert not keypad.busy


def test_a_key_held_down_counts_once(keypad: SimulatedKeypad, clock: ManualClock) -> None:
    got: list[Entry] = []
    keypad.start(got.append)
    keypad.press("A")  # GO, held for two seconds
    run(keypad, clock, 2.0)
    keypad.release()
    run(keypad, clock, 0.1)
    assert texts(got) == ["go"]


def test_contact_bounce_within_the_debounce_time_is_one_press(keypad: SimulatedKeypad, clock: ManualClock) -> None:
    got: list[Entry] = []
    keypad.start(got.append)
    # GO bounces: closed 5 ms, open 5 ms, closed 5 ms, then closed for good; then released with a bounce too
    for down in [True, False, True, False, True]:
        keypad.press("A") if down else keypad.release()
        keypad.poll(clock.now)
        clock.advance(0.005)
    run(keypad, clock, 0.2, step=0.005)
    for down in [False, True, False]:
        keypad.press("A") if down else keypad.release()
        keypad.poll(clock.now)
        clock.advance(0.005)
    run(keypad, clock, 0.2, step=0.005)
    assert texts(got) == ["go"]


def test_a_press_shorter_than_the_debounce_time_is_ignored(keypad: SimulatedKeypad, clock: ManualClock) -> None:
    got: list[Entry] = []
    keypad.start(got.append)
    keypad.press("A")
    run(keypad, clock, 0.015, step=0.005)
    keypad.release()
    run(keypad, clock, 0.2)
    assert got == []


def test_a_half_entered_card_times_out_with_a_message(keypad: SimulatedKeypad, clock: ManualClock) -> None:
    got: list[Entry] = []
    keypad.start(got.append)
    keypad.tap("5")
    run(keypad, clock, 3.5)
    assert got == []
    run(keypad, clock, 1.0)
    assert got == [Entry("keys 5", "keypad")]


def test_buttons_emit_their_command_once_per_press(keypad: SimulatedKeypad) -> None:
    buttons = Buttons({"go": 17, "undo": 27, "ok": 22}, pin_factory=keypad.factory)
    got: list[Entry] = []
    buttons.start(got.append)
    undo = keypad.factory.pin("GPIO27")
    undo.drive_low()
    undo.drive_high()
    assert got == [Entry("undo", "buttons")]
    buttons.close()
