"""Helpers for the tests of the host's Pico driver against the simulated Pico (companion/devices/picosim.py):
waiting on a condition (bounded), a hand on the keypad wired to the Pico, and the main loop's side of its keys."""

from __future__ import annotations

import queue
import threading
from typing import Any

from companion.base.clock import ManualClock
from companion.devices.picokeys import PicoKeypad
from companion.devices.picosim import SimulatedPico
from companion.entry import Entry

PICO_ROWS, PICO_COLUMNS = (6, 7, 8, 9), (10, 11, 12, 13)
"""The packaged defaults, keypad.pico_rows and keypad.pico_columns."""


def wait_for(condition: threading.Condition, predicate: Any, timeout: float = 10.0) -> bool:
    with condition:
        return bool(condition.wait_for(predicate, timeout))


def tap(pico: SimulatedPico, clock: ManualClock, labels: str) -> None:
    """Press and release keys on the Pico's pins, its clock moving 10 ms a turn of the firmware's loop, until the
    firmware's scanner has debounced (20 ms) each press and each release and sent a KEY message for each."""
    sent = pico.keys_sent
    pico.tap(labels)
    for _ in range(20 * len(labels)):
        if not pico.pressing:
            break
        clock.advance(0.01)
        assert pico.turn()
    assert not pico.pressing and pico.keys_sent == sent + 2 * len(labels)


class MainLoop:
    """The daemon's side of the keypad: its presses, queued by the link thread, taken by the loop's `poll`."""

    def __init__(self, keypad: PicoKeypad, clock: ManualClock) -> None:
        self.keypad, self.clock = keypad, clock
        self.entries: queue.Queue[Entry] = queue.Queue()
        keypad.start(self.entries.put)

    def get(self, timeout: float) -> Entry:
        """The next entry, polling as the main loop does until the link thread has heard its keys."""
        waited = threading.Event()
        for _ in range(round(timeout / 0.005)):
            self.keypad.poll(self.clock.now)
            if not self.entries.empty():
                break
            waited.wait(0.005)
        return self.entries.get_nowait()

    def empty(self) -> bool:
        self.keypad.poll(self.clock.now)
        return self.entries.empty()
