"""Computer players at three levels.

- easy: for beginners. Keeps the four cards that count most on their own (no starter, no thought for the
  crib) and plays any card that fits.
- standard: the exact discard analysis against a uniform opponent; in the play, sound rules: take points,
  keep the count off 5 and 21, lead low, do not pair into a pair royal.
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
from .pegging import PlayView, evaluate, peg_points
from .tables import rank_table

LEVELS = ("easy", "standard", "pro")


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


def rule_value(view: PlayView, card: Card) -> float:
    """The standard player's rules of thumb for one card, in points."""
    pile = (*(c.rank for c in view.pile), card.rank)
    count = view.count + card.value
    value = float(peg_points(pile, count))
    if count in (5, 21):
        value -= 1.5  # any ten-card makes 15 or 31
    elif count < 15 and 15 - count <= 10:
        value -= 0.4  # one rank makes fifteen
    if len(pile) >= 2 and pile[-2] == card.rank:
        value -= 1.0  # a pair invites a pair royal
    elif len(pile) >= 2 and abs(pile[-2] - card.rank) <= 2 and count < 31:
        value -= 0.3  # close ranks invite a run
    if not view.pile:
        value += 0.8 if card.value < 5 else 0.0
        value -= 1.0 if card.rank == 5 else 0.0
    # Keep low cards for the end of a series, where they score the go.
    return value + card.value * 0.02


@dataclass
class Standard:
    rng: random.Random
    level: str = "standard"

    def discard(self, cards: Sequence[Card], seat: Seat) -> tuple[Card, ...]:
        return analyse(cards, dealer=seat.dealer).best.discard

    def play(self, view: PlayView) -> Card:
        return max(view.legal(), key=lambda c: (rule_value(view, c), -c.index))


@dataclass
class Pro:
    rng: random.Random
    model: OpponentModel = field(default_factory=load)
    samples: int = 12
    level: str = "pro"

    def discard(self, cards: Sequence[Card], seat: Seat) -> tuple[Card, ...]:
        return analyse(cards, dealer=seat.dealer, model=self.model).best.discard

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

