from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.base.clock import ManualClock
from companion.devices.picosim import SimulatedPico
from companion.devices.sim import SimulatedKeypad
from tests.devices.keypads import COLUMNS, ROWS


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(100.0)


@pytest.fixture
def pico(clock: ManualClock, tmp_path: Path) -> Iterator[SimulatedPico]:
    """A simulated Pico: the real firmware in a thread, at the far end of a pseudo-terminal."""
    board = SimulatedPico(clock, tmp_path / "ttyACM0")
    yield board
    board.close()


@pytest.fixture
def keypad(clock: ManualClock) -> SimulatedKeypad:
    device = SimulatedKeypad(ROWS, COLUMNS, clock=clock, debounce=0.02, timeout=4.0)
    yield device
    device.close()
