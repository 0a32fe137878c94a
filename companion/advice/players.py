"""Computer players at three levels.

- easy: for beginners. Keeps the four cards that count most on their own (no starter, no thought for the
  crib) and plays any card that fits.
- standard: the exact discard analysis against a uniform opponent; in the play, sound rules of thumb: take
  the points there are, keep the count off 5 and 21, lead low and never lead a five (no look-ahead).
- pro: the exact analysis with the opponent model on both sides (his discard into either crib); in the play,
  a search of the rest of the play over hands the opponent could hold, weighted by what his discard and his
  plays make likely. Near the end of the game (`endgame.REACH`) it lays away and plays for the chance of
  winning (`endgame.WinChances`, from self-play), not for points.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol

from companion.cribbage.cards import DECK, Card

from .discard import analyse
from .endgame import REACH, chances
from .model import OpponentModel, load
from .pegging import PlayView, ev_choice, play_value, search, sensible_choice
from .tables import rank_table

LEVELS = ("easy", "standard", "pro")  # offered to players
MATCH_LEVELS = (*LEVELS, "ev")  # for `crib selfplay`: `ev` is the measuring stick, the standard published strategy
CANDIDATES = 4  # lay-aways whose play is searched: the best by hand and crib ...
CLOSE = 2.0  # ... within this many points of the best
EVIDENCE_CAP = 4.0  # the pro is never surer than 98% of how its opponent plays: people follow no rules exactly


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
        rank = sensible_choice(tuple(sorted(c.rank for c in view.hand)), tuple(c.rank for c in view.pile), view.count)
        return min(c for c in view.legal() if c.rank == rank)


@dataclass
class ExpectedValue:
    """The standard strong strategy of published programs, a measuring stick for the pro: lays away for the
    highest exact expected hand plus crib (the exact analysis, uniform opponent) and pegs by fixed rules
    (`pegging.ev_choice`: the most points now, not pairing a lead into a likely triple, the count kept off 5
    and 21, low cards first)."""

    rng: random.Random
    level: str = "ev"

    def discard(self, cards: Sequence[Card], seat: Seat) -> tuple[Card, ...]:
        return analyse(cards, dealer=seat.dealer).best.discard

    def play(self, view: PlayView) -> Card:
        pile = tuple(c.rank for c in view.pile)
        wary = (len(pile) == 1 and view.opponent_cards > 0 and not view.opponent_go
                and any(c.rank == pile[0] for c in view.unseen))
        rank = ev_choice(tuple(sorted(c.rank for c in view.hand)), pile, view.count, wary)
        return min(c for c in view.legal() if c.rank == rank)


@dataclass
class Pro:
    rng: random.Random
    model: OpponentModel = field(default_factory=load)
    samples: int = 64  # 32 gave 0.28 points a deal pair less against standard (duplicate deals, 1,000 pairs)
    race_samples: int = 40  # near the end: each drawn hand is searched on its own (the score matters)
    play_samples: int = 10  # opponent hands the play of each kept hand is searched against
    play_weight: float = 0.5  # the search knows his cards, so counts only part of what it finds
    level: str = "pro"
    evidence: float = 0.0  # log odds that the opponent plays by the ev rules rather than standard, over the game
    deal_evidence: float = 0.0  # ... from this deal's plays so far

    @property
    def ev_chance(self) -> float:
        return 1.0 / (1.0 + math.exp(-max(-EVIDENCE_CAP, min(EVIDENCE_CAP, self.evidence))))

    def discard(self, cards: Sequence[Card], seat: Seat) -> tuple[Card, ...]:
        self.evidence += self.deal_evidence  # a new deal: the last one's plays are all in
        self.deal_evidence = 0.0
        analysis = analyse(cards, dealer=seat.dealer, model=self.model)
        if min(seat.target - seat.score, seat.target - seat.opponent_score) > REACH or len(cards) != 6:
            # The best few by hand and crib, weighed with the points they are worth in the play, each
            # searched against the same hands the opponent may have kept.
            unseen = tuple(c for c in DECK if c not in cards)
            seed = self.rng.randrange(1 << 30)
            leaders = [s for s in analysis.splits[:CANDIDATES] if s.net >= analysis.best.net - CLOSE]
            if len(leaders) == 1:
                return analysis.best.discard
            return max(leaders, key=lambda s: s.net + self.play_weight * play_value(
                s.keep, unseen, dealer=seat.dealer, samples=self.play_samples, rng=random.Random(seed),
                ev_chance=self.ev_chance)).discard
        # Near the end: the split with the best chance of winning, over every starter and what the play,
        # the opponent's hand and the crib usually bring, counted in order (the pone first).
        splits = analysis.splits
        wins = chances(seat.target).discard(seat.score, seat.opponent_score, dealer=seat.dealer,
                                            hands=[s.hands for s in splits], cribs=[s.crib for s in splits])
        best = max(range(len(splits)), key=lambda i: (round(wins[i], 3), splits[i].net))
        return splits[best].discard

    def play(self, view: PlayView) -> Card:
        legal = view.legal()
        if len({c.rank for c in legal}) == 1:
            return min(legal)
        view = replace(view, ev_chance=self.ev_chance)
        samples = self.race_samples if view.racing else self.samples
        values, self.deal_evidence = search(view, samples, self.rng.randrange(1 << 30))
        return max(legal, key=lambda c: (values[c], -c.index))


def make(level: str, rng: random.Random, model: OpponentModel | None = None) -> Player:
    if level == "easy":
        return Easy(rng)
    if level == "standard":
        return Standard(rng)
    if level == "pro":
        return Pro(rng, model or load())
    if level == "ev":
        return ExpectedValue(rng)
    raise ValueError(level)

