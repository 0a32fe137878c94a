"""The firmware under CPython: its directory and the stub `machine`/`neopixel` modules on sys.path, and a
Pico at the far end of a pseudo-terminal for the end-to-end tests of the host driver."""

from __future__ import annotations

import os
import select
import sys
import threading
import tty
from pathlib import Path
from typing import Any

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

__all__ = ["FIRMWARE", "PtyPico", "controller", "lights", "link", "machine", "neopixel", "pico", "wait_for"]


def wait_for(condition: threading.Condition, predicate: Any, timeout: float = 10.0) -> bool:
    with condition:
        return bool(condition.wait_for(predicate, timeout))


class PtyPico:
    """A freshly powered Pico plugged in at `port` (a symlink to a new pseudo-terminal), running the real
    firmware logic in a thread; `now` is its millisecond clock, moved by the test. `unplug()` closes the
    terminal, as pulling the USB cable does."""

    def __init__(self, port: Path) -> None:
        self.now = 0
        self.strips: list[neopixel.NeoPixel] = []
        self.controller = controller.Controller(self._make_pixels, self.now)
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)  # no echo: the link is binary
        self.port = port
        port.unlink(missing_ok=True)
        port.symlink_to(os.ttyname(self.slave))
        self.running = True
        self.received = threading.Condition()
        self.messages = 0
        self.thread = threading.Thread(target=self._serve, name="pty-pico", daemon=True)
        self.thread.start()

    def _make_pixels(self, pin: int, count: int, order: str) -> neopixel.NeoPixel:
        strip = pico.make_pixels(pin, count, order)
        self.strips.append(strip)
        return strip

    @property
    def strip(self) -> neopixel.NeoPixel:
        return self.strips[-1]

    def _serve(self) -> None:
        while self.running:
            ready, _, _ = select.select([self.master], [], [], 0.02)
            try:
                data = os.read(self.master, 4096) if ready else b""
            except OSError:  # nobody has the other end open (yet)
                data = b""
            reply = self.controller.receive(data, self.now) if data else b""
            reply += self.controller.tick(self.now)
            if reply:
                os.write(self.master, reply)
            if data:
                with self.received:
                    self.messages += data.count(0)
                    self.received.notify_all()

    def unplug(self) -> None:
        self.running = False
        self.thread.join(5)
        os.close(self.master)
        os.close(self.slave)
        self.port.unlink(missing_ok=True)
