"""CPython stand-in for MicroPython's `machine` (Pin, Timer, WDT), wired to a simulated keypad matrix: the
simulator's own (companion/devices/picosim.py), one wiring for the whole test process. A column input reads 0 while
a pressed key (a (row pin, column pin) pair in `matrix.pressed`) joins it to a row output that is driven low, as
on the board; `matrix.timers` are the timers running (the tests call what they would)."""

from __future__ import annotations

from companion.devices.picosim import Wiring

matrix = Wiring()
_machine = matrix.machine()
Pin, Timer, WDT, WDT_RESET, PWRON_RESET = (_machine.Pin, _machine.Timer, _machine.WDT, _machine.WDT_RESET,
                                           _machine.PWRON_RESET)

__all__ = ["PWRON_RESET", "WDT", "WDT_RESET", "Pin", "Timer", "matrix"]
