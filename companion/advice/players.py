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
from companion.words.advice import Because, Reason

from .discard import Analysis, Split, analyse
from .endgame import REACH, chances
from .model import OpponentModel, load
from .pegging import PlayView, ev_card, play_value, search, sensible_choice
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
    rng: random.Random

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
        return ev_card(view)


@dataclass(frozen=True)
class LayAway:
    """The pro's lay-away and what it weighed."""

    split: Split
    analysis: Analysis  # hand and crib with the opponent model
    seed: int  # the hands the play was searched against
    play: dict[tuple[Card, ...], float] = field(default_factory=dict)  # by discard: the searched splits' play
    wins: dict[tuple[Card, ...], float] = field(default_factory=dict)  # by discard, near the end: the chance to win


@dataclass
class Pro:
    rng: random.Random
    model: OpponentModel = field(default_factory=load)
    samples: int = 96  # 64 gave 0.09 points a deal pair less against standard, 128 no more (duplicate deals)
    race_samples: int = 40  # near the end: each drawn hand is searched on its own (the score matters)
    play_samples: int = 32  # opponent hands the play of each kept hand is searched against (10: 0.04 a pair less)
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
        return self.lay_away(cards, seat).split.discard

    def lay_away(self, cards: Sequence[Card], seat: Seat) -> LayAway:
        """The split the pro lays away, with what it weighed (`crib hint` explains it from these)."""
        analysis = analyse(cards, dealer=seat.dealer, model=self.model)
        seed = self.rng.randrange(1 << 30)
        if min(seat.target - seat.score, seat.target - seat.opponent_score) > REACH or len(cards) != 6:
            # The best few by hand and crib, weighed with the points they are worth in the play, each
            # searched against the same hands the opponent may have kept.
            leaders = [s for s in analysis.splits[:CANDIDATES] if s.net >= analysis.best.net - CLOSE]
            if len(leaders) == 1:
                return LayAway(analysis.best, analysis, seed)
            play = {s.discard: self.play_value(s, seat, seed) for s in leaders}
            chosen = max(leaders, key=lambda s: s.net + self.play_weight * play[s.discard])
            return LayAway(chosen, analysis, seed, play)
        # Near the end: the split with the best chance of winning, over every starter and what the play,
        # the opponent's hand and the crib usually bring, counted in order (the pone first).
        splits = analysis.splits
        wins = chances(seat.target).discard(seat.score, seat.opponent_score, dealer=seat.dealer,
                                            hands=[s.hands for s in splits], cribs=[s.crib for s in splits])
        best = max(range(len(splits)), key=lambda i: (round(wins[i], 3), splits[i].net))
        return LayAway(splits[best], analysis, seed, wins={s.discard: w for s, w in zip(splits, wins, strict=True)})

    def play_value(self, split: Split, seat: Seat, seed: int) -> float:
        """What the split's kept cards are worth in the play (`pegging.play_value`), against the same hands for
        every split of a deal (`seed`)."""
        unseen = tuple(c for c in DECK if c not in split.keep and c not in split.discard)
        return play_value(split.keep, unseen, dealer=seat.dealer, samples=self.play_samples, rng=random.Random(seed),
                          ev_chance=self.ev_chance)

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


@dataclass(frozen=True, slots=True)
class Explained:
    """The pro's lay-away from six cards beside the expected-value count's, and why they differ, as reasons
    (`words.advice.lay_away_words` says it)."""

    chosen: LayAway  # the pro's
    exact: Analysis  # the exact count (uniform opponent): its best is the expected-value choice
    given_up: float  # points the pro's split averages less than the best by the exact count
    reasons: tuple[Reason, ...]  # why the pro keeps its split over the expected-value choice

    @property
    def agree(self) -> bool:
        return set(self.exact.best.discard) == set(self.chosen.split.discard)


def explain_lay_away(cards: Sequence[Card], seat: Seat) -> Explained:
    """The pro's lay-away from six cards, the expected-value player's, and why the pro's differs: what it wins
    near the end, what the crib is worth with the cards the opponent likely lays away, and what the play is."""
    pro = Pro(random.Random(0))
    chosen = pro.lay_away(cards, seat)
    exact = analyse(cards, dealer=seat.dealer)
    rival, mine = exact.best, chosen.split
    if set(rival.discard) == set(mine.discard):
        return Explained(chosen, exact, 0.0, ())
    given_up = rival.net - exact.split_for(mine.discard).net
    reasons = []
    if chosen.wins:
        reasons.append(Reason(Because.NEAR_END, cards=rival.keep, share=chosen.wins[mine.discard],
                              other_share=chosen.wins[tuple(rival.discard)]))
    else:
        modelled = chosen.analysis.split_for(rival.discard)
        exact_mine = exact.split_for(mine.discard)
        if (mine.net - modelled.net) - (exact_mine.net - rival.net) > 0.05:
            crib = Reason(Because.CRIB_FOR, cards=mine.discard, others=rival.discard, dealer=seat.dealer)
            if (1 if seat.dealer else -1) * (mine.crib - modelled.crib) > 0:  # the crib speaks for the pro's choice
                reasons.append(replace(crib, share=mine.crib, other_share=modelled.crib, exact=exact_mine.crib,
                                       other_exact=rival.crib))
            else:  # the crib is against the pro's choice, but by less than the exact count says
                reasons.append(replace(crib, kind=Because.CRIB_AGAINST, share=abs(mine.crib - modelled.crib),
                                       exact=abs(exact_mine.crib - rival.crib)))
        play = chosen.play.get(mine.discard, pro.play_value(mine, seat, chosen.seed))
        other = chosen.play.get(tuple(modelled.discard), pro.play_value(modelled, seat, chosen.seed))
        if play - other > 0.05:
            reasons.append(Reason(Because.PLAY_PEGS, cards=mine.keep, others=rival.keep, share=play - other))
    return Explained(chosen, exact, given_up, tuple(reasons))
