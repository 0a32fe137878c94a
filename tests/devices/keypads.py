"""The simulated keypad's wiring (its row and column pins) and the main loop's polling on a manual clock, for the
device tests."""

from __future__ import annotations

from companion.base.clock import ManualClock
from companion.devices.sim import SimulatedKeypad
from companion.entry import Entry

ROWS, COLUMNS = (5, 6, 13, 19), (12, 16, 20, 26)


def run(device: SimulatedKeypad, clock: ManualClock, seconds: float, step: float = 0.01) -> None:
    """The main loop's polling, on the manual clock."""
    for _ in range(round(seconds / step)):
        device.poll(clock.now)
        clock.advance(step)


def texts(entries: list[Entry]) -> list[str]:
    return [entry.text for entry in entries]
