"""CPython stand-in for MicroPython's `machine.Pin`, wired to a simulated keypad matrix: the simulator's own
(companion/devices/picosim.py), one wiring for the whole test process. A column input reads 0 while a pressed key
(a (row pin, column pin) pair in `matrix.pressed`) joins it to a row output that is driven low, as on the board."""

from __future__ import annotations

from companion.devices.picosim import Wiring

matrix = Wiring()
Pin = matrix.machine().Pin

__all__ = ["Pin", "matrix"]
