"""The firmware under CPython: its directory and the stub `machine`/`neopixel` modules on sys.path, so that the
firmware's tests import its modules as the Pico does. (The host driver's end-to-end tests use the packaged
simulated Pico, companion/devices/picosim.py, which loads the firmware apart from sys.modules.)"""

from __future__ import annotations

import sys
from pathlib import Path

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"
STUBS = Path(__file__).resolve().parent / "stubs"
for folder in (STUBS, FIRMWARE):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

import controller  # noqa: E402 - the firmware modules, found through the paths above
import lights  # noqa: E402
import link  # noqa: E402
import machine  # noqa: E402
import neopixel  # noqa: E402
import pico  # noqa: E402

__all__ = ["FIRMWARE", "controller", "lights", "link", "machine", "neopixel", "pico"]
