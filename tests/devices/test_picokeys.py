"""The keypad on the Pico, from the KEY messages in: the same keymap and entries as the GPIO keypad."""

from __future__ import annotations

import pytest

from companion.base.clock import ManualClock
from companion.devices.picokeys import PicoKeypad
from companion.entry import Entry
from companion.words.messages import Message, Say
from companion.words.phrases import message_words


def key(row: int, column: int, pressed: int = 1) -> bytes:
    """A KEY message body."""
    return bytes((row * 4 + column, pressed))


def test_presses_become_entries_and_releases_and_nonsense_are_passed_by(clock: ManualClock) -> None:
    keypad = PicoKeypad((6, 7, 8, 9), (10, 11, 12, 13), clock=clock)
    assert keypad.keypad_body == bytes((6, 7, 8, 9, 10, 11, 12, 13))
    got: list[Entry] = []
    keypad.start(got.append)
    for body in (key(1, 1), key(1, 1, 0), b"\x10\x01", b"\x05", key(0, 2), key(0, 2, 0)):  # 5, 3
        keypad.key_event(body)
    assert got == []  # heard on the link thread; the main loop takes them
    keypad.poll(clock.now)
    assert got == [Entry("5H", "keypad")]
    keypad.close()
    keypad.key_event(key(0, 3))  # GO after close: nobody to tell
    keypad.poll(clock.now)
    assert got == [Entry("5H", "keypad")]


def test_presses_heard_while_the_main_loop_stalls_are_neither_lost_nor_merged(clock: ManualClock) -> None:
    # GO twice, then 3 2 (the three of diamonds), all heard during one 6-second stall of the main loop (an fsync
    # on a slow SD card); then a half-entered 5 that the stall outlasts: each press is timed as it was heard
    keypad = PicoKeypad((6, 7, 8, 9), (10, 11, 12, 13), clock=clock, timeout=4.0)
    got: list[Entry] = []
    keypad.start(got.append)
    for body in (key(0, 3), key(0, 3, 0), key(0, 3), key(0, 3, 0), key(0, 2), key(0, 2, 0), key(0, 1)):
        keypad.key_event(body)
        clock.advance(0.15)
    keypad.key_event(key(1, 1))  # 5, then nothing for 6 s
    clock.advance(6.0)
    keypad.poll(clock.now)
    assert [entry.text for entry in got] == ["go", "go", "3D", "keys 5"]


def test_a_half_entered_card_times_out_from_the_main_loop(clock: ManualClock) -> None:
    keypad = PicoKeypad((6, 7, 8, 9), (10, 11, 12, 13), clock=clock, timeout=4.0)
    got: list[Entry] = []
    keypad.start(got.append)
    keypad.key_event(key(1, 1))
    clock.advance(3.9)
    keypad.poll(clock.now)
    assert got == []
    clock.advance(0.1)
    keypad.poll(clock.now)
    assert got == [Entry("keys 5", "keypad")]
    assert keypad.sequence.problem == Message(Say.WAIT_SUIT, text="5")
    assert message_words(keypad.sequence.problem).startswith("5 waits for its suit")


def test_pins_the_pico_does_not_have_are_refused(clock: ManualClock) -> None:
    with pytest.raises(ValueError, match="4 row and 4 column pins"):
        PicoKeypad((6, 7, 8), (10, 11, 12, 13), clock=clock)
    with pytest.raises(ValueError, match=r"8 different GP numbers on the Pico's header \(0-22, 26-28\)"):
        PicoKeypad((6, 7, 8, 24), (10, 11, 12, 13), clock=clock)
    with pytest.raises(ValueError, match="8 different GP numbers"):
        PicoKeypad((6, 7, 8, 9), (10, 11, 12, 9), clock=clock)
