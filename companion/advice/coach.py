"""How far a player's discard was from the best, from what the table entered (`hand` and `discard` inputs)."""

from __future__ import annotations

from dataclasses import dataclass

from companion.cribbage.game import GameState

from .discard import Analysis, Split, analyse
from .model import UNIFORM, OpponentModel


@dataclass(frozen=True, slots=True)
class DiscardReview:
    """How far a player's discard was from the best (`words.advice.review_words` says it)."""

    player: str
    analysis: Analysis
    chosen: Split

    @property
    def best(self) -> Split:
        return self.analysis.best

    @property
    def loss(self) -> float:
        """Expected points given away by the discard (0 for the best one)."""
        return self.best.net - self.chosen.net

    @property
    def optimal(self) -> bool:
        return self.loss < 1e-9


def review_discard(state: GameState, player: str, model: OpponentModel = UNIFORM) -> DiscardReview | None:
    """The review of `player`'s discard in the current deal, or None until both his hand and discard are in.

    The crib counts for the player when his side deals (partners share the dealer's crib).
    """
    hand = state.hands.get(player)
    discard = state.discards.get(player)
    if hand is None or discard is None or state.dealer is None:
        return None
    dealer = state.side_of.get(player) == state.side_of.get(state.dealer)
    analysis = analyse(hand, dealer=dealer, variant=state.variant, model=model)
    return DiscardReview(player, analysis, analysis.split_for(discard))
