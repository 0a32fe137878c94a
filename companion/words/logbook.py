"""What reading a game log found, as values, and their words made at the edge in the language handed.

Reading a log back (companion.gamelog) finds a torn last line, a line it cannot use, a log it cannot read at
all: each is a `Finding`, a kind (`Found`) with the log's path, the line and the facts its words need. The
log's warnings and its `GameLogError` carry them; the board's system log, the commands, the statistics and
the daemon's resume say them (`finding_words`), each in its reader's language.

    from companion.i18n import language
    finding_words(Finding(Found.TORN, "games/0001.jsonl", 8, {"size": 11, "kept": 6}), language("de"))
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from companion.cribbage.refusals import Refusal
from companion.i18n import N_, Language

from .phrases import message_words, refusal


class Found(StrEnum):
    """What reading a log found (the value is its code); the facts each kind fills are listed."""

    # the log is read; something was dropped or is left to do (GameLog.warnings)
    NUL_TAIL = "nul_tail"  # line, kept: the inputs before it
    TORN = "torn"  # line, size: its bytes, kept
    NOT_REPAIRED = "not_repaired"  # error: the system's words
    PENDING_UNREADABLE = "pending_unreadable"  # error: what reading it said (path: the held cards' file)
    PENDING_SHAPE = "pending_shape"  # (path: the held cards' file)
    PENDING_CARD = "pending_card"  # why: the engine's refusal of a card held (path: the held cards' file)
    RESUMED = "resumed"  # damage: the Finding that stopped the reading, kept: inputs kept, aside: the rest's file
    # the log cannot be read (GameLogError); those with a line cannot be read past it (`crib repair` can)
    UNREADABLE = "unreadable"  # error: the system's words
    NEWER = "newer"  # version: the log's, reads: this program's
    NUL_LINE = "nul_line"  # line
    DAMAGED = "damaged"  # line, error: the JSON reader's words
    FIELD_TWICE = "field_twice"  # line, name: the field
    NOT_A_NUMBER = "not_a_number"  # line, name: NaN, Infinity or -Infinity
    HEADER_MISPLACED = "header_misplaced"  # line, header: the header line
    NOT_INPUT = "not_input"  # line, why: the engine's refusal (or words of its own)
    LONE_UNDO = "lone_undo"  # line
    REFUSED = "refused"  # line, input: the input as the log writes it, why
    # a write that failed (CannotSave)
    CANNOT_SAVE = "cannot_save"  # message: what the screens say of it (words/messages.py's Say.CANNOT_SAVE)
    HELD_UNKEPT = "held_unkept"  # error: the system's words (path: the held cards' file; the entry is logged)


@dataclass(frozen=True, slots=True)
class Finding:
    """One thing reading a log found: its kind, the file, the line (0: the whole file) and the facts its words
    need (which, `Found` says)."""

    kind: Found
    path: str
    line: int = 0
    facts: Mapping[str, Any] = field(default_factory=dict)


SAID: dict[Found, str] = {
    Found.NUL_TAIL: N_("{path}: line {line} holds only NUL bytes, left by a power cut during a write; they are "
                       "dropped, the {kept} inputs before them are kept"),
    Found.TORN: N_("{path}: line {line} was cut short by a crash ({size} bytes) and is dropped; the {kept} inputs "
                   "before it are kept"),
    Found.NOT_REPAIRED: N_("{path}: cannot repair it now ({error}); the next write will"),
    Found.HELD_UNKEPT: N_("{path}: cannot keep the held cards ({error}); the entry is logged"),
    Found.PENDING_UNREADABLE: N_("{path}: unreadable ({error}); the cards held are dropped"),
    Found.PENDING_SHAPE: N_('{path}: not a list of cards like ["5H","JS"] and a deal number; the cards held are '
                            "dropped: enter them again"),
    Found.PENDING_CARD: N_("{path}: {why}; the cards held are dropped"),
    Found.RESUMED: N_("{damage}. Resumed from the {kept} inputs before line {line}; the rest is kept in {aside}"),
    Found.UNREADABLE: N_("{path}: cannot read it ({error}): check the disk and its permissions"),
    Found.NEWER: N_("{path}: line 1 says it is a version {version} log, written by a newer Cribbage Companion (this "
                    "one reads version {reads}): update the program"),
}
LINE_SAID: dict[Found, str] = {  # a line the game cannot be resumed past: what is wrong with it
    Found.NUL_LINE: N_("holds NUL bytes where a line was due (the disk lost a write)"),
    Found.DAMAGED: N_("is damaged ({error})"),
    Found.FIELD_TWICE: N_("is damaged (the field {name!r} is given twice)"),
    Found.NOT_A_NUMBER: N_("is damaged ({name} is not a number JSON allows)"),
    Found.HEADER_MISPLACED: N_("is not a table input (a header belongs on line 1: {header!r})"),
    Found.NOT_INPUT: N_("is not a table input ({why})"),
    Found.LONE_UNDO: N_("holds an undo with no input before it to take back"),
    Found.REFUSED: N_("holds {input}, which the game refuses there ({why})"),
}
CANNOT_RESUME = N_("{path}: line {line} {what}. The game cannot be resumed past it: run `crib repair` (it keeps the "
                   "lines before it and sets the rest aside in a file), or start a new game")


def finding_words(finding: Finding, lang: Language) -> str:
    """What reading a log found, naming the file (and line), and what to do, in `lang`."""
    facts: dict[str, Any] = {"path": finding.path, "line": finding.line, **finding.facts}
    why = facts.get("why")
    if isinstance(why, Refusal):
        facts["why"] = refusal(why, lang)
    if finding.kind is Found.CANNOT_SAVE:
        return message_words(facts["message"], lang)
    if finding.kind is Found.RESUMED:
        facts["damage"] = finding_words(facts["damage"], lang)
    if finding.kind in LINE_SAID:
        what = lang.gettext(LINE_SAID[finding.kind]).format(**facts)
        return lang.gettext(CANNOT_RESUME).format(path=finding.path, line=finding.line, what=what)
    return lang.gettext(SAID[finding.kind]).format(**facts)
