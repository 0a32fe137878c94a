"""What the board says aloud: the words the OLED and the page show, made from the same typed facts.

A score is said as the screen shows it (`score_parts`): its heading ("Bob's hand: 6"), then the count in a player's
cadence ("fifteen two, fifteen four, and a pair is six"), then its notes; the winner and whose turn it is are the
prompt's words; the count after a card is the screen's "Count 15". Nothing here reads words back: what to say is
chosen by the event's kind and the prompt's `wanted`.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from companion.cribbage.facts import Prompt, ScoreEvent, Wanted
from companion.cribbage.game import GameState
from companion.i18n import _, current
from companion.words.phrases import joined, score_parts

GAME_OVER = frozenset((Wanted.NEW_GAME, Wanted.NEW_MATCH))
TURNS = frozenset((Wanted.PLAY, Wanted.GO))


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


def spoken(before: GameState, after: GameState, events: Sequence[ScoreEvent], *, before_prompt: Prompt,
           prompt: Prompt, prompt_words: str, played: bool, speak: Collection[str]) -> list[str]:
    """What is said for one input that took the game from `before` to `after`, adding `events`: the scores, the
    count after a card (`played`), then the winner or whose turn it is now, as chosen in `speak` ([voice] speak).
    `prompt_words` are the table's words for `prompt`, as on the OLED."""
    said = [score_words(event) for event in events] if "scores" in speak else []
    if played and "count" in speak and after.phase == "play" and after.count:
        said.append(count_words(after.count))
    if prompt.wanted in GAME_OVER and before_prompt.wanted not in GAME_OVER:
        if "winner" in speak:
            said.append(prompt_words)
    elif prompt.wanted in TURNS and "turn" in speak and (prompt != before_prompt or played):
        said.append(prompt_words)
    return [text for text in said if text]


def deal_key(games: int, state: GameState) -> tuple[int, int]:
    """The game and its deals with a starter turned: an utterance of an earlier key is stale."""
    return games, sum(1 for record in state.deals if record.starter is not None)
