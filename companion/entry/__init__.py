"""Entry: what people type, press and scan, decoded into table commands. Pure; time comes from a clock.

`Entry` is what crosses from a device to the table: every entry device produces them, `decode_entry` reads them.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.cribbage.transcript import Input


@dataclass(frozen=True, slots=True)
class Entry:
    """What a person entered, as text: a card code or barcode payload ("5H", "C5H"), a word ("go",
    "undo", "ok", "menu", "new"), or a keypad key as "key:5". `source` names the device it came from. The
    virtual deck and the computer players hand the table a typed `table_input` (the text then says it for a
    log line)."""

    text: str
    source: str = "terminal"
    table_input: Input | None = None  # a table input itself, as a virtual deck or a computer player makes it
    sure: bool = True
    """False for a card a camera read without being sure of it: the table asks before entering it (doubt.py)."""
