"""The announcer: the story of the table said aloud, given to the speaker's worker (never waited for).

The table tells it the facts of each entry (story.py); it says each score as the screen shows it, the count a card
made and whose turn it is when asked for ([voice] speak), and the winner. The words are the screen's
(companion/view/speech.py). A new deal or game, and an undo, cut what is still being said of the one before. MENU
twice mutes and unmutes the voice (the table asks `mute`); the page does too. It knows nothing of the table:
the table holds it and tells it.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from companion.cribbage.facts import ScoreKind, Wanted
from companion.view.speech import Utterance, count_words, deal_key, score_words
from companion.words.phrases import undone_line

from .story import Fact, GameStarted, Played, Scored, Turn, Undone

if TYPE_CHECKING:
    from companion.cribbage.game import GameState
    from companion.devices.voice import Speaker


KEPT = 20  # utterances the page can catch up on (several inputs may come between two of its snapshots)
GAME_OVER = frozenset((Wanted.NEW_GAME, Wanted.NEW_MATCH))
TURNS = frozenset((Wanted.PLAY, Wanted.GO))
COUNT_ENDS = frozenset((ScoreKind.GO, ScoreKind.LAST_CARD))  # scored after a card: the count starts again


@dataclass(frozen=True, slots=True)
class Spoken:
    """What the board has said, for the page to say the same in the browser's voice: the latest utterances, numbered
    from 1; `cut` is how many there were at the latest cut (a new deal, an undo: those still being said are stale);
    and whether the board has a voice of its own, and whether it is muted."""

    said: tuple[tuple[int, str], ...] = ()
    count: int = 0
    cut: int = 0
    board_voice: bool = False
    muted: bool = False

    def add(self, texts: tuple[str, ...], *, cut: bool) -> Spoken:
        numbered = tuple(enumerate(texts, self.count + 1))
        return replace(self, said=(*self.said, *numbered)[-KEPT:], count=self.count + len(texts),
                       cut=self.count if cut else self.cut)

    def to_json(self) -> dict[str, object]:
        return {"said": [list(pair) for pair in self.said], "count": self.count, "cut": self.cut,
                "board_voice": self.board_voice, "muted": self.muted}


def spoken(facts: Sequence[Fact], *, prompt_words: str, speak: Collection[str]) -> list[str]:
    """What is said for the facts of one entry: each score, the count a card made (when the series goes on), and
    the winner or whose turn it is now (`prompt_words`, the table's words for the last `Turn`), as chosen in
    `speak`. An undo is said in one line, what it took back ("Undone: Guest's J♦ and Pro's 6♠"), and nothing
    else."""
    undos = [fact for fact in facts if isinstance(fact, Undone)]
    if undos:
        return [undone_line([(back.input, back.player) for undo in undos for back in undo.taken_back])]
    said: list[str] = []
    for i, fact in enumerate(facts):
        if isinstance(fact, Scored) and "scores" in speak:
            said.append(score_words(fact.event))
        elif isinstance(fact, Played) and "count" in speak and _count_goes_on(fact, facts[i + 1:]):
            said.append(count_words(fact.count))
        elif isinstance(fact, Turn) and fact is facts[-1]:
            wanted = fact.prompt.wanted
            if (wanted in GAME_OVER and "winner" in speak) or (wanted in TURNS and "turn" in speak):
                said.append(prompt_words)
    return [text for text in said if text]


def _count_goes_on(played: Played, after: Sequence[Fact]) -> bool:
    """Whether the count a card made stands after it: not at 31, nor when its go or last card ends the series."""
    if played.count >= 31:
        return False
    return not any(isinstance(fact, Scored) and fact.event.kind in COUNT_ENDS for fact in after)


class Announcer:
    """Says the story through the board's `speaker` (if it has one) and keeps it as `spoken` for the page."""

    def __init__(self, speaker: Speaker | None, speak: Collection[str]) -> None:
        self.speaker = speaker
        self.speak = frozenset(speak)
        self.games = 0
        self.deal: tuple[int, int] | None = None
        self.muted = False
        self.spoken = Spoken(board_voice=speaker is not None)

    def tell(self, facts: Sequence[Fact], state: GameState, prompt_words: str) -> None:
        """The facts one entry told, leaving the game in `state`; `prompt_words` are the table's prompt."""
        if any(isinstance(fact, GameStarted) for fact in facts):
            self.games += 1
        deal = deal_key(self.games, state)
        undone = any(isinstance(fact, Undone) for fact in facts)
        cut = (self.deal is not None and deal != self.deal) or undone  # an earlier deal's words or an undo's: stale
        self.deal = deal
        if cut and self.speaker is not None:
            self.speaker.cut()
        texts = tuple(spoken(facts, prompt_words=prompt_words, speak=self.speak))
        if self.speaker is not None:
            for text in texts:
                self.speaker.say(Utterance.now(text))
        if texts or cut:
            self.spoken = self.spoken.add(texts, cut=cut)

    def mute(self, muted: bool | None) -> bool:
        """Mute the board's voice (True), unmute it (False), or the other of the two (None): True when muted now."""
        assert self.speaker is not None
        self.muted = not self.muted if muted is None else muted
        self.speaker.mute(self.muted)
        self.spoken = replace(self.spoken, muted=self.muted)
        return self.muted
