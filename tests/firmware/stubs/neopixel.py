"""CPython stand-in for MicroPython's `neopixel.NeoPixel`, byte for byte: the same `ORDER` mapping into the
same buffer. `write()` records the bytes that would go down the data line and wakes anyone waiting."""

from __future__ import annotations

import threading


class NeoPixel:
    ORDER = (1, 0, 2, 3)

    def __init__(self, pin: object, n: int, bpp: int = 3, timing: int = 1) -> None:
        self.pin = pin
        self.n = n
        self.bpp = bpp
        self.buf = bytearray(n * bpp)
        self.writes: list[bytes] = []
        self.changed = threading.Condition()

    def __len__(self) -> int:
        return self.n

    def __setitem__(self, index: int, value: tuple[int, ...]) -> None:
        offset = index * self.bpp
        for i in range(self.bpp):
            self.buf[offset + self.ORDER[i]] = value[i]

    def __getitem__(self, index: int) -> tuple[int, ...]:
        offset = index * self.bpp
        return tuple(self.buf[offset + self.ORDER[i]] for i in range(self.bpp))

    def fill(self, value: tuple[int, ...]) -> None:
        for index in range(self.n):
            self[index] = value

    def write(self) -> None:
        with self.changed:
            self.writes.append(bytes(self.buf))
            self.changed.notify_all()
