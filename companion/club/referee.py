"""Does a board's finished game follow the rules? Its inputs replayed through the engine must reach the state
the board claims.

A board publishes every accepted input (with the state after it) and, retained, its latest state. The state
is only the board's word; the inputs are the game. So the scoreboard keeps each event's input, and before a
finished game counts it folds the game log's inputs from the first to the one the claim stands at, exactly as
`crib replay` does, and compares what the engine says with what the board said: the sides and their players,
each side's score and match points, the winner, the skunk, the game's number and that it is over. The game is
recorded from the replayed state (a skunk is the engine's, not the board's). A claim that does not follow is a
`Problem` with a code and its facts; the page words it. The night folds each board's inputs as they arrive
(`step`), so a game that ends in order is judged without replaying it again.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Literal

from companion.club.payloads import DetailJSON
from companion.cribbage.errors import CribbageError
from companion.cribbage.facts import Phase
from companion.cribbage.game import GameState, apply, initial_state
from companion.cribbage.transcript import parse_input
from companion.words.contract import SideJSON, StateJSON
from companion.words.projection import state_json

COMPARED = ("players", "winner", "skunk", "game", "phase")


@dataclass(frozen=True, slots=True)
class Problem:
    """Why a claimed finished game does not count: `code` is one of "missing" (inputs the scoreboard has not
    heard: `have`, `need`), "refused" (the engine refuses input `seq`), "not_over" (the inputs do not end the
    game) or "differs" (`what` the board claimed against what the inputs give)."""

    code: Literal["missing", "refused", "not_over", "differs"]
    facts: DetailJSON

    def to_json(self) -> DetailJSON:
        return {**self.facts, "code": self.code}


def referee(inputs: Iterable[tuple[int, Mapping[str, object]]], seq: int, claimed: StateJSON) -> StateJSON | Problem:
    """The replayed state (the projection's JSON) when the inputs numbered up to `seq` reach `claimed`, else the
    Problem. `inputs` are (sequence number, input as logged); a log with a header numbers its first input 2."""
    upto = sorted((n, inp) for n, inp in inputs if n <= seq)
    first = upto[0][0] if upto else 1
    numbers = [n for n, _ in upto]
    if first not in (1, 2) or numbers != list(range(first, seq + 1)):
        return Problem("missing", {"have": len(upto), "need": seq - (first if first in (1, 2) else 1) + 1})
    state = initial_state()
    for n, obj in upto:
        folded = step(state, obj)
        if folded is None:
            return Problem("refused", {"seq": n})
        state = folded
    return judge(state, claimed)


def step(state: GameState, obj: Mapping[str, object]) -> GameState | None:
    """The state after one logged input, as `crib replay` folds it (an undo takes back the last input); None
    when the engine refuses it."""
    try:
        return apply(state, parse_input(obj))
    except CribbageError:
        return None


def judge(state: GameState, claimed: StateJSON) -> StateJSON | Problem:
    """The state's projection when it is the finished game `claimed` says, else the Problem."""
    replayed = state_json(state)
    if state.phase not in (Phase.GAME_OVER, Phase.MATCH_OVER):
        return Problem("not_over", {"scores": _scores(replayed)})
    mine: Mapping[str, object] = replayed
    theirs: Mapping[str, object] = claimed
    for key in COMPARED:
        if mine[key] != theirs[key]:
            return Problem("differs", {"what": key, "claimed": theirs[key], "replayed": mine[key]})
    if [_counted(side) for side in replayed["sides"]] != [_counted(side) for side in claimed["sides"]]:
        return Problem("differs", {"what": "scores", "claimed": _scores(claimed), "replayed": _scores(replayed)})
    if replayed["rules"]["target"] != claimed["rules"]["target"]:
        return Problem("differs", {"what": "target", "claimed": claimed["rules"]["target"],
                                   "replayed": replayed["rules"]["target"]})
    return replayed


def _counted(side: SideJSON) -> tuple[list[str], int, int]:
    return side["players"], side["score"], side["match_points"]


def _scores(state: StateJSON) -> list[int]:
    return [side["score"] for side in state["sides"]]
