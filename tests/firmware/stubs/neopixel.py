"""CPython stand-in for MicroPython's `neopixel`: the simulator's own (companion/devices/picosim.py), byte for
byte the same `ORDER` mapping into the same buffer; `write()` keeps what went down the data line and wakes
anyone waiting."""

from __future__ import annotations

from companion.devices.picosim import NeoPixel

__all__ = ["NeoPixel"]
