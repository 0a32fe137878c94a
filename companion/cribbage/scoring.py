"""Scores that carry their explanation: the show (hand and crib) and the pegging of one card.

A `Score` is a tuple of `ScoreItem`s (kind, cards, points). The OLED, the log, the command line and the
tests all read the same items; `Score.phrases()` groups them as players name them (a run with the pairs among
its ranks is a double run, a triple run, a double double run), and `companion.words` says each phrase in a
player's cadence, in the language it is handed. No words here: a refusal is a code with its facts.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .cards import Card, Suit
from .errors import RuleError
from .refusals import Refusal, Why

# Kinds of score items, as players name them.
FIFTEEN = "fifteen"
THIRTY_ONE = "thirty-one"
PAIR = "pair"
PAIR_ROYAL = "pair royal"
DOUBLE_PAIR_ROYAL = "double pair royal"
RUN = "run"
FLUSH = "flush"
NOBS = "nobs"
GO = "go"
LAST_CARD = "last card"
HIS_HEELS = "his heels"
MUGGINS = "muggins"
MANUAL = "pegged"
FIRST_DEAL_BONUS = "three for last"  # five-card cribbage: the pone of the first deal

_SAME_RANK_KINDS = {2: (PAIR, 2), 3: (PAIR_ROYAL, 6), 4: (DOUBLE_PAIR_ROYAL, 12)}


@dataclass(frozen=True, slots=True)
class ScoreItem:
    kind: str
    cards: tuple[Card, ...]
    points: int

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind, "cards": [str(c) for c in self.cards], "points": self.points}


@dataclass(frozen=True, slots=True)
class Score:
    items: tuple[ScoreItem, ...] = ()

    @property
    def total(self) -> int:
        return sum(item.points for item in self.items)

    def __bool__(self) -> bool:
        return bool(self.items)

    def phrases(self) -> tuple[Phrase, ...]:
        """What a player says, one phrase per combination: a run with the pairs inside it is one double run."""
        return spoken_phrases(self.items)

    def to_json(self) -> dict[str, object]:
        return {"total": self.total, "items": [item.to_json() for item in self.items]}


# Combinations a player names as one: runs sharing their ranks, with the pairs among those ranks.
DOUBLE_RUN = "double run"  # a run of three with a pair: 8
DOUBLE_RUN_OF_FOUR = "double run of four"  # a run of four with a pair: 10
TRIPLE_RUN = "triple run"  # a run of three with a pair royal: 15
DOUBLE_DOUBLE_RUN = "double double run"  # a run of three with two pairs: 16
# By how many runs the ranks make, and how long they are.
_RUN_FAMILIES = {(2, 3): DOUBLE_RUN, (2, 4): DOUBLE_RUN_OF_FOUR, (3, 3): TRIPLE_RUN, (4, 3): DOUBLE_DOUBLE_RUN}


@dataclass(frozen=True, slots=True)
class Phrase:
    """One thing said in a count: a combination (`kind`, of `size` cards) worth `points`, making `running`."""

    kind: str
    size: int
    points: int
    running: int


def spoken_phrases(items: Sequence[ScoreItem]) -> tuple[Phrase, ...]:
    """The items as they are said: the runs over the same ranks and the pairs among those ranks are one phrase
    (a double run, ...) where the first of them stood; every other item is a phrase of its own."""
    run_ranks = [frozenset(c.rank for c in item.cards) for item in items if item.kind == RUN]
    families: dict[object, list[ScoreItem]] = {}  # in the order of their first items
    for index, item in enumerate(items):
        family: object = index
        if item.kind == RUN:
            family = frozenset(c.rank for c in item.cards)
        elif item.kind in (PAIR, PAIR_ROYAL):
            family = next((ranks for ranks in run_ranks if item.cards[0].rank in ranks), index)
        families.setdefault(family, []).append(item)
    phrases = []
    running = 0
    for members in families.values():
        runs = [m for m in members if m.kind == RUN]
        points = sum(m.points for m in members)
        running += points
        if len(runs) > 1:
            phrases.append(Phrase(_RUN_FAMILIES[len(runs), len(runs[0].cards)], len(runs[0].cards), points, running))
        else:
            phrases.append(Phrase(members[0].kind, len(members[0].cards), points, running))
    return tuple(phrases)


_SUBSETS = {
    n: tuple(
        tuple(i for i in range(n) if mask >> i & 1) for mask in range(1 << n) if bin(mask).count("1") >= 2
    )
    for n in (4, 5)
}


def score_show(hand: Sequence[Card], starter: Card, *, crib: bool = False) -> Score:
    """Score a four-card hand (or crib) with the starter, itemised in the order players count.

    Four hand cards of one suit are a flush of 4, five with the starter; in the crib only the five count.
    (Five-card cribbage shows three-card hands: a flush there is 3, or 4 with the starter.)
    Nobs is the jack of the starter's suit held in the hand (a jack starter is his heels, not nobs).
    """
    if len(hand) not in (3, 4):
        raise RuleError(Refusal(Why.SHOW_SIZE, count=len(hand)))
    cards = (*hand, starter)
    if len(set(cards)) != len(cards):
        raise RuleError(Refusal(Why.SHOW_SAME_CARD))
    items: list[ScoreItem] = []
    values = [c.value for c in cards]
    items.extend(
        ScoreItem(FIFTEEN, tuple(cards[i] for i in subset), 2)
        for subset in _SUBSETS[len(cards)]
        if sum(values[i] for i in subset) == 15
    )
    by_rank: dict[int, list[Card]] = {}
    for card in sorted(cards):
        by_rank.setdefault(card.rank, []).append(card)
    for rank_cards in by_rank.values():
        if len(rank_cards) >= 2:
            kind, points = _SAME_RANK_KINDS[len(rank_cards)]
            items.append(ScoreItem(kind, tuple(rank_cards), points))
    items.extend(_show_runs(by_rank))
    suits = {c.suit for c in hand}
    if len(suits) == 1:
        if starter.suit in suits:
            items.append(ScoreItem(FLUSH, cards, len(cards)))
        elif not crib:
            items.append(ScoreItem(FLUSH, tuple(hand), len(hand)))
    items.extend(ScoreItem(NOBS, (c,), 1) for c in hand if c.rank == 11 and c.suit == starter.suit)
    return Score(tuple(items))


def _show_runs(by_rank: dict[int, list[Card]]) -> Iterable[ScoreItem]:
    rank = 1
    while rank <= 13:
        end = rank
        while end + 1 in by_rank and rank in by_rank:
            end += 1
        length = end - rank + 1
        if rank in by_rank and length >= 3:
            for combo in itertools.product(*(by_rank[r] for r in range(rank, end + 1))):
                yield ScoreItem(RUN, combo, length)
        rank = end + 1


def score_pegging(cards: Sequence[Card]) -> Score:
    """Points for the last card of `cards`, the cards played since the count was last reset.

    Go and last-card points depend on what follows, so the game adds them; this scores 15 and 31, pairs
    (consecutive cards of one rank only) and runs (the last n cards are n consecutive ranks, any order).
    """
    if not cards:
        return Score()
    count = sum(c.value for c in cards)
    if count > 31:
        raise RuleError(Refusal(Why.PILE_PAST_31, count=count))
    last = cards[-1]
    items: list[ScoreItem] = []
    if count == 15:
        items.append(ScoreItem(FIFTEEN, tuple(cards), 2))
    elif count == 31:
        items.append(ScoreItem(THIRTY_ONE, tuple(cards), 2))
    same = 1
    while same < len(cards) and same < 4 and cards[-same - 1].rank == last.rank:
        same += 1
    if same >= 2:
        kind, points = _SAME_RANK_KINDS[same]
        items.append(ScoreItem(kind, tuple(cards[-same:]), points))
    for length in range(len(cards), 2, -1):
        ranks = sorted(c.rank for c in cards[-length:])
        if all(b - a == 1 for a, b in itertools.pairwise(ranks)):
            items.append(ScoreItem(RUN, tuple(cards[-length:]), length))
            break
    return Score(tuple(items))


_RANK_KINDS = frozenset((FIFTEEN, PAIR, PAIR_ROYAL, DOUBLE_PAIR_ROYAL, RUN))
# A multiset of ranks as one number: the count of each rank (0..4) is its base-5 digit.
_RANK_KEY = tuple(5 ** rank for rank in range(14))
_rank_points: dict[int, int] = {}


def rank_points(ranks: Sequence[int]) -> int:
    """Points of fifteens, pairs and runs of cards with these ranks (1..13, the last one the starter).

    Those depend on ranks only, so fast totals and the discard analysis look them up by rank; this counts
    them with `score_show` itself, so the look-ups and the itemised count are one set of rules.
    """
    suits = tuple(Suit)
    seen: dict[int, int] = {}
    cards = []
    for rank in ranks:
        cards.append(Card(rank, suits[seen.get(rank, 0)]))
        seen[rank] = seen.get(rank, 0) + 1
    score = score_show(cards[:-1], cards[-1])
    return sum(item.points for item in score.items if item.kind in _RANK_KINDS)


def _rank_points_table() -> dict[int, int]:
    """`rank_points` of every five-rank multiset (6,175 of them), keyed by _RANK_KEY sums; built once."""
    if not _rank_points:
        for ranks in itertools.combinations_with_replacement(range(1, 14), 5):
            if all(ranks.count(r) <= 4 for r in ranks):
                _rank_points[sum(_RANK_KEY[r] for r in ranks)] = rank_points(ranks)
    return _rank_points


def show_total(hand: Sequence[Card], starter: Card, *, crib: bool = False) -> int:
    """`score_show(...).total` without the items: a table look-up for the ranks plus flush and nobs.

    For batches and advice; the caller guarantees four distinct hand cards and a fifth for the starter.
    """
    table = _rank_points or _rank_points_table()
    a, b, c, d = hand
    key = _RANK_KEY
    points = table[key[a.rank] + key[b.rank] + key[c.rank] + key[d.rank] + key[starter.rank]]
    suit = starter.suit
    if a.suit is b.suit is c.suit is d.suit:
        if a.suit is suit:
            points += 5
        elif not crib:
            points += 4
    for card in hand:  # nobs
        if card.rank == 11 and card.suit is suit:
            points += 1
    return points
