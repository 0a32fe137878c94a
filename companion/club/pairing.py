"""Drawing a round: the ACC movement, a round-robin by the circle method, or a ladder from the night's standings;
and seating its pairs at the boards."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from companion.club.payloads import SeatJSON
from companion.club.refused import Refused
from companion.words.club import Why

BYE = "(bye)"
LONGEST_NAME = 80  # characters of a player's name


def ladder(ranked: Sequence[str]) -> list[tuple[str, str]]:
    """Neighbours on the ladder play each other: first and second, third and fourth, and so on."""
    field = list(ranked) + ([BYE] if len(ranked) % 2 else [])
    return [(field[i], field[i + 1]) for i in range(0, len(field), 2)]


def acc_movement(players: Sequence[str], round_number: int, move: int = 1) -> list[tuple[str, str]]:
    """The pairs of round `round_number` (from 1), table by table: the first half of the field sits at tables
    1..T all night, the second half moves `move` tables up each round (from the last table back to the first).
    An odd field seats the bye at the last staying table, so every staying player keeps their table (and
    board) all night and the moving players take the bye in turn. Nobody meets anyone twice while the moving
    side has not come round: T / gcd(T, move) rounds."""
    checked = _field(players)
    tables = len(checked) // 2
    if not 1 <= move <= max(1, tables - 1) and tables > 1:
        raise Refused(Why.MOVE, move=move, most=tables - 1)
    rounds = tables // math.gcd(tables, move)
    if not 1 <= round_number <= rounds:
        raise Refused(Why.ROUND_RANGE, movement="acc", players=len(players), tables=tables, move=move,
                      rounds=rounds)
    odd = len(players) % 2
    staying = [*players[:tables - odd], *([BYE] if odd else [])]
    moving = list(players[tables - odd:])
    shift = (round_number - 1) * move
    return [(staying[t], moving[(t - shift) % tables]) for t in range(tables)]


def round_robin(players: Sequence[str], round_number: int) -> list[tuple[str, str]]:
    """The pairs of round `round_number` (from 1) of a round-robin in which everyone meets everyone once:
    the first player stays put and the others turn round them. An odd field gives one player a bye a round."""
    field = _field(players)
    rounds = len(field) - 1
    if not 1 <= round_number <= rounds:
        raise Refused(Why.ROUND_RANGE, movement="round-robin", players=len(players), rounds=rounds)
    turn = (round_number - 1) % rounds
    rest = field[1:]
    rest = rest[-turn:] + rest[:-turn] if turn else rest
    ring = [field[0], *rest]
    half = len(ring) // 2
    return [(ring[i], ring[-1 - i]) for i in range(half)]


def _field(players: Sequence[str]) -> list[str]:
    field = list(players) + ([BYE] if len(players) % 2 else [])
    if len(field) < 2:
        raise Refused(Why.FEW_PLAYERS)
    if len(set(field)) != len(field):
        raise Refused(Why.SAME_NAME)
    if any(not p or len(p) > LONGEST_NAME for p in players):
        raise Refused(Why.NAME_LENGTH, most=LONGEST_NAME)
    return field


@dataclass(frozen=True, slots=True)
class Seat:
    """A table of a round: its number (from 1), its board and its two players."""

    table: int
    board: str
    players: tuple[str, str]

    def to_json(self) -> SeatJSON:
        return {"table": self.table, "board": self.board, "players": list(self.players)}


def seat(pairs: Sequence[tuple[str, str]], boards: Sequence[str]) -> tuple[list[Seat], list[str]]:
    """The pairs at the boards, table k at the k-th board, and who has a bye. With a board for every pair a
    pair keeps its table (the ACC movement's staying side keeps its seat; the bye's table stands empty);
    with one board fewer the games fill the boards in order."""
    playing = [p for p in pairs if BYE not in p]
    byes = [a if b == BYE else b for a, b in pairs if BYE in (a, b)]
    if len(playing) > len(boards):
        raise Refused(Why.FEW_BOARDS, games=len(playing), boards=len(boards))
    if len(set(boards)) != len(boards):
        raise Refused(Why.BOARD_TWICE)
    placed = list(enumerate(pairs)) if len(boards) >= len(pairs) else list(enumerate(playing))
    return [Seat(k + 1, boards[k], pair) for k, pair in placed if BYE not in pair], byes
