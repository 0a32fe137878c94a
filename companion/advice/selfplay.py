"""Complete two-player games between computer players, for strength figures and for the opponent model.

The loop follows RULES.md (deal, lay away, starter and his heels, the play with go and last card, the show in
order, the game ending the instant a player reaches the target) and can write each game as table inputs;
the tests replay those through the engine's `apply` and compare every score. Each game's cards and choices
come from a random generator seeded by (seed, game number), so a run is the same for a seed however it is
split between processes.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, fields, replace
from typing import NotRequired, TypeVar

from typing_extensions import TypedDict

from companion.cribbage.cards import DECK, Card
from companion.cribbage.game import MAX_COUNT, fitting
from companion.cribbage.rules import skunk_lines
from companion.cribbage.scoring import score_show

from .pegging import Move, PlayView, peg_points
from .players import Player, Seat, make


@dataclass
class Side:
    """One side's totals over a run of games."""

    level: str
    wins: int = 0
    skunks: int = 0  # games won with the loser below the skunk line (91 in a 121-point game)
    double_skunks: int = 0
    first_deals: int = 0  # games this side dealt first
    first_deal_wins: int = 0  # ... and won
    deals: int = 0  # deals started, the last one of a game cut short when someone reaches the target
    dealt: int = 0  # deals this side dealt (and so had the crib)
    pegging: int = 0
    pegging_dealer: int = 0  # the part of `pegging` pegged as dealer; the rest as pone
    hand: int = 0
    crib: int = 0
    hands_shown: int = 0  # hands and cribs counted: a game can end before the show of its last deal
    cribs_shown: int = 0
    heels: int = 0

    def add(self, other: Side) -> None:
        for f in fields(self):
            if f.name != "level":
                setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))


@dataclass
class Game:
    """One finished game: final scores, and its table inputs when recorded."""

    scores: list[int]
    winner: int
    sides: tuple[Side, Side]
    inputs: list[dict[str, object]] = field(default_factory=list)


NAMES = ("A", "B")
T = TypeVar("T")


class _Won(Exception):
    pass


@dataclass
class _Table:
    players: tuple[Player, Player]
    target: int
    record: bool
    sides: tuple[Side, Side]
    scores: list[int] = field(default_factory=lambda: [0, 0])
    inputs: list[dict[str, object]] = field(default_factory=list)
    dealer: int = 0

    def peg(self, player: int, points: int, kind: str) -> None:
        if not points:
            return
        self.scores[player] = min(self.target, self.scores[player] + points)
        setattr(self.sides[player], kind, getattr(self.sides[player], kind) + points)
        if kind == "pegging" and player == self.dealer:
            self.sides[player].pegging_dealer += points
        if self.scores[player] >= self.target:
            raise _Won

    def note(self, **entry: object) -> None:
        if self.record:
            self.inputs.append(entry)

    def deal(self, dealer: int, rng: random.Random) -> None:
        self.dealer, pone = dealer, 1 - dealer
        deck = list(DECK)
        rng.shuffle(deck)
        dealt = (deck[0:6], deck[6:12])
        kept: list[tuple[Card, ...]] = []
        crib: list[Card] = []
        for i in (0, 1):
            self.sides[i].deals += 1
            seat = Seat(i == dealer, self.scores[i], self.scores[1 - i], self.target)
            laid = self.players[i].discard(dealt[i], seat)
            self.note(type="hand", player=NAMES[i], cards=[str(c) for c in dealt[i]])
            self.note(type="discard", player=NAMES[i], cards=[str(c) for c in laid])
            kept.append(tuple(c for c in dealt[i] if c not in laid))
            crib.extend(laid)
        self.sides[dealer].dealt += 1
        starter = deck[12]
        self.note(type="starter", card=str(starter))
        if starter.rank == 11:
            self.peg(dealer, 2, "heels")
        self.play(kept, dealt, starter, dealer)
        self.sides[pone].hands_shown += 1
        self.peg(pone, score_show(kept[pone], starter).total, "hand")
        self.sides[dealer].hands_shown += 1
        self.peg(dealer, score_show(kept[dealer], starter).total, "hand")
        self.sides[dealer].cribs_shown += 1
        self.peg(dealer, score_show(crib, starter, crib=True).total, "crib")

    def play(self, kept: list[tuple[Card, ...]], dealt: tuple[list[Card], list[Card]], starter: Card,
             dealer: int) -> None:
        held = [list(kept[0]), list(kept[1])]
        played: list[list[Card]] = [[], []]
        pile: list[Card] = []
        mover = 1 - dealer
        last = mover
        said_go = [False, False]
        moves: list[list[Move]] = [[], []]  # each player's plays and goes, as the other saw them
        while held[0] or held[1]:
            count = sum(c.value for c in pile)
            if fitting(count, held[mover]):
                other = 1 - mover
                view = PlayView(
                    hand=tuple(held[mover]), pile=tuple(pile),
                    unseen=tuple(c for c in DECK if c not in dealt[mover] and c != starter
                                 and c not in played[other]),
                    opponent_cards=len(held[other]), opponent_go=said_go[other],
                    need=self.target - self.scores[mover], opponent_need=self.target - self.scores[other],
                    dealer=mover == dealer, starter=starter, kept=kept[mover],
                    opponent_moves=tuple(moves[other]), target=self.target,
                )
                card = self.players[mover].play(view)
                moves[mover].append((tuple(pile), card))
                held[mover].remove(card)
                played[mover].append(card)
                pile.append(card)
                count += card.value
                last = mover
                self.note(type="play", card=str(card))
                self.peg(mover, peg_points([c.rank for c in pile], count), "pegging")
                if count == MAX_COUNT:
                    pile, said_go = [], [False, False]
                    mover = other if held[other] else mover
                elif not held[0] and not held[1]:
                    self.peg(mover, 1, "pegging")  # last card
                else:
                    mover = other
                continue
            if held[mover] and not said_go[mover]:
                said_go[mover] = True
                moves[mover].append((tuple(pile), None))
                self.note(type="go")
            other = 1 - mover
            if fitting(count, held[other]):
                mover = other
                continue
            if held[other] and not said_go[other]:
                moves[other].append((tuple(pile), None))
                self.note(type="go")  # the other player holds cards too, and says go in turn
            self.peg(last, 1, "pegging")  # the go
            pile, said_go = [], [False, False]
            mover = 1 - last if held[1 - last] else last


def play_game(levels: tuple[str, str], first_dealer: int, seed: str, *, target: int = 121,
              record: bool = False, maker: Callable[[str, random.Random], Player] = make) -> Game:
    """One complete game between two levels; `seed` fixes the cards and every choice. `maker` makes a
    level's player (`crib bench` passes one that times each decision)."""
    rng = random.Random(seed)
    players = (maker(levels[0], random.Random(seed + ":a")), maker(levels[1], random.Random(seed + ":b")))
    table = _Table(players, target, record, (Side(levels[0]), Side(levels[1])))
    table.note(type="game", players=list(NAMES), dealer=NAMES[first_dealer], target=target)
    dealer = first_dealer
    try:
        while True:
            table.deal(dealer, rng)
            dealer = 1 - dealer
    except _Won:
        pass
    winner = 0 if table.scores[0] >= target else 1
    loser_score = table.scores[1 - winner]
    side = table.sides[winner]
    side.wins += 1
    table.sides[first_dealer].first_deals += 1
    if winner == first_dealer:
        table.sides[first_dealer].first_deal_wins += 1
    skunk_line, double_line = skunk_lines(target)
    side.skunks += int(loser_score < skunk_line)
    side.double_skunks += int(loser_score < double_line)
    return Game(table.scores, winner, table.sides, table.inputs)


def deal_points(level: str, deals: int, seed: int) -> list[tuple[int, int, int, int, int]]:
    """What each of `deals` deals brings between two players of `level` in a game that never ends: (the
    pone's pegging, the dealer's pegging with his heels, the pone's hand, the dealer's hand, the crib)."""
    rng = random.Random(seed)
    players = (make(level, random.Random(f"{seed}:a")), make(level, random.Random(f"{seed}:b")))
    table = _Table(players, 1 << 30, False, (Side(level), Side(level)))
    out = []
    for n in range(deals):
        dealer, pone = n % 2, 1 - n % 2
        before = [replace(side) for side in table.sides]
        table.deal(dealer, rng)
        got = [{f.name: getattr(table.sides[i], f.name) - getattr(before[i], f.name) for f in fields(Side)
                if f.name != "level"} for i in (0, 1)]
        out.append((got[pone]["pegging"], got[dealer]["pegging"] + got[dealer]["heels"], got[pone]["hand"],
                    got[dealer]["hand"], got[dealer]["crib"]))
    return out


def deal_pair(levels: tuple[str, str], seed: str) -> int:
    """One deal dealt twice, the first level holding each side's cards in turn (the dealer's, then the pone's):
    its points minus the second level's over both. The cards' luck cancels, so a change of strength shows in
    far fewer deals than in games."""
    net = 0
    for seat in (0, 1):
        makers = [levels[1], levels[1]]
        makers[seat] = levels[0]
        players = (make(makers[0], random.Random(f"{seed}:{makers[0]}")),
                   make(makers[1], random.Random(f"{seed}:{makers[1]}")))
        table = _Table(players, 1 << 30, False, (Side(makers[0]), Side(makers[1])))
        table.deal(0, random.Random(seed))
        net += table.scores[seat] - table.scores[1 - seat]
    return net


def _pair(args: tuple[str, str, int, int]) -> int:
    a, b, seed, n = args
    return deal_pair((a, b), f"{seed}:{n}")


def duplicate(a: str, b: str, pairs: int, seed: int, *, jobs: int = 1,
              progress: Callable[[int], None] | None = None) -> list[int]:
    """`pairs` deal pairs (`deal_pair`): level a's net points over level b in each."""
    return _map(_pair, [(a, b, seed, n) for n in range(pairs)], jobs, progress)


def _map(function: Callable[[tuple[str, str, int, int]], T], work: list[tuple[str, str, int, int]], jobs: int,
         progress: Callable[[int], None] | None) -> list[T]:
    """`function` over `work` in order, in `jobs` processes, telling `progress` how many are done."""
    results: Iterable[T]
    if jobs > 1:
        pool = ProcessPoolExecutor(jobs)
        results = pool.map(function, work, chunksize=4)
    else:
        pool = None
        results = map(function, work)
    out = []
    try:
        for n, result in enumerate(results, 1):
            out.append(result)
            if progress is not None:
                progress(n)
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)
    return out


def _game(args: tuple[str, str, int, int]) -> Game:
    a, b, seed, n = args
    # Alternate the first dealer; each game its own seed, so the results do not depend on the workers.
    return play_game((a, b), n % 2, f"{seed}:{n}")


def run(a: str, b: str, games: int, seed: int, *, jobs: int = 1,
        progress: Callable[[int], None] | None = None) -> tuple[Side, Side]:
    """Play `games` games and return both sides' totals."""
    totals = (Side(a), Side(b))
    for game in _map(_game, [(a, b, seed, n) for n in range(games)], jobs, progress):
        totals[0].add(game.sides[0])
        totals[1].add(game.sides[1])
    return totals


def wilson(wins: int, games: int, z: float = 1.959964) -> tuple[float, float]:
    """The 95% confidence interval of a win rate (Wilson score interval)."""
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return (centre - half, centre + half)


def _per(points: int, deals: int) -> float:
    return round(points / deals, 3) if deals else 0.0


class PerDealJSON(TypedDict):
    pegging: float
    pegging_as_dealer: float
    pegging_as_pone: float
    hand: float
    crib: float
    heels: float


class PerShowJSON(TypedDict):
    hand: float
    crib: float


class SideFiguresJSON(TypedDict):
    level: str
    wins: int
    win_rate: float
    win_rate_95ci: list[float]
    skunks: int
    double_skunks: int
    per_deal: PerDealJSON
    per_show: PerShowJSON
    deals: int
    first_deals: int
    first_deal_wins: int


class TableFiguresJSON(TypedDict):
    deals: int
    deals_per_game: float
    first_dealer_wins: int
    first_dealer_win_rate: float
    first_dealer_win_rate_95ci: list[float]
    per_deal: PerDealJSON
    per_show: PerShowJSON  # over the shows counted, leaving out those a game ended before


class SelfplayJSON(TypedDict):
    """`crib selfplay --json`: each side's figures, and the table's."""

    games: int
    seed: int
    a: SideFiguresJSON
    b: SideFiguresJSON
    table: TableFiguresJSON
    seconds: NotRequired[float]  # how long the games took


def _side_figures(side: Side, games: int) -> SideFiguresJSON:
    low, high = wilson(side.wins, games)
    return {
        "level": side.level,
        "wins": side.wins,
        "win_rate": round(side.wins / games, 4) if games else 0.0,
        "win_rate_95ci": [round(low, 4), round(high, 4)],
        "skunks": side.skunks,
        "double_skunks": side.double_skunks,
        "per_deal": {
            "pegging": _per(side.pegging, side.deals),
            "pegging_as_dealer": _per(side.pegging_dealer, side.dealt),
            "pegging_as_pone": _per(side.pegging - side.pegging_dealer, side.deals - side.dealt),
            "hand": _per(side.hand, side.deals),
            "crib": _per(side.crib, side.dealt),  # per crib owned
            "heels": _per(side.heels, side.dealt),
        },
        "per_show": {"hand": _per(side.hand, side.hands_shown), "crib": _per(side.crib, side.cribs_shown)},
        "deals": side.deals,
        "first_deals": side.first_deals,
        "first_deal_wins": side.first_deal_wins,
    }


def report(sides: tuple[Side, Side], seed: int) -> SelfplayJSON:
    games = sides[0].wins + sides[1].wins
    # The table as a whole: each deal has one dealer and one pone, so the two pegging figures add up to the
    # points both players peg in a deal; the hand is per hand (two a deal), the crib per deal.
    deals = sides[0].deals
    dealer_pegging = sides[0].pegging_dealer + sides[1].pegging_dealer
    first_wins = sides[0].first_deal_wins + sides[1].first_deal_wins
    low, high = wilson(first_wins, games)
    table: TableFiguresJSON = {
        "deals": deals,
        "deals_per_game": round(deals / games, 3) if games else 0.0,
        "first_dealer_wins": first_wins,
        "first_dealer_win_rate": round(first_wins / games, 4) if games else 0.0,
        "first_dealer_win_rate_95ci": [round(low, 4), round(high, 4)],
        "per_deal": {
            "pegging": _per(sides[0].pegging + sides[1].pegging, deals),
            "pegging_as_dealer": _per(dealer_pegging, deals),
            "pegging_as_pone": _per(sides[0].pegging + sides[1].pegging - dealer_pegging, deals),
            "hand": _per(sides[0].hand + sides[1].hand, 2 * deals),
            "crib": _per(sides[0].crib + sides[1].crib, deals),
            "heels": _per(sides[0].heels + sides[1].heels, deals),
        },
        "per_show": {
            "hand": _per(sides[0].hand + sides[1].hand, sides[0].hands_shown + sides[1].hands_shown),
            "crib": _per(sides[0].crib + sides[1].crib, sides[0].cribs_shown + sides[1].cribs_shown),
        },
    }
    return {"games": games, "seed": seed, "a": _side_figures(sides[0], games), "b": _side_figures(sides[1], games),
            "table": table}
