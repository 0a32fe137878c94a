"""The coach: in coaching mode, how far each player's discard was from the best, on the screen after the play.

The players scan their six dealt cards before the starter but never say what they laid away. When the play is
over their kept cards are all on the table, so each discard is the hand less the cards played: the table logs
it (a `discard` input after the starter) before the crib is scanned, so the engine checks the scanned crib
against it, and the coach pages its review of each discard for a few seconds, one screen page at a time. The
review is not stored: it follows from the `hand` and `discard` inputs of the log (`crib stats` works it out
again). The advice (and numpy with it) is imported only when a discard is first reviewed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.cribbage import transcript as t
from companion.cribbage.facts import Phase
from companion.i18n import current
from companion.view.screen import ScreenView, coach_pages
from companion.words.review import review_words

if TYPE_CHECKING:
    from companion.cribbage.game import GameState


def worked_out_discards(state: GameState) -> list[t.DiscardInput]:
    """Once the play is over, each coached player's discard not yet logged (pone first): hand less cards played."""
    if state.phase not in (Phase.CRIB, Phase.CLAIM) or state.crib is not None:
        return []
    discards = []
    for player in state.show_order():
        hand = state.hands.get(player)
        if hand is None or player in state.discards:
            continue
        played = state.played_by(player)
        discards.append(t.DiscardInput(player, tuple(c for c in hand if c not in played)))
    return discards


def is_worked_out(state: GameState, inp: t.Input) -> bool:
    """A discard logged by the table: after the starter (players enter discards only before it)."""
    return isinstance(inp, t.DiscardInput) and state.starter is not None


class Coach:
    """The reviews on show: screen pages, each for `page_seconds`, then the table's own screen again."""

    def __init__(self, *, page_seconds: float = 2.5) -> None:
        self.page_seconds = page_seconds
        self.pages: list[ScreenView] = []  # the reviews on show, one page each (empty: none on show)
        self._shown: list[ScreenView] = []  # the last reviews shown, for "ok" to page on
        self.since = 0.0
        self.page = -1  # the page last drawn

    @staticmethod
    def review(state: GameState, player: str) -> list[ScreenView]:
        """The pages reviewing `player`'s logged discard (none when the hand is not known)."""
        from companion.advice.coach import review_discard  # numpy and the opponent model: only when coaching

        review = review_discard(state, player)
        return [] if review is None else coach_pages(state, player, review_words(review, current()))

    def show(self, pages: list[ScreenView], now: float) -> None:
        if pages:
            self.pages = self._shown = pages
            self.since = now

    def hide(self) -> bool:
        """The table has moved on: no review on show. True when one was."""
        showing = bool(self.pages)
        self.pages = []
        return showing

    def next_page(self) -> None:
        """"ok" while a review is on show: it stays, one page on."""
        self.pages = self._shown
        self.since -= self.page_seconds

    def index(self, now: float) -> int:
        return min(max(int((now - self.since) // self.page_seconds), 0), len(self.pages) - 1)

    def view(self, now: float) -> ScreenView:
        """The page to draw now (remembered as `page`)."""
        self.page = self.index(now)
        return self.pages[self.page]

    def tick(self, now: float) -> tuple[bool, bool]:
        """(finished, changed): the last page has had its time, or another page is due."""
        if self.pages and now - self.since >= len(self.pages) * self.page_seconds:
            self.pages = []
            return True, True
        return False, bool(self.pages) and self.index(now) != self.page
