"""Exact discard analysis: every way to lay away cards, with the hand and crib it gives on average.

For each split the hand is scored against every starter left in the pack, and the crib against every
pair the opponent could lay away and every starter (683,100 crib counts for a six-card hand), exactly.
Instead of counting each crib, the analysis counts by rank with multiplicities (fifteens, pairs and runs
depend on ranks only; `tables.rank_table` holds them, built from the engine's `score_show`) and then adds
the flush and nobs points exactly from the suits. `analyse_slowly` is the straightforward loop over every
crib with `show_total`: the tests check one against the other, and `crib bench` times both.

The opponent's pair is either uniform (every pair of unseen cards equally likely, the baseline) or
weighted by an `OpponentModel`: how likely a sensible player is to lay away each pair of ranks.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from companion.cribbage.cards import DECK, Card
from companion.cribbage.rules import VARIANT
from companion.cribbage.scoring import score_show, show_total
from companion.words.advice import AdviceError, AdviceRefusal, Unadvised

from .model import UNIFORM, OpponentModel
from .tables import RANKS, IntArray, draw_weights, rank_table

JACK = 11


@dataclass(frozen=True, slots=True)
class Deal:
    """How many cards a player is dealt and lays away, by variant."""

    name: str
    dealt: int
    laid_away: int


DEALS = {name: Deal(name, variant.dealt, variant.laid_away) for name, variant in VARIANT.items()}
"""Each variant's deal, from the rules' one table of variants."""


def deal_for(cards: int, variant: str | None) -> Deal:
    """The deal a hand of `cards` cards belongs to; five cards need the variant said."""
    if variant is not None:
        if variant not in DEALS:
            raise AdviceError(AdviceRefusal(Unadvised.NO_VARIANT, variant, tuple(DEALS)))
        deal = DEALS[variant]
        if deal.dealt != cards:
            raise AdviceError(AdviceRefusal(Unadvised.DEAL_SIZE, variant, count=deal.dealt, total=cards))
        return deal
    if cards == 6:
        return DEALS["two"]
    if cards == 5:
        raise AdviceError(AdviceRefusal(Unadvised.FIVE_CARDS))
    raise AdviceError(AdviceRefusal(Unadvised.DEAL, total=cards))


@dataclass(frozen=True, slots=True)
class Split:
    """One way to lay away: the cards kept and discarded and what they are worth on average."""

    keep: tuple[Card, ...]
    discard: tuple[Card, ...]
    hand: float  # average show of the kept cards over every starter
    hand_min: int
    hand_max: int
    crib: float  # average crib points (the dealer's own, or the opponent's)
    net: float  # hand + crib for the dealer, hand - crib for the pone
    hands: tuple[int, ...] = ()  # the hand's count with each starter, lowest first

    def chance(self, at_least: int) -> float:
        """The chance the kept cards count at least `at_least` with the starter."""
        return sum(1 for h in self.hands if h >= at_least) / len(self.hands)

    def to_json(self) -> dict[str, object]:
        return {
            "keep": [str(c) for c in self.keep],
            "discard": [str(c) for c in self.discard],
            "hand": round(self.hand, 4),
            "hand_min": self.hand_min,
            "hand_max": self.hand_max,
            "crib": round(self.crib, 4),
            "net": round(self.net, 4),
        }


@dataclass(frozen=True, slots=True)
class Analysis:
    cards: tuple[Card, ...]
    dealer: bool
    deal: Deal
    model: str
    splits: tuple[Split, ...]  # best first

    @property
    def best(self) -> Split:
        return self.splits[0]

    def split_for(self, discard: Sequence[Card]) -> Split:
        wanted = set(discard)
        for split in self.splits:
            if set(split.discard) == wanted:
                return split
        raise AdviceError(AdviceRefusal(Unadvised.NOT_A_DISCARD, cards=tuple(discard), others=self.cards))

    def to_json(self) -> dict[str, object]:
        return {
            "cards": [str(c) for c in self.cards],
            "role": "dealer" if self.dealer else "pone",
            "variant": self.deal.name,
            "model": self.model,
            "splits": [s.to_json() for s in self.splits],
        }


def _check(cards: Sequence[Card], variant: str | None, model: OpponentModel) -> tuple[Deal, OpponentModel]:
    """The deal of these cards, and the model that applies to it (two-player deals only; others use the uniform one)."""
    deal = deal_for(len(cards), variant)
    if len(set(cards)) != len(cards):
        raise AdviceError(AdviceRefusal(Unadvised.CARD_TWICE))
    return deal, model if deal.laid_away == 2 and deal.dealt == 6 else UNIFORM


def _splits(cards: Sequence[Card], deal: Deal) -> list[tuple[tuple[Card, ...], tuple[Card, ...]]]:
    out = []
    for discard in itertools.combinations(cards, deal.laid_away):
        keep = tuple(c for c in cards if c not in discard)
        out.append((keep, discard))
    return out


def _ordered(splits: list[Split]) -> tuple[Split, ...]:
    # Ties broken by the better hand, then by card order, so the advice never depends on input order.
    return tuple(sorted(splits, key=lambda s: (-s.net, -s.hand, [c.index for c in s.keep])))


def analyse(cards: Sequence[Card], *, dealer: bool, variant: str | None = None,
            model: OpponentModel = UNIFORM) -> Analysis:
    """Every way to lay away from `cards`, best net first, exact over every starter and opponent discard.

    The model weights the opponent's two-card discard (two-player deals only; others use the uniform one).
    """
    cards = tuple(cards)
    deal, model = _check(cards, variant, model)
    seen = np.zeros(len(DECK), dtype=bool)
    seen[[c.index for c in cards]] = True
    pack = np.flatnonzero(~seen)  # the cards the starter and the others' discards come from
    pack_ranks = pack // 4
    pack_suits = pack % 4
    left = np.bincount(pack_ranks, minlength=RANKS)
    draws = 5 - deal.laid_away  # unseen crib cards, the starter last

    crib_fixed, per_discard = _crib_terms(pack_ranks, pack_suits, left, draws,
                                          model.pair_weights(dealer=not dealer) if draws == 3 else None)
    choices = _splits(cards, deal)
    hand_table = rank_table(len(choices[0][0]) + 1)
    crib_table = rank_table(5)

    keeps = np.array([[c.rank - 1 for c in keep] for keep, _ in choices])
    hand_ranks = hand_table[tuple(keeps.T)][:, pack_ranks]  # (splits, starters)
    discards = np.array([[c.rank - 1 for c in discard] for _, discard in choices])
    weights = draw_weights(left, draws) if model is UNIFORM else per_discard.weights
    crib_ranks = np.tensordot(crib_table[tuple(discards.T)], weights, axes=draws) / weights.sum()

    out = []
    for i, (keep, discard) in enumerate(choices):
        hand = hand_ranks[i].copy()
        suits = {c.suit for c in keep}
        if len(suits) == 1:
            suit = next(iter(suits)).index
            hand += np.where(pack_suits == suit, len(keep) + 1, len(keep))
        for card in keep:
            if card.rank == JACK:
                hand += pack_suits == card.suit.index
        crib = float(crib_ranks[i]) + crib_fixed
        if len({c.suit for c in discard}) == 1:
            crib += 5 * per_discard.flush[discard[0].suit.index]
        crib += sum(per_discard.starter_suit[c.suit.index] for c in discard if c.rank == JACK)
        average = float(hand.mean())
        out.append(Split(keep, discard, average, int(hand.min()), int(hand.max()), crib,
                         average + crib if dealer else average - crib, tuple(sorted(hand.tolist()))))
    return Analysis(cards, dealer, deal, model.name, _ordered(out))


@dataclass(frozen=True, slots=True)
class _PerDiscard:
    weights: IntArray  # ordered unseen-crib-card rank tuples, weighted (opponent pair first, starter last)
    flush: list[float]  # by suit: chance every unseen crib card and the starter are of it
    starter_suit: list[float]  # by suit: chance the starter is of it (nobs for a jack laid away)


def _crib_terms(pack_ranks: IntArray, pack_suits: IntArray, left: IntArray, draws: int,
                pair_weights: IntArray | np.ndarray | None) -> tuple[float, _PerDiscard]:
    """The crib points that do not depend on the split (nobs from a jack the others lay away) and the
    per-suit chances the split's own flush and nobs need."""
    size = len(pack_ranks)
    if pair_weights is None:
        # Uniform draws: closed forms.
        flush = []
        starter_suit = []
        fixed = 0.0
        falling = float(np.prod(np.arange(size, size - draws, -1)))
        for suit in range(4):
            m = int((pack_suits == suit).sum())
            flush.append(float(np.prod(np.arange(m, m - draws, -1).clip(0))) / falling)
            starter_suit.append(m / size)
            if (pack_ranks[pack_suits == suit] == JACK - 1).any():
                fixed += (m - 1) / size * (draws - 1) / (size - 1)
        return fixed, _PerDiscard(draw_weights(left, draws), flush, starter_suit)
    # The opponent's pair weighted by rank; suits uniform within a rank; the starter uniform from the rest.
    pair = np.asarray(pair_weights, dtype=float)[pack_ranks[:, None], pack_ranks[None, :]]
    np.fill_diagonal(pair, 0.0)
    total = pair.sum() * (size - 2)
    flush = []
    starter_suit = []
    fixed = 0.0
    for suit in range(4):
        of_suit = (pack_suits == suit).astype(float)
        m = of_suit.sum()
        in_pair = of_suit[:, None] + of_suit[None, :]
        starter_suit.append(float((pair * (m - in_pair)).sum() / total))
        flush.append(float((pair * np.outer(of_suit, of_suit)).sum() * (m - 2) / total))
        for j in np.flatnonzero((pack_suits == suit) & (pack_ranks == JACK - 1)):
            fixed += float(((pair[j] + pair[:, j]) * (m - 1 - of_suit)).sum() / total)
    ranks_weights = draw_weights(left, 3) * np.asarray(pair_weights, dtype=float)[:, :, None]
    return fixed, _PerDiscard(ranks_weights, flush, starter_suit)


def analyse_slowly(cards: Sequence[Card], *, dealer: bool, variant: str | None = None,
                   model: OpponentModel = UNIFORM, only: Sequence[Card] | None = None) -> Analysis:
    """The same analysis by the straightforward loop: every starter, every crib, counted with `show_total`.

    `only` restricts it to one discard (the tests use it for the slow three-player case).
    """
    cards = tuple(cards)
    deal, model = _check(cards, variant, model)
    weights = model.pair_weights(dealer=not dealer)
    pack = [c for c in DECK if c not in cards]
    out = []
    for keep, discard in _splits(cards, deal):
        if only is not None and set(only) != set(discard):
            continue
        hands = [show_total(keep, s) if len(keep) == 4 else score_show(keep, s).total for s in pack]
        crib_sum = 0.0
        crib_weight = 0.0
        for others in itertools.combinations(pack, 4 - deal.laid_away):
            weight = float(weights[others[0].rank - 1, others[1].rank - 1]) if len(others) == 2 else 1.0
            crib = (*discard, *others)
            for starter in pack:
                if starter not in others:
                    crib_sum += weight * show_total(crib, starter, crib=True)
                    crib_weight += weight
        average = sum(hands) / len(hands)
        crib_average = crib_sum / crib_weight
        out.append(Split(keep, discard, average, min(hands), max(hands), crib_average,
                         average + crib_average if dealer else average - crib_average, tuple(sorted(hands))))
    return Analysis(cards, dealer, deal, model.name, _ordered(out))

