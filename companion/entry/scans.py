"""What scanners deliver: text cleaned of a scanner's decorations, and double reads counted once."""

from __future__ import annotations

import re

from companion.base.clock import Clock

# Scanners may prefix an AIM symbology identifier ("]d1" DataMatrix, "]C0" Code 128, "]Q1" QR) and end with
# CR, LF or Tab; GS1 codes carry the group separator. None of it is part of our payloads.
_AIM_PREFIX = re.compile(r"^\][A-Za-z][0-9A-Za-z]")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def normalise_scan(text: str) -> str:
    """The payload in what a scanner typed or sent: '\\x1d]d1c5h\\r\\n' -> 'C5H'."""
    text = _CONTROL.sub("", text).strip()
    text = _AIM_PREFIX.sub("", text).strip()
    return text.upper()


class DuplicateFilter:
    """Counts the same code once while it keeps arriving within `window` seconds of its last reading.

    A scanner held over a label (or set to continuous mode) reads it again and again; a player who really
    means the same code twice (UNDO, UNDO) waits a moment between the scans."""

    def __init__(self, clock: Clock, window: float) -> None:
        self.clock = clock
        self.window = window
        self._last_code = ""
        self._last_seen = float("-inf")

    def accept(self, code: str) -> bool:
        """True if `code` is new; False for a repeat within the window (which extends the window)."""
        now = self.clock.monotonic()
        repeat = code == self._last_code and now - self._last_seen < self.window
        self._last_code, self._last_seen = code, now
        return not repeat
