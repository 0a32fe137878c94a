"""A tournament night for the tests: the scoreboard in a thread (the same serve() `crib club` runs) and boards
that play whole games to 121 between the players seated at them, each into its own game log, waking its
publisher after each input as the daemon does."""

from __future__ import annotations

import json
from pathlib import Path

from companion.advice.selfplay import play_game
from companion.club.publisher import Broker, Publisher
from companion.cribbage.game import GameState, replay
from companion.cribbage.transcript import Input, parse_input
from companion.gamelog import GameLog, next_log


def whole_game(seed: int, players: tuple[str, str]) -> list[Input]:
    """A game to 121 between two computer players, as table inputs, with the seated players' names."""
    names = dict(zip(("A", "B"), players, strict=True))
    inputs = play_game(("easy", "easy"), seed % 2, f"night-{seed}", target=121, record=True).inputs
    return [parse_input(json.loads(json.dumps(inp), object_hook=lambda o: {
        k: ([names.get(x, x) for x in v] if k == "players" else names.get(v, v) if k in ("player", "dealer") else v)
        for k, v in o.items()})) for inp in inputs]


class Board:
    def __init__(self, board: str, folder: Path, broker: Broker, club: str, signing_key: bytes | None = None) -> None:
        self.board, self.folder = board, folder
        folder.mkdir(parents=True, exist_ok=True)
        self.publisher = Publisher(broker, club, board, folder, signing_key=signing_key)
        self.publisher.start()
        self.log: GameLog | None = None

    def play_game(self, seed: int, players: tuple[str, str]) -> GameState:
        """A whole game in a new game log; the board's own final state."""
        self.log = GameLog.open(next_log(self.folder))
        for inp in whole_game(seed, players):
            self.log.append(inp)
            self.publisher.wake()
        return replay(self.log.inputs)

    def close(self) -> None:
        self.publisher.close()
