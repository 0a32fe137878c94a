from __future__ import annotations

import threading

from companion.base.clock import ManualClock
from companion.devices.keypad import Buttons
from companion.devices.sim import SimulatedKeypad
from companion.entry import Entry
from tests.devices.keypads import COLUMNS, ROWS, run, texts


def test_a_tapped_key_is_read_through_the_row_and_column_pins(keypad: SimulatedKeypad, clock: ManualClock) -> None:
    keypad.press("6")
    assert keypad.keypad.read_matrix() == {(1, 2)}
    # between readings every row is an input pulled up: no row drives, so no column reads low
    assert all(pin.function == "input" and pin.pull == "up" and pin.state for pin in keypad.row_pins)
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


def test_only_one_row_ever_drives_and_only_low_so_two_keys_never_short_two_outputs(
        keypad: SimulatedKeypad, clock: ManualClock) -> None:
    drives: list[list[bool]] = []  # at every change of a row pin: the level of each row that is an output
    wire = keypad.wire

    def watched() -> None:
        drives.append([pin.state for pin in keypad.row_pins if pin.function == "output"])
        wire()

    keypad.wire = watched  # type: ignore[method-assign]
    keypad.press("5")  # 5 and 8 share a column: the classic short when one row is driven high and one low
    assert keypad.keypad.read_matrix() == {(1, 1)}
    assert drives and all(len(levels) <= 1 and not any(levels) for levels in drives)
    assert any(levels == [False] for levels in drives)  # each row was selected, by driving it low


def test_presses_during_a_stalled_main_loop_are_queued_by_the_keypads_own_thread(clock: ManualClock) -> None:
    # The real driver with its scanning thread; the main loop does not poll at all while GO, GO and 3 2 are
    # pressed (an fsync on a slow SD card): the thread queues each press with its time, nothing is lost or merged
    from gpiozero.pins.mock import MockFactory

    from companion.devices.keypad import Keypad

    factory = MockFactory()
    hand = SimulatedKeypad(ROWS, COLUMNS, clock=clock, factory=factory)  # its switches on the same pins
    hand.keypad.close()
    keypad = Keypad(ROWS, COLUMNS, clock=clock, pin_factory=factory, debounce=0.02, scan_every=0.001)
    scans = [0]
    scanned = threading.Condition()
    scan = keypad.scan

    def counted(now: float) -> None:
        scan(now)
        with scanned:
            scans[0] += 1
            scanned.notify_all()

    keypad.scan = counted  # type: ignore[method-assign]
    got: list[Entry] = []
    keypad.start(got.append)

    def scanned_twice() -> None:
        """Let the keypad's thread read the matrix at least twice at the clock's time now."""
        with scanned:
            wanted = scans[0] + 2
            assert scanned.wait_for(lambda: scans[0] >= wanted, 5)

    for label in "AA32":
        hand.press(label)
        for _ in range(3):
            scanned_twice()
            clock.advance(0.015)
        hand.release()
        for _ in range(3):
            scanned_twice()
            clock.advance(0.015)
    assert got == []  # the main loop has not run
    keypad.poll(clock.now)
    keypad.close()
    assert texts(got) == ["go", "go", "3D"]
