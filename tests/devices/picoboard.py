"""A keypad on the Pico at the far end of the pseudo-terminal (tests.firmware.sim.PtyPico): the firmware's own
scanner on the stub `machine` pins, and a hand that presses keys there."""

from __future__ import annotations

import threading

from companion.entry.keymap import LAYOUT
from tests.firmware.sim import PtyPico, machine, pico, wait_for

PICO_ROWS, PICO_COLUMNS = (6, 7, 8, 9), (10, 11, 12, 13)
"""The packaged defaults, keypad.pico_rows and keypad.pico_columns."""


class WatchedKeypad:
    """The firmware's keypad scanner, with a condition the test can wait on for each scan."""

    def __init__(self, rows: tuple[int, ...], columns: tuple[int, ...]) -> None:
        self.rows, self.columns = rows, columns
        self.keypad = pico.make_keypad(rows, columns)
        self.scanned = threading.Condition()

    def scan(self, now: int) -> list[tuple[int, bool]]:
        events: list[tuple[int, bool]] = self.keypad.scan(now)
        with self.scanned:
            self.scanned.notify_all()
        return events


def with_keypad(board: PtyPico) -> PtyPico:
    """The board's firmware scans a keypad when the host asks (as main.py on a Pico does), watched by the test."""
    board.controller.make_keypad = WatchedKeypad
    return board


def tap(board: PtyPico, label: str) -> None:
    """Press and release a key on the Pico's pins, each held past the firmware's 20 ms debounce."""
    scanner = board.controller.keypad
    assert isinstance(scanner, WatchedKeypad)
    row = next(r for r, keys in enumerate(LAYOUT) if label in keys)
    column = LAYOUT[row].index(label)
    switch, key = (scanner.rows[row], scanner.columns[column]), row * 4 + column
    for down in (True, False):
        if down:
            machine.matrix.pressed.add(switch)
        else:
            machine.matrix.pressed.discard(switch)
        assert wait_for(scanner.scanned, lambda down=down: scanner.keypad.seen[key] == down)
        board.now += 30
        assert wait_for(scanner.scanned, lambda down=down: scanner.keypad.state[key] == down)
