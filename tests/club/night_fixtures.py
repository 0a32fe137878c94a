"""A tournament night for the tests: the scoreboard in a thread (the same serve() `crib club` runs) and boards
that play whole games to 121 between the players seated at them, each into its own game log, waking its
publisher after each input as the daemon does."""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import urllib.request
from pathlib import Path
from typing import Any

from companion.advice.selfplay import play_game
from companion.club.mosquitto import Mosquitto, free_port, wait_for
from companion.club.night import Night
from companion.club.publisher import Broker, Publisher
from companion.club.scoreboard import serve
from companion.club.tournament import Scoring
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
    def __init__(self, board: str, folder: Path, broker: Broker, club: str) -> None:
        self.board, self.folder = board, folder
        folder.mkdir(parents=True, exist_ok=True)
        self.publisher = Publisher(broker, club, board, folder)
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


class Scoreboard:
    def __init__(self, broker: Mosquitto, club: str, folder: Path, scoring: Scoring) -> None:
        self.port, self.folder = free_port(), folder
        self.night = Night(folder / "night.sqlite", scoring)
        self.loop = asyncio.new_event_loop()
        started = asyncio.Event()
        self.task = self.loop.create_task(serve(broker.broker("scoreboard"), club, self.night, host="127.0.0.1",
                                                port=self.port, started=started))
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        wait_for(started.is_set, "the scoreboard to start")

    def _run(self) -> None:
        with contextlib.suppress(asyncio.CancelledError):
            self.loop.run_until_complete(self.task)

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.task.cancel)
        self.thread.join(timeout=10)
        self.loop.close()
        self.night.close()

    def text(self, path: str) -> str:
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}{path}", timeout=5) as response:
            return str(response.read().decode("utf-8"))

    def get(self, path: str) -> Any:
        return json.loads(self.text(path))
