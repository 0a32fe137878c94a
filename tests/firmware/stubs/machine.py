"""CPython stand-in for MicroPython's `machine.Pin`, wired to a simulated keypad matrix.

A column input reads 0 while a pressed key joins it to a row output that is driven low, as on the board."""

from __future__ import annotations


class Matrix:
    """The keys held down, as (row pin, column pin) pairs."""

    def __init__(self) -> None:
        self.pressed: set[tuple[int, int]] = set()


matrix = Matrix()
_outputs: dict[int, int] = {}


class Pin:
    OUT = 1
    IN = 0
    PULL_UP = 1

    def __init__(self, id: int, mode: int = -1, pull: int = -1) -> None:
        self.id = id
        self.mode = mode
        self.pull = pull
        if mode == Pin.OUT:
            _outputs[id] = 1

    def value(self, level: int | None = None) -> int | None:
        if level is not None:
            _outputs[self.id] = level
            return None
        if self.mode == Pin.OUT:
            return _outputs[self.id]
        joined = any(_outputs.get(row, 1) == 0 for row, column in matrix.pressed if column == self.id)
        return 0 if joined else 1
