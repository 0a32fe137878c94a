"""Hardware that can be unplugged, at the lowest layer the drivers use: an I2C bus at smbus2's level (luma's
ssd1306 driver writes its commands and frames to it), a serial scanner at the far end of a pseudo-terminal
(pyserial reads the near end), and evdev input devices (a keyboard, a mouse, a scanner)."""

from __future__ import annotations

import contextlib
import errno
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PIL import Image

if TYPE_CHECKING:
    from evdev import InputEvent

DISPLAY_ON = 0xAF


class FakeI2C:
    """/dev/i2c-1 with an SSD1306 on it, as smbus2 sees them: `bus` False is the bus missing (I2C off), `display`
    False the display unplugged or unpowered (every transfer fails with EREMOTEIO, as a missing ACK does)."""

    def __init__(self, *, bus: bool = True, display: bool = True) -> None:
        self.bus = bus
        self.display = display
        self.commands: list[int] = []
        self.frames: list[bytes] = []
        self.opened = 0

    def SMBus(self, port: int) -> FakeSMBus:  # stands in for the class smbus2.SMBus
        if not self.bus:
            raise FileNotFoundError(errno.ENOENT, "No such file or directory", f"/dev/i2c-{port}")
        self.opened += 1
        return FakeSMBus(self)

    def unplug(self) -> None:
        self.display = False

    def plug(self) -> None:
        """A display that comes back has lost its power: it is off until initialised again."""
        self.display = True
        self.commands.clear()

    @property
    def on(self) -> bool:
        """The display was sent "display on" (0xAF) since it was powered."""
        return DISPLAY_ON in self.commands

    def shown(self) -> Image.Image | None:
        """The picture the display holds: the last frame's 8 pages of 128 columns, one byte a column."""
        if not self.frames:
            return None
        data = self.frames[-1]
        image = Image.new("1", (128, 64))
        for index, byte in enumerate(data[:1024]):
            page, x = divmod(index, 128)
            for bit in range(8):
                if byte >> bit & 1:
                    image.putpixel((x, page * 8 + bit), 1)
        return image


class FakeSMBus:
    def __init__(self, wire: FakeI2C) -> None:
        self.wire = wire

    def _check(self) -> None:
        if not self.wire.display:
            raise OSError(errno.EREMOTEIO, "Remote I/O error")

    def write_i2c_block_data(self, address: int, mode: int, data: list[int]) -> None:
        self._check()
        self.wire.commands.extend(data)

    def i2c_rdwr(self, *messages: Any) -> None:
        self._check()
        for message in messages:
            self.wire.frames.append(bytes(message)[1:])  # after the data-mode byte

    def close(self) -> None:
        pass


class PtyScanner:
    """A serial barcode scanner on a USB port: `path` exists while it is plugged in (a link to a fresh
    pseudo-terminal each time), `send(b"C5H\\r\\n")` is a scan."""

    def __init__(self, path: Path, *, plugged: bool = True) -> None:
        self.path = path
        self.fds: tuple[int, int] | None = None
        if plugged:
            self.plug()

    def plug(self) -> None:
        if self.fds is None:
            self.fds = os.openpty()
            self.path.unlink(missing_ok=True)
            self.path.symlink_to(os.ttyname(self.fds[1]))

    def unplug(self) -> None:
        if self.fds is not None:
            self.path.unlink(missing_ok=True)
            for fd in self.fds:
                os.close(fd)
            self.fds = None

    def send(self, data: bytes) -> None:
        assert self.fds is not None, "the scanner is unplugged"
        os.write(self.fds[0], data)


class FakeInput:
    """A USB input device (keyboard, mouse, scanner) as evdev sees it: `open(path)` stands in for
    evdev.InputDevice; events typed reach the handles open at the time; `unplug()` makes them fail (ENODEV)."""

    def __init__(self, path: str, name: str, vendor: int, product: int, keys: tuple[int, ...] = ()) -> None:
        from evdev import ecodes
        from evdev.device import DeviceInfo

        self.path, self.name, self.info = path, name, DeviceInfo(3, vendor, product, 0x110)
        self.caps = {ecodes.EV_KEY: list(keys)} if keys else {ecodes.EV_REL: [0, 1]}
        self.plugged = True
        self.handles: list[FakeHandle] = []

    def type(self, events: list[Any]) -> None:
        for handle in self.handles:
            handle.events.extend(events)
            os.write(handle.write_end, b"\0")

    def unplug(self) -> None:
        self.plugged = False
        for handle in self.handles:
            os.write(handle.write_end, b"\0")  # a vanished device's fd reads as ready, then fails


class FakeHandle:
    """One open evdev InputDevice on a FakeInput."""

    def __init__(self, device: FakeInput) -> None:
        if not device.plugged:
            raise FileNotFoundError(errno.ENOENT, "No such file or directory", device.path)
        self.device = device
        self.path, self.name, self.info = device.path, device.name, device.info
        self.events: list[Any] = []
        self.fd, self.write_end = os.pipe()
        os.set_blocking(self.fd, False)
        self.grabbed = False
        device.handles.append(self)

    def capabilities(self) -> dict[int, list[int]]:
        return self.device.caps

    def grab(self) -> None:
        self.grabbed = True

    def ungrab(self) -> None:
        if not self.device.plugged:
            raise OSError(errno.ENODEV, "No such device")
        self.grabbed = False

    def read(self) -> Any:
        if not self.device.plugged:
            raise OSError(errno.ENODEV, "No such device")
        with contextlib.suppress(BlockingIOError):
            os.read(self.fd, 4096)
        if not self.events:
            raise BlockingIOError(errno.EAGAIN, "Resource temporarily unavailable")
        events, self.events = self.events, []
        return iter(events)

    def close(self) -> None:
        if self in self.device.handles:
            self.device.handles.remove(self)
            os.close(self.fd)
            os.close(self.write_end)


def plug_inputs(monkeypatch: Any, devices: list[FakeInput]) -> None:
    """evdev.list_devices and evdev.InputDevice see `devices` (those plugged in)."""
    import evdev

    monkeypatch.setattr(evdev, "list_devices", lambda: [d.path for d in devices if d.plugged])
    by_path = {device.path: device for device in devices}

    def open_input(path: str) -> FakeHandle:
        if path not in by_path:
            raise FileNotFoundError(errno.ENOENT, "No such file or directory", path)
        return FakeHandle(by_path[path])

    monkeypatch.setattr(evdev, "InputDevice", open_input)


def keyboard_keys() -> tuple[int, ...]:
    """Letters, digits and Enter: what a keyboard and a keyboard-wedge scanner both have."""
    from evdev import ecodes

    return tuple(ecodes.ecodes[f"KEY_{name}"] for name in (*"ABCDEFGHIJKLMNOPQRSTUVWXYZ", *"0123456789",
                                                             "ENTER", "LEFTSHIFT"))


def key(name: str, value: int = 1) -> InputEvent:
    """One key going down (1), up (0) or repeating (2)."""
    from evdev import InputEvent, ecodes

    return InputEvent(0, 0, ecodes.EV_KEY, ecodes.ecodes[f"KEY_{name}"], value)


def typed(text: str) -> list[InputEvent]:
    """What a keyboard-wedge scanner sends for `text` and Enter (with SYN and MSC events between keys)."""
    from evdev import InputEvent, ecodes

    names = {"-": "MINUS", " ": "SPACE", "]": "RIGHTBRACE", ".": "DOT"}
    events: list[InputEvent] = []
    for char in text:
        name = names.get(char, char.upper())
        shifted = char.isupper()
        if shifted:
            events.append(key("LEFTSHIFT", 1))
        events += [InputEvent(0, 0, ecodes.EV_MSC, ecodes.MSC_SCAN, 4), key(name, 1), key(name, 0),
                   InputEvent(0, 0, ecodes.EV_SYN, ecodes.SYN_REPORT, 0)]
        if shifted:
            events.append(key("LEFTSHIFT", 0))
    return [*events, key("ENTER", 1), key("ENTER", 0)]
