"""The announcer: what the board says aloud after each input, given to the speaker's worker (never waited for).

It follows the table as the presenter does: the score events an input added, the prompt before and after. The
words are the screen's (companion/view/speech.py); a new deal or game, and an undo, cut what is still being said
of the one before. MENU twice mutes and unmutes the voice (the table asks `mute`); the page does too.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

from companion.cribbage import transcript as t
from companion.view.speech import Utterance, deal_key, spoken

if TYPE_CHECKING:
    from companion.devices.voice import Speaker

    from .table import Outcome, Table


class Announcer:
    def __init__(self, table: Table, speaker: Speaker, speak: Collection[str]) -> None:
        self.table = table
        self.speaker = speaker
        self.speak = frozenset(speak)
        self.state = table.state
        self.prompt = table.awaited()
        self.games = 0
        self.log = table.log
        self.deal = deal_key(self.games, self.state)
        table.mute_voice = self.toggle

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
        if deal != self.deal or undone:
            self.speaker.cut()  # what is said of an earlier deal, or of an input taken back, is stale
        common = 0
        for old, new in zip(before.events, after.events, strict=False):
            if old != new:
                break
            common += 1
        prompt = table.awaited()
        if not undone:
            for text in spoken(before, after, after.events[common:], before_prompt=self.prompt, prompt=prompt,
                               prompt_words=table.prompt(), played=isinstance(inp, t.PlayInput), speak=self.speak):
                self.speaker.say(Utterance.now(text))
        self.state, self.prompt, self.deal = after, prompt, deal

    def toggle(self) -> bool:
        """Mute the voice, or unmute it: True when it is muted now."""
        self.speaker.mute(not self.speaker.muted)
        return self.speaker.muted
