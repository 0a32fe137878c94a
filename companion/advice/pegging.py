"""The play (pegging): fast rank-level scoring, a perfect-information search, and the pegging hint.

Pegging depends on ranks only, so the search works on rank tuples. `peg_points` is checked against the
engine's `score_pegging` in the tests. The search plays out the rest of the play for both players (every
later pair, run, fifteen, thirty-one, go and last card) and returns the point difference; `hint` averages
that over hands the opponent could hold, drawn from the cards the player has not seen.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from companion.cribbage.cards import RANK_NAMES, RANK_WORDS, VALUES, Card
from companion.cribbage.errors import RuleError

Hands = tuple[tuple[int, ...], tuple[int, ...]]  # ranks held by player 0 (the one advised) and player 1
WIN = 100.0  # a game won or lost in the play outweighs any number of points


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


def sensible_value(pile: tuple[int, ...], count: int, rank: int) -> float:
    """Rules of thumb for playing `rank` on `pile` (ranks since the reset; `count` before the card), in points.

    The standard player plays by these, and the pro's search expects its opponent to.
    """
    pile = (*pile, rank)
    count += VALUES[rank]
    value = float(peg_points(pile, count))
    if count in (5, 21):
        value -= 1.5  # any ten-card makes 15 or 31
    if len(pile) == 1:
        value += 0.8 if VALUES[rank] < 5 else 0.0  # a low lead: nothing makes fifteen on it
        value -= 1.0 if rank == 5 else 0.0
    # Keep low cards for the end of a series, where they score the go.
    return value + VALUES[rank] * 0.02


@dataclass
class _Search:
    """Both hands known; scores the rest of the play from player 0's side (0 - 1 points)."""

    need: tuple[int, int] = (999, 999)  # points each player still needs to win the game
    sensible_opponent: bool = True  # player 1 plays by `sensible_value` (else as well as possible)
    memo: dict[tuple[object, ...], float] = field(default_factory=dict)

    def value(self, hands: Hands, pile: tuple[int, ...], count: int, turn: tuple[int, int],
              scored: tuple[int, int]) -> float:
        """`turn` is (who is to play, who played last)."""
        key = (hands, pile, count, turn, scored)
        known = self.memo.get(key)
        if known is not None:
            return known
        result = self._value(hands, pile, count, turn, scored)
        self.memo[key] = result
        return result

    def _value(self, hands: Hands, pile: tuple[int, ...], count: int, turn: tuple[int, int],
               scored: tuple[int, int]) -> float:
        mover, last = turn
        other = 1 - mover
        legal = sorted({r for r in hands[mover] if count + VALUES[r] <= 31})
        if not legal:
            if any(count + VALUES[r] <= 31 for r in hands[other]):
                return self.value(hands, pile, count, (other, last), scored)
            # Neither can play: go (or the last card) to the last player, unless 31 already paid.
            points = 1 if count != 31 and pile else 0
            scored = _add(scored, last, points)
            end = self._ended(scored)
            if end is not None:
                return end
            if not hands[0] and not hands[1]:
                return self._final(scored)
            leader = 1 - last if hands[1 - last] else last
            return self.value(hands, (), 0, (leader, last), scored)
        if mover == 1 and self.sensible_opponent:
            legal = [max(legal, key=lambda r: (sensible_value(pile, count, r), -r))]
        best = -1e9 if mover == 0 else 1e9
        for rank in legal:
            hand = list(hands[mover])
            hand.remove(rank)
            new_hands = (tuple(hand), hands[1]) if mover == 0 else (hands[0], tuple(hand))
            new_pile = (*pile, rank)
            new_count = count + VALUES[rank]
            after = _add(scored, mover, peg_points(new_pile, new_count))
            end = self._ended(after)
            if end is None:
                if new_count == 31:
                    if not new_hands[0] and not new_hands[1]:
                        end = self._final(after)
                    else:
                        leader = other if new_hands[other] else mover
                        end = self.value(new_hands, (), 0, (leader, mover), after)
                else:
                    end = self.value(new_hands, new_pile, new_count, (other, mover), after)
            best = max(best, end) if mover == 0 else min(best, end)
        return best

    def _ended(self, scored: tuple[int, int]) -> float | None:
        if scored[0] >= self.need[0]:
            return WIN
        if scored[1] >= self.need[1]:
            return -WIN
        return None

    def _final(self, scored: tuple[int, int]) -> float:
        return float(scored[0] - scored[1])


def _add(scored: tuple[int, int], player: int, points: int) -> tuple[int, int]:
    return (scored[0] + points, scored[1]) if player == 0 else (scored[0], scored[1] + points)


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

    @property
    def count(self) -> int:
        return sum(c.value for c in self.pile)

    def legal(self) -> tuple[Card, ...]:
        return tuple(c for c in self.hand if self.count + c.value <= 31)


@dataclass(frozen=True, slots=True)
class Hint:
    card: Card
    points: int  # pegged by the card at once
    expected: float  # average point difference over the rest of the play, with this card
    reason: str
    values: dict[Card, float]  # every legal card's average point difference, as `evaluate` gives them


def _opponent_hands(view: PlayView, samples: int, rng: random.Random) -> list[tuple[int, ...]]:
    ranks = [c.rank for c in view.unseen]
    if view.opponent_go:
        room = 31 - view.count
        ranks = [r for r in ranks if VALUES[r] > room]
    k = min(view.opponent_cards, len(ranks))
    return [tuple(sorted(rng.sample(ranks, k))) for _ in range(samples)]


def evaluate(view: PlayView, samples: int = 16, seed: int = 0, *, sensible_opponent: bool = True) -> dict[Card, float]:
    """The average point difference (mine - opponent's) over the rest of the play for each legal card.

    The opponent's hand is drawn `samples` times from the unseen cards; he is expected to play by the rules of
    thumb of `sensible_value`, or, with `sensible_opponent=False`, as well as possible knowing every card.
    """
    legal = view.legal()
    if not legal:
        raise RuleError("no card fits under 31: say go")
    rng = random.Random(seed)
    hands = _opponent_hands(view, samples, rng)
    pile = tuple(c.rank for c in view.pile)
    mine = tuple(sorted(c.rank for c in view.hand))
    search = _Search(need=(view.need, view.opponent_need), sensible_opponent=sensible_opponent)
    by_rank: dict[int, float] = {}
    for card in legal:
        if card.rank in by_rank:
            continue
        rest = list(mine)
        rest.remove(card.rank)
        new_pile = (*pile, card.rank)
        count = view.count + card.value
        now = peg_points(new_pile, count)
        total = 0.0
        for theirs in hands:
            scored = (now, 0)
            end = search._ended(scored)
            if end is not None:
                total += end
                continue
            if count == 31:
                leader = 1 if theirs else 0
                total += search.value((tuple(rest), theirs), (), 0, (leader, 0), scored)
            else:
                total += search.value((tuple(rest), theirs), new_pile, count, (1, 0), scored)
        by_rank[card.rank] = total / len(hands)
    return {card: by_rank[card.rank] for card in legal}


def hint(view: PlayView, samples: int = 16, seed: int = 0) -> Hint:
    """The card to play and why, in a player's words."""
    values = evaluate(view, samples, seed)
    card = max(values, key=lambda c: (values[c], -c.index))
    count = view.count + card.value
    points = peg_points((*(c.rank for c in view.pile), card.rank), count)
    reasons = []
    if points:
        reasons.append(f"it pegs {points} now")
    if count in (5, 21):
        reasons.append(f"it leaves {count}, which any ten-card makes {count + 10}")
    elif not view.pile and card.value < 5:
        reasons.append("a low lead: no card makes fifteen on it")
    if len(values) > 1:
        others = sorted((v for c, v in values.items() if c.rank != card.rank), reverse=True)
        if others:
            reasons.append(f"over the rest of the play it averages {values[card] - others[0]:+.1f} "
                           "against your next best card")
    if abs(values[card]) >= WIN / 2:
        reasons.append("it wins the game in the play" if values[card] > 0 else "every card loses the game")
    reason = "; ".join(reasons) if reasons else "it keeps your options open"
    name = RANK_WORDS[card.rank]
    return Hint(card, points, values[card], f"Play the {name} ({RANK_NAMES[card.rank]}): {reason}.", values)
