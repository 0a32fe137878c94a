"""The 4x4 matrix keypad and the GO / UNDO / OK push buttons, on gpiozero.

gpiozero has no matrix keypad, so `Keypad` scans one on gpiozero's pins: the columns are inputs with pull-ups;
the rows are inputs with pull-ups too, except the one being read, which is switched to output-low for the
moment of its reading. So two keys pressed at once never join two driven outputs (one high, one low): only
ever one row drives, and only low. A key counts once its reading has held for the debounce time.

The scanning runs in a thread of the driver's own (every SCAN_S), which queues each press with its time; the
main loop's `poll` turns the queued presses into entries. A loop that stalls (an SD card's fsync) loses and
merges no press: they wait in the queue, timed as they were made. `KeypadEntry`, shared with the keypad on the
Pico (`companion.devices.picokeys`), keeps that queue and turns presses into entries through the keymap
(`companion.entry.keymap`). gpiozero is imported here, when a keypad is made.
"""

from __future__ import annotations

import collections
import logging
import threading
from collections.abc import Sequence
from typing import Any

from companion.base.clock import Clock
from companion.devices.base import DeviceMiswired, Emit, EntryDevice, Fault, error_text
from companion.entry import Entry
from companion.entry.keymap import LAYOUT, KeySequence, key_name
from companion.words.devices import journal_words

log = logging.getLogger(__name__)

Position = tuple[int, int]
STUCK_S = 10.0
"""A key held down this long is said to be stuck (once): it counted once, and the other keys still work."""
SCAN_S = 0.01
"""How often the keypad's thread reads the matrix: twice within the default 20 ms debounce, as often as the main
loop used to poll it."""


def gpio_problem(kind: Fault, error: Exception) -> DeviceMiswired:
    """The error for a pin of the keypad or the buttons (`kind`) that cannot be used (held by another program, or
    no such pin), with the library's words."""
    return DeviceMiswired(kind, error=error_text(error))


class KeypadEntry(EntryDevice):
    """A 4x4 keypad's presses made entries through the keymap. Subclasses find the presses: `Keypad` by scanning
    GPIO pins in its thread, `PicoKeypad` by hearing them from the Pico's link thread. Either calls `pressed`,
    which queues the press with its time; the main loop's `poll` takes them in order."""

    name = "keypad"

    def __init__(self, *, clock: Clock, timeout: float, layout: tuple[tuple[str, ...], ...] = LAYOUT) -> None:
        self.layout = layout
        self.clock = clock
        self.sequence = KeySequence(clock, timeout)
        self._emit: Emit | None = None
        self._presses: collections.deque[tuple[int, int, float]] = collections.deque()
        self._held: dict[Position, float] = {}  # keys down now, and since when
        self._stuck: set[Position] = set()  # those said to be stuck

    def start(self, emit: Emit) -> None:
        self._emit = emit

    def pressed(self, row: int, column: int, at: float | None = None) -> None:
        """A key went down (debounced) at `at` (now if not given); from any thread."""
        at = self.clock.monotonic() if at is None else at
        self._held[row, column] = at
        self._presses.append((row, column, at))

    def released(self, row: int, column: int) -> None:
        """A key came up (debounced); from any thread."""
        self._held.pop((row, column), None)

    def poll(self, now: float) -> None:
        """The presses queued since the last poll become entries, each at its own time; then a half-entered
        sequence that has waited too long comes out rejected, and a key held down too long is said to be stuck."""
        while self._presses:
            row, column, at = self._presses.popleft()
            self._deliver(self.sequence.press(self.layout[row][column], at))
        self._deliver(self.sequence.poll())
        held = dict(self._held)
        for key, since in held.items():
            if now - since >= STUCK_S and key not in self._stuck:
                log.warning(journal_words("stuck", device=self.name,
                                          key=key_name(self.layout[key[0]][key[1]]), seconds=f"{now - since:.0f}"))
        self._stuck = {key for key in held if now - held[key] >= STUCK_S}

    def _deliver(self, text: str | None) -> None:
        if text is not None and self._emit is not None:
            self._emit(Entry(text, self.name))


class Keypad(KeypadEntry):
    """The keypad on the Pi's GPIO pins, scanned in a thread (`scan_every` seconds; None: only when `scan` is
    called, as the simulator and tests do)."""

    def __init__(self, rows: Sequence[int], columns: Sequence[int], *, clock: Clock, pin_factory: Any,
                 debounce: float = 0.02, timeout: float = 4.0, layout: tuple[tuple[str, ...], ...] = LAYOUT,
                 scan_every: float | None = SCAN_S) -> None:
        super().__init__(clock=clock, timeout=timeout, layout=layout)
        self.debounce = debounce
        self.scan_every = scan_every
        self._factory = pin_factory
        self._rows: list[Any] = []
        self._columns: list[Any] = []
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        try:
            pin_factory.reserve_pins(self, *rows, *columns)
            self._rows = [pin_factory.pin(pin) for pin in rows]
            self._columns = [pin_factory.pin(pin) for pin in columns]
            for pin in (*self._rows, *self._columns):
                pin.input_with_pull("up")
        except Exception as error:  # gpiozero's errors, lgpio.error, OSError: the pins cannot be had
            self.close()
            raise gpio_problem(Fault.KEYPAD_PINS, error) from error
        self._down: set[Position] = set()  # debounced state
        self._reading: dict[Position, tuple[bool, float]] = {}  # key -> (raw reading, when it last changed)

    @property
    def down(self) -> frozenset[Position]:
        """The keys down now, as debounced."""
        return frozenset(self._down)

    def _conflicts_with(self, other: object) -> bool:
        """gpiozero's pin reservation asks this: the keypad shares its pins with nothing."""
        return True

    def start(self, emit: Emit) -> None:
        super().start(emit)
        if self.scan_every is not None and self._thread is None:
            self._thread = threading.Thread(target=self._scan_loop, name="keypad scan", daemon=True)
            self._thread.start()

    def _scan_loop(self) -> None:
        assert self.scan_every is not None
        try:
            while not self._stop.wait(self.scan_every):
                self.scan(self.clock.monotonic())
        except Exception as error:  # the pins failed: the registry's watch opens the keypad again
            self.problem = gpio_problem(Fault.KEYPAD_PINS, error).refusal

    def read_matrix(self) -> set[Position]:
        """The keys that read pressed right now, row by row (no debouncing); every row is left an input."""
        pressed: set[Position] = set()
        for r, row in enumerate(self._rows):
            row.output_with_state(False)
            try:
                pressed.update((r, c) for c, column in enumerate(self._columns) if not column.state)
            finally:
                row.input_with_pull("up")
        return pressed

    def scan(self, now: float) -> None:
        """Read the matrix once at `now`: each key whose new reading has held for the debounce time changes,
        and a press is queued with its time."""
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
                self.pressed(*key, at=now)
            else:
                self._down.discard(key)
                del self._reading[key]
                self.released(*key)

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=2)
        for pin in (*self._rows, *self._columns):
            pin.close()
        self._rows, self._columns = [], []
        self._factory.release_all(self)


class Buttons(EntryDevice):
    """Big push buttons for the commonest commands, to ground when pressed (pull-ups on)."""

    name = "buttons"

    def __init__(self, pins: dict[str, int], *, pin_factory: Any, bounce: float = 0.05) -> None:
        from gpiozero import Button

        self._buttons: dict[str, Any] = {}
        try:
            for word, pin in pins.items():
                self._buttons[word] = Button(pin, pull_up=True, bounce_time=bounce, pin_factory=pin_factory)
        except Exception as error:  # gpiozero's errors, lgpio.error, OSError: the pins cannot be had
            self.close()
            raise gpio_problem(Fault.BUTTON_PINS, error) from error

    def start(self, emit: Emit) -> None:
        for word, button in self._buttons.items():
            button.when_pressed = lambda _button, word=word: emit(Entry(word, self.name))

    def close(self) -> None:
        for button in self._buttons.values():
            button.close()
        self._buttons = {}
