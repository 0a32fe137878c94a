"""Computer players at three levels.

- easy: for beginners. Keeps the four cards that count most on their own (no starter, no thought for the
  crib) and plays any card that fits.
- standard: the exact discard analysis against a uniform opponent; in the play, sound rules of thumb: take
  the points there are, keep the count off 5 and 21, lead low and never lead a five (no look-ahead).
- pro: the exact analysis with the opponent model; in the play, a search of the rest of the play over hands
  the opponent could hold; near the end of the game it plays to reach the target (or to stop the opponent
  reaching it) rather than for points, counting its own hand when it shows first.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol

from companion.cribbage.cards import Card
from companion.cribbage.scoring import score_show

from .discard import analyse
from .model import OpponentModel, load
from .pegging import PlayView, evaluate, sensible_value
from .tables import rank_table

LEVELS = ("easy", "standard", "pro")
PEGGING_DEALER = 3  # points a dealer and a pone usually peg in the play (RULES.md: about 3.5 and 2.0)
PEGGING_PONE = 2
ENDGAME = 24  # a hand can still reach the target from this many points short


@dataclass(frozen=True, slots=True)
class Seat:
    """Where a player stands when laying away: role and the score."""

    dealer: bool
    score: int = 0
    opponent_score: int = 0
    target: int = 121


class Player(Protocol):
    level: str

    def discard(self, cards: Sequence[Card], seat: Seat) -> tuple[Card, ...]: ...

    def play(self, view: PlayView) -> Card: ...


@dataclass
class Easy:
    rng: random.Random
    level: str = "easy"

    def discard(self, cards: Sequence[Card], seat: Seat) -> tuple[Card, ...]:
        def on_its_own(keep: tuple[Card, ...]) -> int:
            return int(rank_table(len(keep))[tuple(c.rank - 1 for c in keep)])

        keeps = list(itertools.combinations(cards, len(cards) - 2))
        self.rng.shuffle(keeps)
        keep = max(keeps, key=on_its_own)
        return tuple(c for c in cards if c not in keep)

    def play(self, view: PlayView) -> Card:
        return self.rng.choice(view.legal())


@dataclass
class Standard:
    rng: random.Random
    level: str = "standard"

    def discard(self, cards: Sequence[Card], seat: Seat) -> tuple[Card, ...]:
        return analyse(cards, dealer=seat.dealer).best.discard

    def play(self, view: PlayView) -> Card:
        pile = tuple(c.rank for c in view.pile)
        return max(view.legal(), key=lambda c: (sensible_value(pile, view.count, c.rank), -c.index))


@dataclass
class Pro:
    rng: random.Random
    model: OpponentModel = field(default_factory=load)
    samples: int = 64
    level: str = "pro"

    def discard(self, cards: Sequence[Card], seat: Seat) -> tuple[Card, ...]:
        analysis = analyse(cards, dealer=seat.dealer, model=self.model)
        # Near the end, a hand that reaches the target wins before the opponent counts: the pone counts
        # first, the dealer right after him. Play for that chance (with the points the play usually brings).
        short = seat.target - seat.score - (PEGGING_DEALER if seat.dealer else PEGGING_PONE)
        if short <= ENDGAME:
            return max(analysis.splits, key=lambda s: (round(s.chance(short), 3), s.net)).discard
        return analysis.best.discard

    def play(self, view: PlayView) -> Card:
        legal = view.legal()
        if len(legal) == 1:
            return legal[0]
        need = view.need
        if not view.dealer and view.starter is not None and len(view.kept) == 4 and need < 999:
            need -= score_show(view.kept, view.starter).total  # the pone's hand counts first
        values = evaluate(replace(view, need=max(need, 1)), self.samples, self.rng.randrange(1 << 30))
        return max(legal, key=lambda c: (values[c], -c.index))


def make(level: str, rng: random.Random, model: OpponentModel | None = None) -> Player:
    if level == "easy":
        return Easy(rng)
    if level == "standard":
        return Standard(rng)
    if level == "pro":
        return Pro(rng, model or load())
    raise ValueError(level)

