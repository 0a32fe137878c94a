"""The play (pegging): fast rank-level scoring, a search of the rest of the play, and the pegging hint.

Pegging depends on ranks only, so the search works on rank tuples. `peg_points` is checked against the
engine's `score_pegging` in the tests. For each card it can play, the search plays out the rest of the play
for both players (every later pair, run, fifteen, thirty-one, go and last card, through every later count)
against hands the opponent could hold. Those hands are drawn from the cards the player has not seen and
weighted by how likely the opponent is to hold them: a player keeps cards that count well together (the
weight was measured from the standard player's discards), and each card he has played, and each go, says
something about the rest (a player following his rules would have played that card from that hand). Each
hand is searched with one of two sets of rules for the opponent's plays (`STYLES`: the standard player's rules
of thumb, or the expected-value player's fixed rules), chosen in proportion to how well each explains his
plays so far (and, through `PlayView.ev_chance`, his plays in the game's earlier deals).

Far from the end the search counts points (mine minus the opponent's); near the end (`endgame.REACH`) it
counts the chance of winning the game: pegging out wins at once, and at the end of the play both hands are
counted in order (the pone first) with the crib still to come, from `endgame.WinChances`.
"""

from __future__ import annotations

import functools
import math
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from companion.cribbage.cards import VALUES, Card
from companion.cribbage.game import MAX_COUNT, fitting
from companion.words.advice import AdviceError, AdviceRefusal, Because, Reason, Unadvised

from .endgame import REACH, WinChances, chances
from .keeps import load as load_keeps
from .tables import rank_table

Ranks = tuple[int, ...]
# A kept hand that averages one point more with the starter is this much more likely to be what the opponent
# kept, up to 12 points (measured: 3,000 random deals, the standard player's keep against random four cards;
# the log of the ratio rises by 0.28 to 0.39 a point as dealer and as pone and levels off near 12).
KEEP_SLOPE = 0.35
KEEP_CAP = 12.0
SURPRISE = 0.15  # weight of a hand from which a sensible player would not have played what he played
MISLAID = 0.05  # weight of a hand kept against the table of keeps: people do not always lay away as it says
_MEMO_LIMIT = 100_000  # a search's states kept between decisions: emptying 400,000 took 110 ms


def peg_points(pile: Sequence[int], count: int) -> int:
    """Points for the last rank of `pile` (the ranks since the count was reset); `count` includes it."""
    points = 2 if count in (15, 31) else 0
    last = pile[-1]
    same = 1
    while same < len(pile) and same < 4 and pile[-same - 1] == last:
        same += 1
    points += (0, 0, 2, 6, 12)[same]
    for length in range(len(pile), 2, -1):
        tail = pile[-length:]
        if max(tail) - min(tail) == length - 1 and len(set(tail)) == length:
            return points + length
    return points


R = TypeVar("R")


class _Memo(Generic[R]):
    """A function's results kept in a plain dict of ranks, emptied when it holds `limit`. Unlike functools.lru_cache,
    whose links the garbage collector walks on every full collection (40 ms pauses in the middle of a decision),
    a dict of tuples of numbers is left out of collections altogether."""

    def __init__(self, function: Callable[..., R], limit: int = 1 << 16) -> None:
        self.function = function
        self.limit = limit
        self.known: dict[tuple[object, ...], R] = {}
        functools.update_wrapper(self, function)

    def __call__(self, *args: Any) -> R:
        if args in self.known:
            return self.known[args]
        if len(self.known) >= self.limit:
            self.known.clear()
        value = self.known[args] = self.function(*args)
        return value


_peg = _Memo(peg_points)


def sensible_value(pile: tuple[int, ...], count: int, rank: int) -> float:
    """Rules of thumb for playing `rank` on `pile` (ranks since the reset; `count` before the card), in points.

    The standard player plays by these, and the pro's search expects its opponent to.
    """
    pile = (*pile, rank)
    count += VALUES[rank]
    value = float(_peg(pile, count))
    if count in (5, 21):
        value -= 1.5  # any ten-card makes 15 or 31
    if len(pile) == 1:
        value += 0.8 if VALUES[rank] < 5 else 0.0  # a low lead: nothing makes fifteen on it
        value -= 1.0 if rank == 5 else 0.0
    # Keep low cards for the end of a series, where they score the go.
    return value + VALUES[rank] * 0.02


@_Memo
def sensible_choice(hand: Ranks, pile: Ranks, count: int) -> int | None:
    """The rank a sensible player plays from `hand` (None: nothing fits, he says go)."""
    fits = [r for r in hand if count + VALUES[r] <= MAX_COUNT]
    if not fits:
        return None
    return max(fits, key=lambda r: (sensible_value(pile, count, r), -r))


@_Memo
def ev_choice(hand: Ranks, pile: Ranks, count: int, wary: bool = False) -> int | None:
    """The rank the expected-value player (level `ev`) plays from `hand` (None: nothing fits, he says go).

    Its fixed rules, in order: the most points now, a pair counting nothing when it pairs a lead the leader
    may answer with a third (`wary`: he still holds cards and a third of that rank is unseen, and the player
    holds no other to answer with a fourth); then a card that does not leave the count at 5 or 21; then the
    lowest card."""
    fits = [r for r in hand if count + VALUES[r] <= MAX_COUNT]
    if not fits:
        return None

    def key(rank: int) -> tuple[int, bool, int, int]:
        after = count + VALUES[rank]
        points = _peg((*pile, rank), after)
        if wary and len(pile) == 1 and rank == pile[0] and hand.count(rank) == 1:
            points -= 2
        return points, after not in (5, 21), -VALUES[rank], -rank

    return max(fits, key=key)


def ev_card(view: PlayView) -> Card:
    """The card the expected-value player plays (`ev_choice`); the view must have a card that fits."""
    pile = tuple(c.rank for c in view.pile)
    wary = (len(pile) == 1 and view.opponent_cards > 0 and not view.opponent_go
            and any(c.rank == pile[0] for c in view.unseen))
    rank = ev_choice(tuple(sorted(c.rank for c in view.hand)), pile, view.count, wary)
    return min(c for c in view.legal() if c.rank == rank)


def _fits(hand: Ranks, count: int) -> bool:
    """Whether a card of `hand` (ranks, lowest first) fits: the engine's rule, on ranks for speed."""
    return bool(hand) and count + VALUES[hand[0]] <= MAX_COUNT


def _next_series(mine: Ranks, theirs: Ranks, last: int) -> int:
    """Who leads after a go or 31: the player after the one who played last, if he has cards."""
    return 1 - last if (theirs if last == 0 else mine) else last


# Where the play stands: my ranks, the opponent's, the pile since the reset, the count, who is to play (0: me)
# and who played last.
State = tuple[Ranks, Ranks, Ranks, int, int, int]
# How the search expects the opponent to play: by the standard player's rules of thumb (`sensible_choice`) or
# by the expected-value player's fixed rules (`ev_choice`).
STYLES = ("standard", "ev")
_future_memos: dict[str, dict[State, float]] = {style: {} for style in STYLES}


def _their_choice(state: State, style: str) -> int:
    """The rank player 1 plays in `state` (he holds a card that fits), as the opponent of that style would."""
    mine, theirs, pile, count, _, last = state
    if style == "ev":
        return ev_choice(theirs, pile, count, len(pile) == 1 and last == 0 and bool(mine)) or 0
    return sensible_choice(theirs, pile, count) or 0


def _stuck(state: State) -> tuple[State | None, int | None]:
    """When the mover holds no card that fits: the state that follows (None: the play is over), and who pegs one
    for the go or the last card (the player who played last; None when the other can play and the turn passes)."""
    mine, theirs, pile, count, mover, last = state
    if _fits(theirs if mover == 0 else mine, count):
        return (mine, theirs, pile, count, 1 - mover, last), None
    if mine or theirs:
        return (mine, theirs, (), 0, _next_series(mine, theirs, last), last), last
    return None, last


def _future(state: State, style: str = "standard") -> float:
    """Points player 0 pegs minus player 1's from here to the end of the play; player 1 plays by the rules of
    `style`, player 0 its best.

    Shared by every decision (points from here on do not depend on the score), so later plays of a deal, and
    later deals with the same ranks, find much of their tree already searched.
    """
    memo = _future_memos[style]
    known = memo.get(state)
    if known is not None:
        return known
    mine, theirs, _, count, mover, _ = state
    hand = mine if mover == 0 else theirs
    if not _fits(hand, count):
        following, go = _stuck(state)
        value = 0.0 if go is None else 1.0 if go == 0 else -1.0
        if following is not None:
            value += _future(following, style)
    elif mover == 1:
        value = -_after(state, _their_choice(state, style), style)
    else:
        value = max(_after(state, r, style) for r in set(mine) if count + VALUES[r] <= MAX_COUNT)
    if len(memo) >= _MEMO_LIMIT:
        memo.clear()
    memo[state] = value
    return value


def _played(state: State, rank: int) -> tuple[State, int, bool]:
    """The state after the mover plays `rank`, the points it pegs, and whether the play is over."""
    mine, theirs, pile, count, mover, _ = state
    if mover == 0:
        mine = _without(mine, rank)
    else:
        theirs = _without(theirs, rank)
    pile = (*pile, rank)
    count += VALUES[rank]
    points = _peg(pile, count)
    if count == 31:
        return (mine, theirs, (), 0, _next_series(mine, theirs, mover), mover), points, not mine and not theirs
    return (mine, theirs, pile, count, 1 - mover, mover), points, False


def _after(state: State, rank: int, style: str = "standard") -> float:
    """The mover's points for playing `rank` and what follows, from the mover's side."""
    after, points, over = _played(state, rank)
    if over:
        return points
    return points + (_future(after, style) if state[4] == 0 else -_future(after, style))


def _without(hand: Ranks, rank: int) -> Ranks:
    i = hand.index(rank)
    return hand[:i] + hand[i + 1:]


@dataclass
class _Race:
    """The chance player 0 wins the game, searched to the end of the play with the scores pegged so far."""

    need: tuple[int, int]  # points each still needs to win in the play
    leaf: Callable[[int, int], float]  # the chance at the end of the play, given each one's points in it
    style: str = "standard"  # how the opponent plays

    def __post_init__(self) -> None:
        self.memo: dict[tuple[State, tuple[int, int]], float] = {}

    def _end(self, scored: tuple[int, int]) -> float | None:
        if scored[0] >= self.need[0]:
            return 1.0
        if scored[1] >= self.need[1]:
            return 0.0
        return None

    def value(self, state: State, scored: tuple[int, int]) -> float:
        known = self.memo.get((state, scored))
        if known is not None:
            return known
        mine, theirs, _, count, mover, _ = state
        hand = mine if mover == 0 else theirs
        if not _fits(hand, count):
            following, go = _stuck(state)
            pegged = scored if go is None else (scored[0] + 1, scored[1]) if go == 0 else (scored[0], scored[1] + 1)
            end = None if go is None else self._end(pegged)
            if end is not None:
                value = end
            elif following is not None:
                value = self.value(following, pegged)
            else:
                value = self.leaf(*pegged)
        elif mover == 1:
            value = self.after(state, _their_choice(state, self.style), scored)
        else:
            value = max(self.after(state, r, scored) for r in set(mine) if count + VALUES[r] <= MAX_COUNT)
        self.memo[(state, scored)] = value
        return value

    def after(self, state: State, rank: int, scored: tuple[int, int]) -> float:
        """The chance after the mover plays `rank`."""
        after, points, over = _played(state, rank)
        scored = (scored[0] + points, scored[1]) if state[4] == 0 else (scored[0], scored[1] + points)
        end = self._end(scored)
        if end is not None:
            return end
        return self.leaf(*scored) if over else self.value(after, scored)


Move = tuple[tuple[Card, ...], Card | None]  # the pile a player faced, and the card he played (None: go)


def moves_seen(played: Sequence[tuple[str, Card]], opponent: str, cards: int, count_now: int,
               gone: bool) -> tuple[Move, ...]:
    """The opponent's plays and goes in this deal, from the cards played in order (who, card) as a table records
    them: he said go when another player played twice running in a series, and when the count started again
    short of 31 while he held cards; `count_now`: the count now; `gone`: he has said go at this count."""
    moves: list[Move] = []
    pile: list[Card] = []
    count, held, said, last = 0, cards, False, None

    def go() -> None:
        nonlocal said
        if held and not said:
            moves.append((tuple(pile), None))
            said = True

    for who, card in played:
        if pile and count + card.value > MAX_COUNT:  # nobody could play: the count starts again
            go()
            pile, count, said = [], 0, False
        elif pile and who == last and who != opponent:  # his turn came and went
            go()
        if who == opponent:
            moves.append((tuple(pile), card))
            held -= 1
        pile.append(card)
        count += card.value
        last = who
        if count == MAX_COUNT:
            pile, count, said = [], 0, False
    if count != count_now or gone:  # started again after the last card played, or he cannot play now
        go()
    return tuple(moves)


@dataclass(frozen=True, slots=True)
class PlayView:
    """What a player knows when it is their turn in the play."""

    hand: tuple[Card, ...]  # the player's cards still in hand
    pile: tuple[Card, ...]  # cards played since the count was last reset, in order
    unseen: tuple[Card, ...]  # cards the player has not seen (the opponent's cards are among them)
    opponent_cards: int  # how many cards the opponent still holds
    opponent_go: bool = False  # the opponent has said go at this count (holds nothing that fits)
    need: int = 999  # points the player still needs to win
    opponent_need: int = 999
    dealer: bool = False
    starter: Card | None = None
    kept: tuple[Card, ...] = ()  # the player's hand as it was before the play (counted in the show)
    opponent_moves: tuple[Move, ...] = ()  # the opponent's plays and goes in this deal, in order
    target: int = 121
    ev_chance: float = 0.5  # the chance, before this deal's plays, that the opponent plays by the ev rules
    variant: str = "two"  # the deal (`discard.DEALS`): in two-player six-card deals his hand is read from `keeps`

    @property
    def count(self) -> int:
        return sum(c.value for c in self.pile)

    def legal(self) -> tuple[Card, ...]:
        """The cards that may be played now: the engine's rule (`fitting`)."""
        return fitting(self.count, self.hand)

    @property
    def racing(self) -> bool:
        """Near the end of the game: play for the chance of winning rather than for points."""
        return min(self.need, self.opponent_need) <= REACH


@dataclass(frozen=True, slots=True)
class Hint:
    card: Card
    points: int  # pegged by the card at once
    expected: float  # with it: points over the rest of the play (mine - opponent's), or, racing, the chance to win
    reasons: tuple[Reason, ...]  # why (`words.advice.hint_words` says it)
    values: dict[Card, float]  # every legal card's value, as `evaluate` gives them
    racing: bool = False
    ev_card: Card | None = None  # the card the expected-value rules play, if another
    against: tuple[Reason, ...] = ()  # with it: the rule they follow, and what the search finds of it


@functools.cache
def _kept_value() -> list[float]:
    """Average points of four ranks with a starter, by their code (ranks 1-13 in base 13)."""
    return [float(v) for v in rank_table(5).mean(axis=4).reshape(-1)]


def _keep_weight(ranks: Sequence[int]) -> float:
    code = 0
    for r in sorted(ranks):
        code = code * 13 + r - 1
    return math.exp(KEEP_SLOPE * min(_kept_value()[code], KEEP_CAP))


def _likelihood(held: Ranks, view: PlayView, played: Ranks) -> tuple[float, float]:
    """How likely the opponent is to have played as he did holding `held` (and `played`, in order), if he plays by
    the standard player's rules and if he plays by the ev rules."""
    if view.opponent_go and _fits(held, view.count):
        return 0.0, 0.0  # he has said go at this count
    weights = [1.0, 1.0]
    later = list(played)  # the ranks he played from each move on
    for pile, card in view.opponent_moves:
        then = tuple(sorted(held + tuple(later)))
        count = sum(c.value for c in pile)
        if card is None:
            if _fits(then, count):
                return 0.0, 0.0  # a go is never said holding a card that fits
            continue
        ranks = tuple(c.rank for c in pile)
        if sensible_choice(then, ranks, count) != card.rank:
            weights[0] *= SURPRISE
        if ev_choice(then, ranks, count, len(ranks) == 1) != card.rank:
            weights[1] *= SURPRISE
        later.remove(card.rank)
    return weights[0], weights[1]


def _dealt_hands(view: PlayView, played: Ranks, draws: int, rng: random.Random) -> list[tuple[Ranks, float]]:
    """Hands he may still hold, each with how likely his lay-away makes it: drawn as the six cards he was dealt
    (his played cards and five or fewer of the unseen), of which he kept what the standard player keeps
    (`keeps`); a hand he would not have kept (his played cards laid away) weighs `MISLAID`, its cards drawn."""
    keeps = load_keeps()
    ranks = [c.rank for c in view.unseen]
    hands = []
    for _draw in range(draws):
        rest = rng.sample(ranks, 6 - len(played))
        kept = list(keeps.kept(tuple(sorted((*played, *rest))), dealer=not view.dealer))
        try:
            for rank in played:
                kept.remove(rank)
            hands.append((tuple(kept), 1.0))
        except ValueError:
            hands.append((tuple(sorted(rng.sample(rest, 4 - len(played)))), MISLAID))
    return hands


def _kept_hands(view: PlayView, played: Ranks, draws: int, rng: random.Random) -> list[tuple[Ranks, float]]:
    """Hands he may hold when what he was dealt is not known in full (`crib hint` without his plays), or when his
    goes rule out the dealt ones drawn: drawn from the unseen cards that do not fit after a go, weighed by what
    they count (a player keeps cards that count well together)."""
    ranks = [c.rank for c in view.unseen]
    if view.opponent_go:
        ranks = [r for r in ranks if VALUES[r] > MAX_COUNT - view.count]
    k = min(view.opponent_cards, len(ranks))
    hands = []
    for _draw in range(draws):
        hand = tuple(sorted(rng.sample(ranks, k)))
        hands.append((hand, _keep_weight(hand + played) if k + len(played) == 4 else 1.0))
    return hands


Holding = tuple[Ranks, str, float]  # a hand the opponent may hold, how he plays it (a STYLE), its share


def opponent_holdings(view: PlayView, samples: int, rng: random.Random) -> tuple[list[Holding], float]:
    """Hands the opponent could hold, by ranks, and how he plays, each with its share of `samples` draws weighted
    by likelihood; and the evidence of this deal's plays for the ev rules over the standard ones (log odds)."""
    played = tuple(card.rank for _, card in view.opponent_moves if card is not None)
    whole = view.variant == "two" and view.opponent_cards + len(played) == 4 and len(view.unseen) >= 6 - len(played)
    likely: list[tuple[Ranks, float, float]] = []
    for draw in (_dealt_hands, _kept_hands) if whole else (_kept_hands,):
        likely = [(hand, w * a, w * b) for hand, w in draw(view, played, 4 * samples, rng)
                  for a, b in (_likelihood(hand, view, played),)]
        if any(a + b for _, a, b in likely):
            break
    standard, ev = sum(a for _, a, _ in likely), sum(b for _, _, b in likely)
    evidence = math.log(ev / standard) if ev > 0 and standard > 0 else 0.0
    pairs = [(hand, style) for hand, _, _ in likely for style in STYLES]
    weights = [w * prior for _, a, b in likely for w, prior in zip((a, b), (1 - view.ev_chance, view.ev_chance),
                                                                    strict=True)]
    if sum(weights) <= 0:
        weights = [1.0] * len(pairs)
    chosen = Counter(rng.choices(pairs, weights, k=samples))
    return [(hand, style, n / samples) for (hand, style), n in sorted(chosen.items())], evidence


def opponent_hands(view: PlayView, samples: int, rng: random.Random) -> list[tuple[Ranks, float]]:
    """Hands the opponent could hold, by ranks, each with its share of `samples` draws weighted by likelihood."""
    shares: dict[Ranks, float] = {}
    for hand, _style, share in opponent_holdings(view, samples, rng)[0]:
        shares[hand] = shares.get(hand, 0.0) + share
    return sorted(shares.items())


def _race_leaf(view: PlayView, table: WinChances, theirs: Ranks, played: Ranks) -> Callable[[int, int], float]:
    """My chance at the end of the play for each split of the play's points, with these opponent's cards.

    The hands are counted by ranks (flushes and nobs left out); a hand not known in full (the starter or
    the cards played not given to `crib hint`) counts what hands usually do."""
    outcomes = table.outcomes
    usual = (outcomes.hand_mean(dealer=view.dealer), outcomes.hand_mean(dealer=not view.dealer))
    mine = _show(tuple(c.rank for c in view.kept), view.starter, usual[0])
    his = _show(theirs + played, view.starter, usual[1])
    me, opponent = view.target - view.need, view.target - view.opponent_need

    @functools.cache
    def leaf(mine_pegged: int, his_pegged: int) -> float:
        return table.after_play(me + mine_pegged, opponent + his_pegged, dealer=view.dealer,
                                my_hand=mine, opponent_hand=his)
    return leaf


def play_value(keep: Sequence[Card], unseen: Sequence[Card], *, dealer: bool, samples: int,
               rng: random.Random, ev_chance: float = 0.5) -> float:
    """What `keep` is worth in the play before a card is laid: points I peg minus the opponent's, searched
    against hands he is likely to have kept and how he is likely to play (drawn as in the play, `samples`)."""
    view = PlayView(tuple(keep), (), tuple(unseen), 4, dealer=dealer, ev_chance=ev_chance)
    mine = tuple(sorted(c.rank for c in keep))
    leader = 1 if dealer else 0  # the pone leads
    return sum(share * _future((mine, theirs, (), 0, leader, 1 - leader), style)
               for theirs, style, share in opponent_holdings(view, samples, rng)[0])


def _show(kept: Ranks, starter: Card | None, usual: float) -> int:
    if starter is None or len(kept) != 4:
        return round(usual)
    return int(rank_table(5)[(*(r - 1 for r in kept), starter.rank - 1)])


def evaluate(view: PlayView, samples: int = 48, seed: int = 0) -> dict[Card, float]:
    """Each legal card's value: the average point difference (mine - opponent's) over the rest of the play,
    or near the end of the game the chance of winning; over weighted hands the opponent could hold."""
    return search(view, samples, seed)[0]


def search(view: PlayView, samples: int = 48, seed: int = 0) -> tuple[dict[Card, float], float]:
    """`evaluate`'s values, and the evidence of this deal's plays for the ev rules (`opponent_holdings`)."""
    legal = view.legal()
    if not legal:
        raise AdviceError(AdviceRefusal(Unadvised.SAY_GO))
    rng = random.Random(seed)
    hands, evidence = opponent_holdings(view, samples, rng)
    pile = tuple(c.rank for c in view.pile)
    mine = tuple(sorted(c.rank for c in view.hand))
    count = view.count
    by_rank: dict[int, float] = {}
    if view.racing:
        table = chances(view.target)
        played = tuple(card.rank for _, card in view.opponent_moves if card is not None)
        races = [(_Race((view.need, view.opponent_need), _race_leaf(view, table, theirs, played), style), share)
                 for theirs, style, share in hands]
        for rank in sorted({c.rank for c in legal}):
            by_rank[rank] = sum(share * race.after((mine, theirs, pile, count, 0, 0), rank, (0, 0))
                                for (race, share), (theirs, _, _) in zip(races, hands, strict=True))
    else:
        for rank in sorted({c.rank for c in legal}):
            by_rank[rank] = sum(share * _after((mine, theirs, pile, count, 0, 0), rank, style)
                                for theirs, style, share in hands)
    return {card: by_rank[card.rank] for card in legal}, evidence


def _reply(view: PlayView, card: Card, hands: list[Holding]) -> float:
    """What the opponent pegs at once, on average, if `card` is played now."""
    pile = (*(c.rank for c in view.pile), card.rank)
    count = view.count + card.value
    mine = tuple(sorted(c.rank for c in view.hand if c != card))
    total = 0.0
    for theirs, style, share in hands:
        if count >= MAX_COUNT or not _fits(theirs, count):
            continue
        rank = _their_choice((mine, theirs, pile, count, 1, 0), style)
        if rank:
            total += share * _peg((*pile, rank), count + VALUES[rank])
    return total


def hint(view: PlayView, samples: int = 48, seed: int = 0) -> Hint:
    """The card to play and why, as reasons (`words.advice.hint_words` says them): what it does now, what it keeps
    back and what that is worth over the rest of the play (or, near the end, to the game)."""
    values = evaluate(view, samples, seed)
    pile = tuple(c.rank for c in view.pile)
    # a card that pegs out now wins for certain: it goes before any card that only wins later
    wins_now = {c for c in values if _peg((*pile, c.rank), view.count + c.value) >= view.need}
    card = max(values, key=lambda c: (c in wins_now, values[c], -c.index))
    count = view.count + card.value
    points = _peg((*pile, card.rank), count)
    reasons = []
    if card in wins_now:
        reasons.append(Reason(Because.WINS_NOW, count=count, points=points, need=view.need))
        others = sorted({c.rank: c for c in values if c.rank != card.rank}.values(), key=lambda c: -values[c])
        for other in others:
            if other in wins_now:
                reasons.append(Reason(Because.ALSO_WINS, other))
                continue
            pegged = _peg((*pile, other.rank), view.count + other.value)
            reasons.append(Reason(Because.LEAVES_GAME, other, points=pegged, share=values[other]))
        return Hint(card, points, values[card], tuple(reasons), values, view.racing)
    if points:
        reasons.append(Reason(Because.PEGS, count=count, points=points))
    elif not view.pile and card.value < 5:
        reasons.append(Reason(Because.LOW_LEAD))
    else:
        reasons.append(Reason(Because.LEAVES_COUNT, count=count))
    others = sorted({c.rank: c for c in values if c.rank != card.rank}.values(), key=lambda c: -values[c])
    if others:
        held = others[0]
        margin = values[card] - values[held]
        if margin < (0.005 if view.racing else 0.05):
            reasons.append(Reason(Because.AS_WELL, held))
            if view.racing:
                reasons.append(Reason(Because.WINS, share=values[card]))
        else:
            hands = opponent_holdings(view, samples, random.Random(seed))[0]
            risk = _reply(view, held, hands)
            if risk >= 0.3 and _reply(view, card, hands) < risk - 0.2:
                reasons.append(Reason(Because.RISK, held, count=view.count, share=risk))
            elif points > (instead := _peg((*(c.rank for c in view.pile), held.rank), view.count + held.value)):
                reasons.append(Reason(Because.OUTPEGS, held, card, count=view.count, points=points, other=instead))
            else:
                reasons.append(Reason(Because.KEEPS, held))
            if view.racing:
                reasons.append(Reason(Because.WINS_OVER, held, share=values[card], other_share=values[held]))
            else:
                reasons.append(Reason(Because.WORTH_MORE, held, share=margin))
    elif view.racing:
        reasons.append(Reason(Because.WINS, share=values[card]))
    if view.racing and view.opponent_need <= 15:
        reasons.append(Reason(Because.THEY_NEED, need=view.opponent_need, dealer=view.dealer))
    rival = ev_card(view)
    if rival.rank == card.rank:
        return Hint(card, points, values[card], tuple(reasons), values, view.racing)
    return Hint(card, points, values[card], tuple(reasons), values, view.racing, rival,
                _against_ev(view, card, rival, values))


def _against_ev(view: PlayView, card: Card, rival: Card, values: dict[Card, float]) -> tuple[Reason, Reason]:
    """Why not the card the expected-value rules play: what they see in it, and what the search finds."""
    pile = tuple(c.rank for c in view.pile)
    points = _peg((*pile, rival.rank), view.count + rival.value)
    if points:
        rule = Reason(Because.EV_PEGS, points=points)
    elif len(pile) == 1 and card.rank == pile[0]:
        rule = Reason(Because.EV_NO_PAIR)
    elif view.count + card.value in (5, 21):
        rule = Reason(Because.EV_OFF_COUNT, count=view.count + card.value)
    else:
        rule = Reason(Because.EV_LOWEST_CARD if pile else Because.EV_LOWEST_LEAD)
    found = (Reason(Because.EV_WINS, share=values[rival], other_share=values[card]) if view.racing
             else Reason(Because.EV_WORTH_LESS, share=values[card] - values[rival]))
    return rule, found
