"""Barcode scanners: USB keyboard-wedge scanners through evdev, and serial (USB-CDC / RS-232) ones through pyserial.

A keyboard-wedge scanner types each code and presses Enter. We open its /dev/input/event* device and grab it,
so the codes never reach the console or a login prompt, and translate key codes to characters ourselves (a US
layout, as scanners default to). A serial scanner sends each code as a line (CR, LF or both). Each driver
reads in a thread of its own, cleans the text (`normalise_scan`), counts a code read again within the
duplicate window once, and emits it. A scanner that goes away stops with `problem` set; the registry's watch
(companion/devices/presence.py) opens a new one when it is back, so nothing typed meanwhile is replayed.
evdev and pyserial are imported here, when a scanner is opened.
"""

from __future__ import annotations

import abc
import contextlib
import re
import select
import threading
from collections.abc import Iterator
from typing import Any

from companion.base.clock import Clock
from companion.devices.base import (
    DeviceError,
    DeviceMissing,
    DeviceMiswired,
    DeviceProblem,
    Emit,
    EntryDevice,
    Fault,
    problem_of,
)
from companion.entry import Entry
from companion.entry.scans import DuplicateFilter, normalise_scan
from companion.words.settings import Bad, Invalid

_SHIFTED_DIGITS = ")!@#$%^&*("
_PUNCTUATION = {  # key name: (plain, shifted)
    "MINUS": ("-", "_"), "EQUAL": ("=", "+"), "LEFTBRACE": ("[", "{"), "RIGHTBRACE": ("]", "}"),
    "SEMICOLON": (";", ":"), "APOSTROPHE": ("'", '"'), "GRAVE": ("`", "~"), "BACKSLASH": ("\\", "|"),
    "COMMA": (",", "<"), "DOT": (".", ">"), "SLASH": ("/", "?"), "SPACE": (" ", " "),
    "KPMINUS": ("-", "-"), "KPPLUS": ("+", "+"), "KPASTERISK": ("*", "*"), "KPSLASH": ("/", "/"),
    "KPDOT": (".", "."),
}
ENDS = ("ENTER", "KPENTER", "TAB")
MAX_CODE = 256  # our codes are 2-3 characters, shop barcodes at most 48: of a longer line (noise) only the tail is kept
SHIFTS = ("LEFTSHIFT", "RIGHTSHIFT")


def _keymap() -> dict[int, tuple[str, str]]:
    from evdev import ecodes

    keys: dict[int, tuple[str, str]] = {}
    for letter in "ABCDEFGHIJKLMNOPQRSTUVWXYZ":
        keys[ecodes.ecodes[f"KEY_{letter}"]] = (letter.lower(), letter)
    for digit in range(10):
        keys[ecodes.ecodes[f"KEY_{digit}"]] = (str(digit), _SHIFTED_DIGITS[digit])
        keys[ecodes.ecodes[f"KEY_KP{digit}"]] = (str(digit), str(digit))
    for name, chars in _PUNCTUATION.items():
        keys[ecodes.ecodes[f"KEY_{name}"]] = chars
    return keys


class WedgeDecoder:
    """evdev key events in, the codes a keyboard-wedge scanner typed out (one per Enter)."""

    def __init__(self) -> None:
        from evdev import ecodes

        self._ev_key = ecodes.EV_KEY
        self._keys = _keymap()
        self._ends = {ecodes.ecodes[f"KEY_{name}"] for name in ENDS}
        self._shifts = {ecodes.ecodes[f"KEY_{name}"] for name in SHIFTS}
        self._caps_lock = ecodes.KEY_CAPSLOCK
        self._shift = False
        self._caps = False
        self._typed: list[str] = []

    def feed(self, event: Any) -> str | None:
        """One InputEvent; returns a code when it ends one (Enter), else None."""
        if event.type != self._ev_key:
            return None
        if event.code in self._shifts:
            self._shift = event.value != 0  # down 1, held 2, up 0
            return None
        if event.value != 1:  # only key-down counts; ignore releases and autorepeat
            return None
        if event.code == self._caps_lock:
            self._caps = not self._caps
        elif event.code in self._ends:
            code, self._typed = "".join(self._typed), []
            return code or None
        elif event.code in self._keys:
            plain, shifted = self._keys[event.code]
            upper = self._shift != (self._caps and plain.isalpha())
            self._typed = self._typed[1 - MAX_CODE:]
            self._typed.append(shifted if upper else plain)
        return None


class _Scanner(EntryDevice):
    """The reader thread and the duplicate filter, shared by both kinds. A scanner that goes away (an OSError
    while reading) sets `problem` and its thread ends: the registry's watch reopens it when it is back."""

    def __init__(self, clock: Clock, duplicate_window: float) -> None:
        self.duplicates = DuplicateFilter(clock, duplicate_window)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._emit: Emit | None = None

    def start(self, emit: Emit) -> None:
        self._emit = emit
        self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
        self._thread.start()

    def deliver(self, text: str) -> None:
        code = normalise_scan(text)
        if code and self._emit is not None and self.duplicates.accept(code):
            self._emit(Entry(code, self.name))

    def _run(self) -> None:
        try:
            for text in self.read_codes(self._stop):
                self.deliver(text)
        except (OSError, DeviceError) as error:
            self.problem = DeviceProblem(Fault.SCANNER_GONE, cause=problem_of(error))

    @abc.abstractmethod
    def read_codes(self, stop: threading.Event) -> Iterator[str]:
        """The codes read until `stop` is set; raises OSError or DeviceError when the scanner goes away."""

    @abc.abstractmethod
    def release(self) -> None:
        """Let go of the scanner; safe when it is already closed."""

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
        self.release()


class EvdevScanner(_Scanner):
    """A keyboard-wedge scanner, grabbed so its typing reaches only us. What it typed before we held it (while
    it was away, or before the daemon started) is dropped: only codes scanned from now on count."""

    name = "scanner:evdev"

    def __init__(self, device: str, *, clock: Clock, duplicate_window: float = 1.5) -> None:
        super().__init__(clock, duplicate_window)
        self.spec = device
        self.device: Any = find_input_device(device)
        try:
            self.device.grab()
        except OSError as error:
            self.device.close()
            raise DeviceError(Fault.SCANNER_HELD, path=str(self.device.path), error=str(error)) from error
        with contextlib.suppress(BlockingIOError):
            for _ in self.device.read():  # typed before we held it
                pass

    def read_codes(self, stop: threading.Event) -> Iterator[str]:
        decoder = WedgeDecoder()
        while not stop.is_set():
            ready, _, _ = select.select([self.device.fd], [], [], 0.2)
            if ready:
                for event in self.device.read():
                    if (code := decoder.feed(event)) is not None:
                        yield code

    def release(self) -> None:
        if self.device is not None:
            with contextlib.suppress(OSError):  # already gone
                self.device.ungrab()
            with contextlib.suppress(OSError):
                self.device.close()
            self.device = None


_VENDOR_PRODUCT = re.compile(r"^([0-9a-fA-F]{4}):([0-9a-fA-F]{4})$")


def scanner_spec_problem(spec: str) -> Invalid | None:
    """Why `spec` (scanner.device) names no scanner, or None: "", a /dev/input path, or vendor:product."""
    if spec == "" or spec.startswith("/") or _VENDOR_PRODUCT.match(spec):
        return None
    return Invalid(Bad.SCANNER_DEVICE, spec=spec)


def types_codes(device: Any) -> bool:
    """Whether an evdev device has the keys a barcode scanner types: letters, digits and Enter."""
    from evdev import ecodes

    keys = set(device.capabilities().get(ecodes.EV_KEY, ()))
    wanted = [ecodes.ecodes[f"KEY_{name}"] for name in (*"AZ", *"09", "ENTER")]
    return all(code in keys for code in wanted)


def find_input_device(spec: str) -> Any:
    """The scanner's evdev InputDevice: `spec` is a /dev/input path (by-id paths stay true across replugs), a
    USB vendor:product, or "" for the one device that can type letters, digits and Enter."""
    try:
        import evdev
    except ImportError as error:
        raise DeviceMissing(Fault.NO_EVDEV) from error

    if spec.startswith("/"):
        return _open_input(spec)
    wanted = _VENDOR_PRODUCT.match(spec)
    found: list[Any] = []
    for path in evdev.list_devices():
        try:
            device = _open_input(path)
        except DeviceError:
            continue  # not ours to read (a permission error for the scanner shows below as "none found")
        ids = (device.info.vendor, device.info.product)
        if (ids == (int(wanted[1], 16), int(wanted[2], 16))) if wanted else types_codes(device):
            found.append(device)
        else:
            device.close()
    if len(found) == 1:
        return found[0]
    for device in found:
        device.close()
    if found:
        seen = tuple(f"{d.path} {d.name!r} ({d.info.vendor:04x}:{d.info.product:04x})" for d in found)
        raise DeviceMiswired(Fault.SCANNERS_SEVERAL, found=seen)
    if wanted:
        raise DeviceMissing(Fault.NO_SCANNER_ID, spec=spec)
    raise DeviceMissing(Fault.NO_SCANNER)


def _open_input(path: str) -> Any:
    import evdev

    try:
        return evdev.InputDevice(path)
    except PermissionError as error:
        raise DeviceError(Fault.INPUT_PERMISSION, path=path) from error
    except OSError as error:
        raise DeviceMissing(Fault.INPUT_OPEN, path=path, error=str(error.strerror)) from error


_LINE_END = re.compile(rb"[\r\n]")


class SerialScanner(_Scanner):
    """A scanner in serial mode: one code per line, CR or LF or both."""

    name = "scanner:serial"

    def __init__(self, port: str, *, baud: int = 9600, clock: Clock, duplicate_window: float = 1.5) -> None:
        super().__init__(clock, duplicate_window)
        self.port_name, self.baud = port, baud
        import serial

        try:
            self.port: Any = serial.Serial(port, baud, timeout=0.2)
            self.port.reset_input_buffer()  # what it sent before we listened is not replayed
        except serial.SerialException as error:
            raise DeviceMissing(Fault.SERIAL_PORT, port=port, error=str(error)) from error

    def read_codes(self, stop: threading.Event) -> Iterator[str]:
        import serial

        pending = b""
        while not stop.is_set():
            try:
                chunk = self.port.read(self.port.in_waiting or 1)
            except serial.SerialException as error:
                raise OSError(f"{self.port_name}: {error}") from error
            pending += chunk
            *lines, pending = _LINE_END.split(pending)
            pending = pending[-MAX_CODE:]
            for line in lines:
                if line.strip():
                    yield line[-MAX_CODE:].decode("ascii", errors="replace")

    def release(self) -> None:
        if self.port is not None:
            with contextlib.suppress(OSError):
                self.port.close()
            self.port = None
