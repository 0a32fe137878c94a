"""A tournament's arithmetic: ACC qualifying scoring, seating by the ACC movement, scorecards and the playoffs.

Pure functions over finished games (`Game`): the night (night.py) keeps the games and the seats in SQLite and
asks these what the standings, a player's card and the bracket are. The American Cribbage Congress scores a
qualifying game 2 game points for a win, 3 for a win by a skunk (the loser short of the first skunk line, 91
in a game to 121; a double skunk earns nothing more) and 0 for a loss; spread is the points a player won by
less the points they lost by. A bye is a win of 2 game points with no spread.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from companion.club.payloads import CardLineJSON, MatchJSON, StandingJSON
from companion.club.refused import Refused
from companion.cribbage.facts import Side
from companion.words.club import Why
from companion.words.phrases import listed, side_name

SCORINGS = ("match", "acc")
WIN, SKUNK_WIN, BYE_POINTS = 2, 3, 2


@dataclass(frozen=True, slots=True)
class Scoring:
    """How the night ranks: "match" (the match points of each game's rules) or "acc" (game points)."""

    name: str = "match"
    skunks_before_spread: bool = False

    def __post_init__(self) -> None:
        if self.name not in SCORINGS:
            raise Refused(Why.SCORING, name=self.name, choices=list(SCORINGS))


@dataclass(frozen=True, slots=True)
class Game:
    """One finished game: each side's players and score, the winner's index, the skunk ("skunk", "double
    skunk" or None), the match points the game's rules gave the winner, and where and when it was played."""

    sides: tuple[tuple[str, ...], ...]
    scores: tuple[int, ...]
    winner: int
    skunk: str | None
    target: int
    match_points: int
    board: str = ""
    round: int | None = None
    at: float = 0.0
    stage: str = "qualifying"  # or "playoffs"

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(p for side in self.sides for p in side)

    def side_of(self, player: str) -> int:
        return next(i for i, side in enumerate(self.sides) if player in side)

    def margin(self, side: int) -> int:
        """The points `side` won by (positive) or lost by (negative): a loser by the winner's score less its
        own; the winner by its score less the best losing score."""
        top = min(self.scores[self.winner], self.target)
        if side == self.winner:
            return top - max(s for i, s in enumerate(self.scores) if i != side)
        return self.scores[side] - top

    def game_points(self, side: int) -> int:
        return (SKUNK_WIN if self.skunk else WIN) if side == self.winner else 0

    def opponents(self, player: str) -> str:
        """Who `player` played, as the table names them: "Bob", "Bob & Dan", or "Bob and Cat" in a three."""
        mine = self.side_of(player)
        return listed([side_name(Side(side)) for i, side in enumerate(self.sides) if i != mine])


@dataclass(slots=True)
class Standing:
    player: str
    games: int = 0
    wins: int = 0
    skunks: int = 0  # games won by a skunk or a double skunk
    skunked: int = 0  # games lost by one
    match_points: int = 0
    points: int = 0  # game points (ACC) or match points, as the night scores
    spread: int = 0
    byes: int = 0
    rank: int = 0

    def to_json(self) -> StandingJSON:
        return {"player": self.player, "points": self.points, "wins": self.wins, "games": self.games,
                "spread": self.spread, "skunks": self.skunks, "rank": self.rank, "skunked": self.skunked,
                "match_points": self.match_points, "byes": self.byes}


def standings(games: Iterable[Game], scoring: Scoring, byes: Iterable[str] = (),
              entrants: Iterable[str] = ()) -> list[Standing]:
    """Every player's qualifying so far, ranked: by points, then wins, then spread (or skunks, then spread);
    players equal on all of them share a rank."""
    rows: dict[str, Standing] = {p: Standing(p) for p in entrants}
    for game in games:
        for player in game.players:
            row = rows.setdefault(player, Standing(player))
            side = game.side_of(player)
            row.games += 1
            row.spread += game.margin(side)
            if side == game.winner:
                row.wins += 1
                row.skunks += game.skunk is not None
                row.match_points += game.match_points
            else:
                row.skunked += game.skunk is not None
            row.points += game.game_points(side) if scoring.name == "acc" else 0
    for player in byes:
        row = rows.setdefault(player, Standing(player))
        row.byes += 1
        row.wins += 1
        row.points += BYE_POINTS if scoring.name == "acc" else 0
    for row in rows.values():
        if scoring.name == "match":
            row.points = row.match_points
    table = sorted(rows.values(), key=lambda s: (_order(s, scoring), s.player))
    for i, row in enumerate(table):
        row.rank = table[i - 1].rank if i and _order(table[i - 1], scoring) == _order(row, scoring) else i + 1
    return table


def _order(row: Standing, scoring: Scoring) -> tuple[int, ...]:
    if scoring.skunks_before_spread:
        return -row.points, -row.wins, -row.skunks, -row.spread
    return -row.points, -row.wins, -row.spread, -row.skunks


# --- scorecards -----------------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class CardLine:
    round: int | None
    board: str
    opponent: str | None  # None: a bye
    won: bool
    scores: tuple[int, int]  # the player's side's score, then the best opposing score
    points: int
    spread: int
    total: int  # points so far
    total_spread: int

    def to_json(self) -> CardLineJSON:
        return {"round": self.round, "board": self.board, "opponent": self.opponent, "won": self.won,
                "score": self.scores[0], "against": self.scores[1], "points": self.points, "spread": self.spread,
                "total": self.total, "total_spread": self.total_spread}


def scorecard(player: str, games: Iterable[Game], scoring: Scoring,
              byes: Iterable[int | None] = ()) -> list[CardLine]:
    """A player's card, game by game in the order played (rounds first, byes in their round): opponent, won
    or lost, the points it earned, its spread, and the running totals."""
    entries: list[tuple[float, float, Game | None, int | None]] = [
        (g.round if g.round is not None else math.inf, g.at, g, g.round) for g in games if player in g.players]
    entries += [(r if r is not None else math.inf, 0.0, None, r) for r in byes]
    lines: list[CardLine] = []
    total = spread = 0
    for _, _, game, round_number in sorted(entries, key=lambda e: e[:2]):
        if game is None:
            total += BYE_POINTS if scoring.name == "acc" else 0
            lines.append(CardLine(round_number, "", None, True, (0, 0), BYE_POINTS if scoring.name == "acc" else 0,
                                  0, total, spread))
            continue
        side = game.side_of(player)
        points = game.game_points(side) if scoring.name == "acc" else (
            game.match_points if side == game.winner else 0)
        margin = game.margin(side)
        total, spread = total + points, spread + margin
        best_other = max(s for i, s in enumerate(game.scores) if i != side)
        lines.append(CardLine(round_number, game.board, game.opponents(player), side == game.winner,
                              (game.scores[side], best_other), points, margin, total, spread))
    return lines


# --- playoffs -------------------------------------------------------------------------------------------------

def qualifiers(field: int) -> int:
    """The top quarter, rounded up (at least two)."""
    return min(field, max(2, math.ceil(field / 4)))


def seed_order(size: int) -> list[int]:
    """The seeds in bracket order, so that 1 and 2 can meet only in the final: 8 -> 1 8 4 5 2 7 3 6."""
    order = [1]
    while len(order) < size:
        order = [s for seed in order for s in (seed, 2 * len(order) + 1 - seed)]
    return order


@dataclass(slots=True)
class Match:
    seeds: tuple[int | None, int | None]
    players: tuple[str | None, str | None]
    wins: list[int] = field(default_factory=lambda: [0, 0])
    winner: str | None = None
    board: str = ""

    def to_json(self) -> MatchJSON:
        return {"seeds": list(self.seeds), "players": list(self.players), "wins": self.wins,
                "winner": self.winner, "board": self.board}


def bracket(seeds: Sequence[str], best_of: int, games: Iterable[Game]) -> list[list[Match]]:
    """Single elimination of the seeded players (seed 1 first), byes to the top seeds so the second round is
    a full bracket; each match is won by the first to win best_of // 2 + 1 of the games its two players
    finish (in the order finished), so the bracket fills as the boards' matches end. Rounds, first to final."""
    if best_of not in (1, 3, 5, 7):
        raise Refused(Why.BEST_OF, best_of=best_of)
    need = best_of // 2 + 1
    size = 1 << max(1, math.ceil(math.log2(max(2, len(seeds)))))
    order = seed_order(size)
    played = sorted(games, key=lambda g: g.at)
    entrants: list[tuple[int | None, str | None]] = [
        (s, seeds[s - 1]) if s <= len(seeds) else (None, None) for s in order]
    rounds: list[list[Match]] = []
    while len(entrants) > 1:
        matches = []
        for (seed_a, a), (seed_b, b) in zip(entrants[::2], entrants[1::2], strict=True):
            match = Match((seed_a, seed_b), (a, b))
            if a is not None and b is None and seed_b is None and not rounds:
                match.winner = a  # a bye
            elif a is not None and b is not None:
                for game in played:
                    if match.winner is None and {a, b} == set(game.players) and len(game.sides) == 2:
                        won = game.sides[game.winner][0]
                        match.wins[0 if won == a else 1] += 1
                        match.board = game.board
                        if max(match.wins) == need:
                            match.winner = won
            matches.append(match)
        rounds.append(matches)
        entrants = [((m.seeds[m.players.index(m.winner)] if m.winner else None), m.winner) for m in matches]
    return rounds
