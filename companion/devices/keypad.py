"""The 4x4 matrix keypad and the GO / UNDO / OK push buttons, on gpiozero.

gpiozero has no matrix keypad: the rows are outputs (high when idle), the columns inputs with pull-ups.
`poll(now)`, called by the main loop about every 10 ms, drives one row low at a time and reads which columns
follow it low; a key counts once its reading has held for the debounce time. The keymap
(`companion.entry.keymap`) turns presses into entries. gpiozero is imported here, when a keypad is made.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.devices.base import Clock, DeviceError, Emit, Entry, EntryDevice
from companion.entry.keymap import LAYOUT, KeySequence

Position = tuple[int, int]


def gpio_problem(what: str, error: Exception) -> DeviceError:
    """A DeviceError for a pin that cannot be used, saying what to check."""
    return DeviceError(f"cannot use the GPIO pins of the {what} ({error}): check the pin numbers in the "
                       "configuration, that no other program uses them, that the user is in the 'gpio' group, "
                       "and devices.pin_factory (\"lgpio\" on current Raspberry Pi OS, \"mock\" off a Pi)")


class Keypad(EntryDevice):
    name = "keypad"

    def __init__(self, rows: Sequence[int], columns: Sequence[int], *, clock: Clock, pin_factory: Any,
                 debounce: float = 0.02, timeout: float = 4.0,
                 layout: tuple[tuple[str, ...], ...] = LAYOUT) -> None:
        from gpiozero import DigitalInputDevice, DigitalOutputDevice, GPIOZeroError

        self.layout = layout
        self.debounce = debounce
        self.sequence = KeySequence(clock, timeout)
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
        self._emit: Emit | None = None
        self._down: set[Position] = set()  # debounced state
        self._reading: dict[Position, tuple[bool, float]] = {}  # key -> (raw reading, when it last changed)

    def start(self, emit: Emit) -> None:
        self._emit = emit

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
                self._deliver(self.sequence.press(self.layout[key[0]][key[1]]))
            else:
                self._down.discard(key)
                del self._reading[key]
        self._deliver(self.sequence.poll())

    def _deliver(self, text: str | None) -> None:
        if text is not None and self._emit is not None:
            self._emit(Entry(text, self.name))

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
