"""Simulated boards for the club tests: each plays a recorded self-play game into its own game log, as the
table does (GameLog.append, fsynced), and wakes its publisher after each input, as the daemon does."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from companion.advice.selfplay import play_game
from companion.club.publisher import Broker, Publisher
from companion.cribbage.game import replay
from companion.cribbage.transcript import parse_input
from companion.gamelog import GameLog, games_dir, next_log
from companion.words.projection import state_json


@cache
def recorded_game(seed: int, players: tuple[str, str] = ("A", "B")) -> tuple[dict[str, Any], ...]:
    """A whole game between two computer players, as table inputs, with the players' names given."""
    names = dict(zip(("A", "B"), players, strict=True))
    game = play_game(("easy", "easy"), seed % 2, f"club-{seed}", target=61, record=True).inputs
    return tuple(json.loads(json.dumps(inp), object_hook=lambda o: {
        k: ([names.get(x, x) for x in v] if k == "players" else names.get(v, v) if k in ("player", "dealer") else v)
        for k, v in o.items()}) for inp in game)


class SimBoard:
    def __init__(self, board: str, folder: Path, broker: Broker, club: str, *, seed: int,
                 players: tuple[str, str] = ("A", "B")) -> None:
        self.board, self.folder, self.seed = board, folder, seed
        self.inputs = [parse_input(obj) for obj in recorded_game(seed, players)]
        self.played = 0
        self.log = GameLog.open(next_log(folder))
        self.publisher = Publisher(broker, club, board, folder)
        self.publisher.start()

    def play(self, count: int | None = None) -> None:
        """Enter the next `count` inputs (all that are left by default)."""
        end = len(self.inputs) if count is None else min(len(self.inputs), self.played + count)
        for inp in self.inputs[self.played:end]:
            self.log.append(inp)
            self.publisher.wake()
        self.played = end

    @property
    def finished(self) -> bool:
        return self.played == len(self.inputs)

    def final(self) -> dict[str, Any]:
        """The board as the scoreboard should show it: its log, its last input and its game under `state`."""
        state = replay(self.log.inputs)
        return {"board": self.board, "log": self.log.path.stem, "seq": self.log.lines,
                "state": json.loads(json.dumps(state_json(state)))}

    def restart(self, broker: Broker, club: str) -> None:
        """The board's power is cut and it starts again: a new publisher over the same state directory."""
        self.publisher.close()
        self.log = GameLog.open(sorted(games_dir(self.folder).glob("*.jsonl"))[-1])
        self.publisher = Publisher(broker, club, self.board, self.folder)
        self.publisher.start()
