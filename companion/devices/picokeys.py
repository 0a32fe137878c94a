"""The 4x4 keypad wired to the LED co-processor (`devices.keypad = "pico"`), so one USB cable serves the board.

The Pico scans and debounces the matrix itself (firmware/keypad.py) and reports each change as a KEY message
(firmware/PROTOCOL.md). The strip driver (`PicoPegStrip`, given this keypad) sends KEYPAD with `rows` and
`columns` after every handshake and hands each KEY to `key_event` on its link thread, which queues the press
with the time it was heard (`KeypadEntry`); the main loop's `poll` takes the queue through the same keymap as
the GPIO keypad's, so a stalled loop loses no press.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.base.clock import Clock
from companion.devices.keypad import KeypadEntry
from companion.entry.keymap import LAYOUT
from companion.words.settings import Bad, Invalid

PICO_PINS = frozenset((*range(23), 26, 27, 28))
"""The GP numbers on the Pico's header (GP23-25 and GP29 are wired inside the board)."""


def pico_pins_problem(pins: Sequence[int]) -> Invalid | None:
    """Why `pins` (keypad.pico_rows or pico_columns) are not pins of the Pico's header, or None."""
    if all(pin in PICO_PINS for pin in pins):
        return None
    return Invalid(Bad.PICO_PINS, count=len(pins), value=list(pins))


class PicoKeypad(KeypadEntry):
    def __init__(self, rows: Sequence[int], columns: Sequence[int], *, clock: Clock, timeout: float = 4.0,
                 layout: tuple[tuple[str, ...], ...] = LAYOUT) -> None:
        if len(rows) != len(layout) or len(columns) != len(layout[0]):
            raise ValueError(f"the Pico scans a 4x4 keypad: give 4 row and 4 column pins (got {rows}, {columns})")
        pins = (*rows, *columns)
        if not set(pins) <= PICO_PINS or len(set(pins)) != len(pins):
            raise ValueError(f"the keypad pins {pins} must be 8 different GP numbers on the Pico's header "
                             "(0-22, 26-28)")
        super().__init__(clock=clock, timeout=timeout, layout=layout)
        self.rows, self.columns = tuple(rows), tuple(columns)
        self.heard = 0
        """KEY messages handled so far (the simulator waits until its Pico's have all been heard)."""

    @property
    def keypad_body(self) -> bytes:
        """The KEYPAD message body: the 4 row pins, then the 4 column pins."""
        return bytes((*self.rows, *self.columns))

    def key_event(self, body: bytes) -> None:
        """A KEY message's body (key = row * 4 + column, pressed 1/0); releases and nonsense are passed by."""
        width = len(self.columns)
        if len(body) == 2 and body[1] in (0, 1) and body[0] < len(self.rows) * width:
            if body[1]:
                self.pressed(*divmod(body[0], width))
            else:
                self.released(*divmod(body[0], width))
        self.heard += 1

    def close(self) -> None:
        """No more entries (the strip driver owns the port; the Pico scans on, unheard)."""
        self._emit = None
