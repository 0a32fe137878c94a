"""Barcode scanners: USB keyboard-wedge scanners through evdev, and serial (USB-CDC / RS-232) ones through pyserial.

A keyboard-wedge scanner types each code and presses Enter. We open its /dev/input/event* device and grab it,
so the codes never reach the console or a login prompt, and translate key codes to characters ourselves (a US
layout, as scanners default to). A serial scanner sends each code as a line (CR, LF or both). Each driver
reads in a thread of its own, cleans the text (`normalise_scan`), counts a code read again within the
duplicate window once, and emits it. Unplugged scanners are reopened when they come back.
evdev and pyserial are imported here, when a scanner is opened.
"""

from __future__ import annotations

import abc
import contextlib
import logging
import re
import select
import threading
from collections.abc import Iterator
from typing import Any

from companion.clock import Clock
from companion.devices.base import DeviceError, Emit, EntryDevice
from companion.entry import Entry
from companion.entry.scans import DuplicateFilter, normalise_scan

log = logging.getLogger(__name__)

RETRY_SECONDS = 2.0
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
    """The reader thread, the duplicate filter and reopening after an unplug, shared by both kinds."""

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
        while not self._stop.is_set():
            try:
                for text in self.read_codes(self._stop):
                    self.deliver(text)
            except (OSError, DeviceError) as error:
                log.warning("%s: %s; trying again every %.0f s", self.name, error, RETRY_SECONDS)
                self.release()
                if self._stop.wait(RETRY_SECONDS):
                    break
                try:
                    self.reopen()
                except DeviceError as again:
                    log.debug("%s: %s", self.name, again)

    @abc.abstractmethod
    def read_codes(self, stop: threading.Event) -> Iterator[str]:
        """The codes read until `stop` is set; raises OSError or DeviceError when the scanner goes away."""

    @abc.abstractmethod
    def reopen(self) -> None:
        """Open the scanner again (DeviceError when it is not back yet)."""

    @abc.abstractmethod
    def release(self) -> None:
        """Let go of the scanner; safe when it is already closed."""

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
        self.release()


class EvdevScanner(_Scanner):
    """A keyboard-wedge scanner, grabbed so its typing reaches only us."""

    name = "scanner:evdev"

    def __init__(self, device: str, *, clock: Clock, duplicate_window: float = 1.5) -> None:
        super().__init__(clock, duplicate_window)
        self.spec = device
        self.device: Any = None
        self.reopen()

    def reopen(self) -> None:
        self.device = find_input_device(self.spec)
        try:
            self.device.grab()
        except OSError as error:
            self.device.close()
            raise DeviceError(f"cannot grab {self.device.path} ({error}): another program holds the scanner; "
                              "stop it (or another cribbage-companion) and start again") from error

    def read_codes(self, stop: threading.Event) -> Iterator[str]:
        if self.device is None:
            raise DeviceError("the scanner is not open")
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
            self.device.close()
            self.device = None


SCANNER_WORDS = ("barcode", "scanner")


def find_input_device(spec: str) -> Any:
    """An evdev InputDevice: `spec` is a /dev/input path, part of a device name, or "" for a scanner-like name."""
    import evdev

    if spec.startswith("/"):
        return _open_input(spec)
    paths = evdev.list_devices()
    if not paths:
        raise DeviceError("no input devices can be read: is the scanner plugged in, and is the user in the "
                          "'input' group? (ls -l /dev/input)")
    seen: list[str] = []
    for path in paths:
        device = _open_input(path)
        name = device.name.lower()
        wanted = spec.lower() in name if spec else any(word in name for word in SCANNER_WORDS)
        if wanted:
            return device
        seen.append(f"{path} {device.name!r}")
        device.close()
    wanted_text = f"named like {spec!r}" if spec else "named like 'barcode' or 'scanner'"
    raise DeviceError(f"no input device {wanted_text}; found {'; '.join(seen)}: set scanner.device to the path "
                      "or part of the name of the scanner")


def _open_input(path: str) -> Any:
    import evdev

    try:
        return evdev.InputDevice(path)
    except PermissionError as error:
        raise DeviceError(f"no permission to read {path}: add the user to the 'input' group "
                          "(sudo adduser $USER input) and log in again") from error
    except OSError as error:
        raise DeviceError(f"cannot open {path} ({error.strerror}): is the scanner plugged in? "
                          "check scanner.device") from error


_LINE_END = re.compile(rb"[\r\n]")


class SerialScanner(_Scanner):
    """A scanner in serial mode: one code per line, CR or LF or both."""

    name = "scanner:serial"

    def __init__(self, port: str, *, baud: int = 9600, clock: Clock, duplicate_window: float = 1.5) -> None:
        super().__init__(clock, duplicate_window)
        self.port_name, self.baud = port, baud
        self.port: Any = None
        self.reopen()

    def reopen(self) -> None:
        import serial

        try:
            self.port = serial.Serial(self.port_name, self.baud, timeout=0.2)
        except serial.SerialException as error:
            raise DeviceError(f"cannot open the scanner's serial port {self.port_name} ({error}): check the cable "
                              "and scanner.port, that the scanner is in serial (USB-CDC) mode, and that the user "
                              "is in the 'dialout' group") from error

    def read_codes(self, stop: threading.Event) -> Iterator[str]:
        import serial

        if self.port is None:
            raise DeviceError("the scanner's port is not open")
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
            self.port.close()
            self.port = None
