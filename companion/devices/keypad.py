"""The 4x4 matrix keypad and the GO / UNDO / OK push buttons, on gpiozero.

gpiozero has no matrix keypad: the rows are outputs (high when idle), the columns inputs with pull-ups.
`poll(now)`, called by the main loop about every 10 ms, drives one row low at a time and reads which columns
follow it low; a key counts once its reading has held for the debounce time. `KeypadEntry`, shared with the
keypad on the Pico (`companion.devices.picokeys`), turns presses into entries through the keymap
(`companion.entry.keymap`). gpiozero is imported here, when a keypad is made.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

from companion.clock import Clock
from companion.devices.base import DeviceError, Emit, EntryDevice
from companion.entry import Entry
from companion.entry.keymap import LAYOUT, KeySequence

Position = tuple[int, int]


def gpio_problem(what: str, error: Exception) -> DeviceError:
    """A DeviceError for a pin that cannot be used, saying what to check."""
    return DeviceError(f"cannot use the GPIO pins of the {what} ({error}): check the pin numbers in the "
                       "configuration, that no other program uses them, that the user is in the 'gpio' group, "
                       "and devices.pin_factory (\"lgpio\" on current Raspberry Pi OS, \"mock\" off a Pi)")


class KeypadEntry(EntryDevice):
    """A 4x4 keypad's presses made entries through the keymap. Subclasses find the presses: `Keypad` by scanning
    GPIO pins from `poll`, `PicoKeypad` by hearing them from the Pico's link thread. `pressed` and `poll` may run
    on different threads: a lock keeps the half-entered sequence whole, and entries only go to `emit`."""

    name = "keypad"

    def __init__(self, *, clock: Clock, timeout: float, layout: tuple[tuple[str, ...], ...] = LAYOUT) -> None:
        self.layout = layout
        self.sequence = KeySequence(clock, timeout)
        self._emit: Emit | None = None
        self._lock = threading.Lock()

    def start(self, emit: Emit) -> None:
        self._emit = emit

    def pressed(self, row: int, column: int) -> None:
        """A key went down (debounced)."""
        with self._lock:
            self._deliver(self.sequence.press(self.layout[row][column]))

    def poll(self, now: float) -> None:
        """A half-entered sequence that has waited too long comes out rejected."""
        with self._lock:
            self._deliver(self.sequence.poll())

    def _deliver(self, text: str | None) -> None:
        if text is not None and self._emit is not None:
            self._emit(Entry(text, self.name))


class Keypad(KeypadEntry):
    """The keypad on the Pi's GPIO pins, scanned in `poll`."""

    def __init__(self, rows: Sequence[int], columns: Sequence[int], *, clock: Clock, pin_factory: Any,
                 debounce: float = 0.02, timeout: float = 4.0,
                 layout: tuple[tuple[str, ...], ...] = LAYOUT) -> None:
        from gpiozero import DigitalInputDevice, DigitalOutputDevice, GPIOZeroError

        super().__init__(clock=clock, timeout=timeout, layout=layout)
        self.debounce = debounce
        self._rows: list[Any] = []
        self._columns: list[Any] = []
        try:
            for pin in rows:
                self._rows.append(DigitalOutputDevice(pin, initial_value=True, pin_factory=pin_factory))
            for pin in columns:
                self._columns.append(DigitalInputDevice(pin, pull_up=True, pin_factory=pin_factory))
        except (GPIOZeroError, OSError, RuntimeError) as error:
            self.close()
            raise gpio_problem("keypad", error) from error
        self._down: set[Position] = set()  # debounced state
        self._reading: dict[Position, tuple[bool, float]] = {}  # key -> (raw reading, when it last changed)

    def read_matrix(self) -> set[Position]:
        """The keys that read pressed right now, row by row (no debouncing)."""
        pressed: set[Position] = set()
        for r, row in enumerate(self._rows):
            row.off()
            pressed.update((r, c) for c, column in enumerate(self._columns) if column.is_active)
            row.on()
        return pressed

    def poll(self, now: float) -> None:
        raw = self.read_matrix()
        for key in raw | set(self._reading):
            reading = key in raw
            last, since = self._reading.get(key, (False, now))
            if reading != last:
                since = now
                self._reading[key] = (reading, now)
            if now - since < self.debounce or reading == (key in self._down):
                continue
            if reading:
                self._down.add(key)
                self.pressed(*key)
            else:
                self._down.discard(key)
                del self._reading[key]
        super().poll(now)

    def close(self) -> None:
        for device in (*self._rows, *self._columns):
            device.close()
        self._rows, self._columns = [], []


class Buttons(EntryDevice):
    """Big push buttons for the commonest commands, to ground when pressed (pull-ups on)."""

    name = "buttons"

    def __init__(self, pins: dict[str, int], *, pin_factory: Any, bounce: float = 0.05) -> None:
        from gpiozero import Button, GPIOZeroError

        self._buttons: dict[str, Any] = {}
        try:
            for word, pin in pins.items():
                self._buttons[word] = Button(pin, pull_up=True, bounce_time=bounce, pin_factory=pin_factory)
        except (GPIOZeroError, OSError, RuntimeError) as error:
            self.close()
            raise gpio_problem("buttons", error) from error

    def start(self, emit: Emit) -> None:
        for word, button in self._buttons.items():
            button.when_pressed = lambda _button, word=word: emit(Entry(word, self.name))

    def close(self) -> None:
        for button in self._buttons.values():
            button.close()
        self._buttons = {}
