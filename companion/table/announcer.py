"""The announcer: what the board says aloud after each input, given to the speaker's worker (never waited for).

It follows the table as the presenter does: the score events an input added, the prompt before and after. The
words are the screen's (companion/view/speech.py); a new deal or game, and an undo, cut what is still being said
of the one before. MENU twice mutes and unmutes the voice (the table asks `mute`); the page does too.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from companion.cribbage import transcript as t
from companion.view.speech import Utterance, deal_key, spoken

if TYPE_CHECKING:
    from companion.devices.voice import Speaker

    from .table import Outcome, Table


KEPT = 20  # utterances the page can catch up on (several inputs may come between two of its snapshots)


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


class Announcer:
    """Says what each input changed: through the board's `speaker` (if it has one) and, as `table.spoken`, on
    the page."""

    def __init__(self, table: Table, speaker: Speaker | None, speak: Collection[str]) -> None:
        self.table = table
        self.speaker = speaker
        self.speak = frozenset(speak)
        self.state = table.state
        self.prompt = table.awaited()
        self.games = 0
        self.log = table.log
        self.deal = deal_key(self.games, self.state)
        self.muted = False
        table.spoken = replace(table.spoken, board_voice=speaker is not None)
        if speaker is not None:
            table.mute_voice = self.mute

    def heard(self, outcome: Outcome) -> None:
        """After each entry the table handled: say what its input changed."""
        table = self.table
        before, after = self.state, table.state
        if before is after:
            return
        inp = outcome.accepted
        if table.log is not self.log or isinstance(inp, t.GameInput):
            self.games += 1
            self.log = table.log
        deal = deal_key(self.games, after)
        undone = isinstance(inp, t.UndoInput)
        cut = deal != self.deal or undone  # what is said of an earlier deal, or of an input taken back, is stale
        if cut and self.speaker is not None:
            self.speaker.cut()
        common = 0
        for old, new in zip(before.events, after.events, strict=False):
            if old != new:
                break
            common += 1
        prompt = table.awaited()
        texts = () if undone else tuple(spoken(
            before, after, after.events[common:], before_prompt=self.prompt, prompt=prompt,
            prompt_words=table.prompt(), played=isinstance(inp, t.PlayInput), speak=self.speak))
        if self.speaker is not None:
            for text in texts:
                self.speaker.say(Utterance.now(text))
        if texts or cut:
            self.table.spoken = self.table.spoken.add(texts, cut=cut)
        self.state, self.prompt, self.deal = after, prompt, deal

    def mute(self, muted: bool | None) -> bool:
        """Mute the board's voice (True), unmute it (False), or the other of the two (None): True when muted now."""
        assert self.speaker is not None
        self.muted = not self.muted if muted is None else muted
        self.speaker.mute(self.muted)
        self.table.spoken = replace(self.table.spoken, muted=self.muted)
        return self.muted
