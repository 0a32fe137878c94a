"""Simulated devices: drivable, and keeping their history (like gpiozero's mock pins).

- `SimStrip`: a peg strip that records every frame and effect; it can be unplugged and plugged back in.
- `SimulatedKeypad`: the real `Keypad` driver on gpiozero's `MockFactory` pins, scanned from `poll` (on the
  simulation's clock) rather than from its thread. `tap("5")` holds the key down for a moment, and until the
  driver has it down: while the driver switches that key's row to output-low, the simulated switch drives its
  column low (MockPin.drive_low / drive_high), so the driver's own scanning and debouncing decode it.
- `TerminalEntry` (lines typed on stdin) and `ScriptEntry` (lines from a file, for `crib sim --script`): each
  line is one entry, exactly what a person would type or scan ("5H", "C5H", "go", "peg 2 12"); "key:5" (or
  "key:*24" for several keys) presses keypad keys, through a `KeyHand`: the `SimulatedKeypad` itself, or with
  the keypad on the simulated Pico its `PicoKeys` (companion/devices/picosim.py). Lines are delivered from
  `poll`, in order, each waiting until the keypad has finished with the keys before it. Blank lines and lines
  starting with "#" are skipped.
"""

from __future__ import annotations

import collections
import contextvars
import functools
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import IO, Any, Protocol

from companion.base.clock import Clock
from companion.devices.base import Emit, EntryDevice, PegStrip
from companion.devices.keypad import Keypad
from companion.entry import Entry
from companion.entry.keymap import KEYS, LAYOUT, not_a_key
from companion.view.leds import Effect, Frame
from companion.words.phrases import message_words


class SimStrip(PegStrip):
    """A strip in memory. `shown` holds the latest (frame, effects) that reached the strip, in order: the last
    KEPT of them, so that a simulator left running for days does not grow by every frame."""

    name = "simulated strip"
    KEPT = 1000

    def __init__(self, led_count: int) -> None:
        self._led_count = led_count
        self.shown: collections.deque[tuple[Frame, tuple[Effect, ...]]] = collections.deque(maxlen=self.KEPT)
        self.latest: Frame | None = None
        """The picture the controller last asked for (shown or not)."""
        self._connected = True

    @property
    def led_count(self) -> int:
        return self._led_count

    @property
    def connected(self) -> bool:
        return self._connected

    @property
    def frame(self) -> Frame | None:
        """What the LEDs show now."""
        return self.shown[-1][0] if self.shown else None

    @property
    def frames(self) -> list[Frame]:
        return [frame for frame, _ in self.shown]

    def show(self, frame: Frame, effects: tuple[Effect, ...] = ()) -> None:
        if len(frame) != self._led_count:
            raise ValueError(f"a frame for this strip has {self._led_count} colours, not {len(frame)}")
        self.latest = frame
        if self._connected:
            self.shown.append((frame, effects))

    def unplug(self) -> None:
        self._connected = False

    def plug(self) -> None:
        """Back again: the whole latest picture is sent, as the real driver does on reconnection."""
        self._connected = True
        if self.latest is not None and self.latest != self.frame:
            self.shown.append((self.latest, ()))

    def close(self) -> None:
        self._connected = False


@functools.cache
def _row_pin_class() -> type:
    """A MockPin that tells the simulated key matrix when the keypad driver drives it."""
    from gpiozero.pins.mock import MockPin

    class KeypadRowPin(MockPin):  # type: ignore[misc]
        def __init__(self, factory: Any, info: Any, matrix: SimulatedKeypad | None = None) -> None:
            super().__init__(factory, info)
            self.matrix = matrix

        def _change_state(self, value: bool) -> bool:
            changed: bool = super()._change_state(value)
            del self.states[:-2]  # the history of a pin switched at every scan would only grow
            if changed and self.matrix is not None:
                self.matrix.wire()
            return changed

    return KeypadRowPin


class SimulatedKeypad(EntryDevice):
    """The real keypad driver on mock pins, with a hand that presses keys: `tap("5")`."""

    name = "keypad"

    def __init__(self, rows: Iterable[int], columns: Iterable[int], *, clock: Clock, factory: Any = None,
                 debounce: float = 0.02, timeout: float = 4.0) -> None:
        from gpiozero.pins.mock import MockFactory

        self.factory = factory or MockFactory()
        self.rows, self.columns = list(rows), list(columns)
        # the row pins exist before the driver asks for them, so the factory hands the driver these
        self.row_pins = [self.factory.pin(f"GPIO{n}", pin_class=_row_pin_class(), matrix=self) for n in self.rows]
        for pin in self.row_pins:  # gpiozero 1.6 (Debian's) shares mock pins between factories: they are ours now
            pin.matrix = self
        self.column_pins: list[Any] = []
        self.hold = max(0.05, 3 * debounce)
        """How long a tap holds a key down, and the pause after it."""
        self.held: tuple[int, int] | None = None
        self._taps: collections.deque[str] = collections.deque()
        self._release_at = 0.0
        self._next_at = 0.0
        self.keypad = Keypad(self.rows, self.columns, clock=clock, pin_factory=self.factory, debounce=debounce,
                             timeout=timeout, scan_every=None)
        self.column_pins = [self.factory.pin(f"GPIO{n}") for n in self.columns]

    @property
    def busy(self) -> bool:
        """Keys still to press, or one held down."""
        return bool(self._taps) or self.held is not None

    def tap(self, labels: str) -> None:
        """Press and release each key in `labels` in turn ("5", "*24"); safe from any thread."""
        for label in labels:
            key_position(label)  # every key checked before any is pressed
        self._taps.extend(labels)

    def press(self, label: str) -> None:
        """Hold a key down until `release()` (taps wait for it)."""
        self.held, self._release_at = key_position(label), float("inf")
        self.wire()

    def release(self) -> None:
        self.held = None
        self.wire()

    def start(self, emit: Emit) -> None:
        self.keypad.start(emit)

    def poll(self, now: float) -> None:
        # a tap lets go only once the driver has the key down (debounced), and the next waits until it is up
        # again: however late a loaded machine polls, no key is lost or merged (the clock sets only the minimum)
        if self.held is not None and now >= self._release_at and self.held in self.keypad.down:
            self.held, self._next_at = None, now + self.hold
            self.wire()
        if self.held is None and self._taps and now >= self._next_at and not self.keypad.down:
            self.held, self._release_at = key_position(self._taps.popleft()), now + self.hold
            self.wire()
        self.keypad.scan(now)
        self.keypad.poll(now)

    def wire(self) -> None:
        """The switches: a column reads low while the held key's row is switched to output-low."""
        for c, pin in enumerate(self.column_pins):
            if pin.function != "input":
                continue
            row = None if self.held is None else self.row_pins[self.held[0]]
            closed = row is not None and self.held is not None and self.held[1] == c and row.function == "output" \
                and not row.state
            if closed:
                pin.drive_low()
            else:
                pin.drive_high()

    def close(self) -> None:
        self.keypad.close()


def key_position(label: str) -> tuple[int, int]:
    """The (row, column) of a key on the printed layout ("5" -> (1, 1)); a ValueError for no such key."""
    for r, row in enumerate(LAYOUT):
        if label in row:
            return r, row.index(label)
    raise ValueError(message_words(not_a_key(label)))


class KeyHand(Protocol):
    """A hand on a simulated keypad's keys."""

    @property
    def busy(self) -> bool:
        """Keys still to press, or pressed and not yet made entries."""

    def tap(self, labels: str) -> None:
        """Press and release each key in `labels` in turn ("5", "*24"); safe from any thread."""


class LineEntry(EntryDevice):
    """Entries from lines of text, delivered in order from `poll`; "key:..." lines go to the keypad."""

    name = "lines"

    def __init__(self, keypad: KeyHand | None = None) -> None:
        self.keypad = keypad
        self.lines: collections.deque[str] = collections.deque()
        self.ended = False
        """No more lines will come."""
        self._emit: Emit | None = None

    @property
    def finished(self) -> bool:
        """Every line delivered and every key pressed."""
        return self.ended and not self.lines and not (self.keypad is not None and self.keypad.busy)

    def start(self, emit: Emit) -> None:
        self._emit = emit

    def poll(self, now: float) -> None:
        while self.lines and self._emit is not None and not (self.keypad is not None and self.keypad.busy):
            line = self.lines.popleft().strip()
            if not line or line.startswith("#"):
                continue
            if self.keypad is not None and line.lower().startswith("key:"):
                labels = "".join(line[4:].upper().split())
                if labels and all(label in KEYS for label in labels):
                    self.keypad.tap(labels)
                    continue
            self._emit(Entry(line, self.name))

    def close(self) -> None:
        self.ended = True


class TerminalEntry(LineEntry):
    """Lines typed in the terminal (read by a thread of its own)."""

    name = "terminal"

    def __init__(self, stream: IO[str], keypad: KeyHand | None = None) -> None:
        super().__init__(keypad)
        self.stream = stream

    def start(self, emit: Emit) -> None:
        super().start(emit)
        self.reader = threading.Thread(target=contextvars.copy_context().run, args=(self._read,),
                                       name="terminal entry", daemon=True)  # in the language it was started in
        self.reader.start()

    def _read(self) -> None:
        """Bytes are decoded a line at a time: a byte that is not UTF-8 makes that line a bad entry (shown as such
        and refused), never an error that would end the reading under a strict UTF-8 locale."""
        binary = getattr(self.stream, "buffer", None)
        try:
            for line in binary if binary is not None else self.stream:
                self.lines.append(line.decode("utf-8", "replace") if isinstance(line, bytes) else line)
        finally:
            self.ended = True


class ScriptEntry(LineEntry):
    """The lines of a file, one entry each, for demos and tests (`crib sim --script FILE`)."""

    name = "script"

    def __init__(self, path: Path, keypad: KeyHand | None = None) -> None:
        super().__init__(keypad)
        self.lines.extend(line.decode("utf-8", "replace") for line in path.read_bytes().splitlines())
        self.ended = True
