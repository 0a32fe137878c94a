"""What the board says aloud: the words the OLED and the page show, made from the same typed facts.

A score is said as the screen shows it (`score_parts`): its heading ("Bob's hand: 6"), then the count in a player's
cadence ("fifteen two, fifteen four, and a pair is six"), then its notes; the winner and whose turn it is are the
prompt's words; the count after a card is the screen's "Count 15". Nothing here reads words back: which of the
story's facts are said is the announcer's choice (companion/table/announcer.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.cribbage.facts import ScoreEvent
from companion.cribbage.game import GameState
from companion.i18n import _, current
from companion.words.phrases import joined, score_parts


@dataclass(frozen=True, slots=True)
class Utterance:
    """Words to say, in a language ("en", "de")."""

    text: str
    language: str

    @classmethod
    def now(cls, text: str) -> Utterance:
        """`text` in the language the board speaks now."""
        return cls(text, current().code)


PARTS = "; "
"""Between a score's heading, its count and its notes: a pause, and never a full stop after a number, which a German
voice reads as an ordinal ("20." is "zwanzigste")."""


def score_words(event: ScoreEvent) -> str:
    """One score as the screen shows it, in one breath: heading, the count, the notes."""
    heading, counted, notes = score_parts(event)
    parts = [heading] if heading else []
    if counted:
        parts.append(joined(counted))
    return PARTS.join((*parts, *notes))


def count_words(count: int) -> str:
    return _("Count {count}").format(count=count)


def deal_key(games: int, state: GameState) -> tuple[int, int]:
    """The game and its deals with a starter turned: an utterance of an earlier key is stale."""
    return games, sum(1 for record in state.deals if record.starter is not None)
