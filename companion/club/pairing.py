"""Drawing the next round: a round-robin by the circle method, or a ladder from the night's standings."""

from __future__ import annotations

from collections.abc import Sequence

BYE = "(bye)"


def round_robin(players: Sequence[str], round_number: int) -> list[tuple[str, str]]:
    """The pairs of round `round_number` (from 1) of a round-robin in which everyone meets everyone once:
    the first player stays put and the others turn round them. An odd field gives one player a bye a round."""
    field = list(players) + ([BYE] if len(players) % 2 else [])
    if len(field) < 2:
        raise ValueError("a round needs at least two players")
    if len(set(field)) != len(field):
        raise ValueError("two players have the same name: give each a different name")
    rounds = len(field) - 1
    if not 1 <= round_number <= rounds:
        raise ValueError(f"{len(players)} players play {rounds} rounds: choose a round from 1 to {rounds}")
    turn = (round_number - 1) % rounds
    rest = field[1:]
    rest = rest[-turn:] + rest[:-turn] if turn else rest
    ring = [field[0], *rest]
    half = len(ring) // 2
    return [(ring[i], ring[-1 - i]) for i in range(half)]


def ladder(ranked: Sequence[str]) -> list[tuple[str, str]]:
    """Neighbours on the ladder play each other: first and second, third and fourth, and so on."""
    field = list(ranked) + ([BYE] if len(ranked) % 2 else [])
    return [(field[i], field[i + 1]) for i in range(0, len(field), 2)]


def at_tables(pairs: Sequence[tuple[str, str]], boards: Sequence[str]) -> list[tuple[str, str, str]]:
    """Which table plays whom: the pairs in board order; a bye needs no table."""
    playing = [p for p in pairs if BYE not in p]
    if len(playing) > len(boards):
        raise ValueError(f"{len(playing)} games need {len(playing)} boards, but {len(boards)} are named: "
                         "name more boards with --boards")
    return [(board, a, b) for board, (a, b) in zip(boards, playing, strict=False)]
