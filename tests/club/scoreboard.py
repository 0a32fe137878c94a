"""The club night's scoreboard for the tests: `crib club` in a thread on a free port, and the boards it follows."""

from __future__ import annotations

import asyncio
import json
import threading
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from companion.club.mosquitto import WAIT, Mosquitto, free_port, wait_for
from companion.club.night import Night
from companion.club.scoreboard import serve
from companion.club.tournament import Scoring
from tests.club.boards import SimBoard

CLUB = "thursday"
BOARDS = ["t1", "t2", "t3"]
PLAYERS = [("Ann", "Bob"), ("Cat", "Dan"), ("Eve", "Fay")]


class Scoreboard:
    """`crib club` in a thread: the same serve() the command runs, on a free port."""

    def __init__(self, broker: Mosquitto, folder: Path, *, club: str = CLUB, scoring: Scoring | None = None,
                 director: str = "", secret: bytes | None = None) -> None:
        self.port, self.folder, self.broker, self.club, self.scoring = free_port(), folder, broker, club, scoring
        self.director, self.secret = director, secret
        for _attempt in range(5):  # a free port another program took before the scoreboard bound it: another
            if self.start():
                return
            self.port = free_port()
        raise RuntimeError(f"the scoreboard cannot start: {self.failed}")

    def start(self) -> bool:
        """Serve on `port` in a thread, once it listens (False when it cannot: `failed` says why)."""
        self.night = Night(self.folder / "night.sqlite", self.scoring)
        self.loop = asyncio.new_event_loop()
        self.failed: BaseException | None = None
        started = asyncio.Event()
        self.task = self.loop.create_task(serve(self.broker.broker("scoreboard"), self.club, self.night,
                                                host="127.0.0.1", port=self.port, started=started,
                                                director=self.director, secret=self.secret))
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        wait_for(lambda: started.is_set() or not self.thread.is_alive(), "the scoreboard to start")
        if not started.is_set():
            self.loop.close()
            self.night.close()
        return started.is_set()

    def _run(self) -> None:
        try:
            self.loop.run_until_complete(self.task)
        except asyncio.CancelledError:
            pass
        except OSError as error:  # its port taken: said by start(), not as a thread's traceback
            self.failed = error

    def stop(self) -> None:
        """Stop serving; the thread has ended when this returns."""
        self.loop.call_soon_threadsafe(self.task.cancel)
        self.thread.join(timeout=WAIT)
        assert not self.thread.is_alive(), "the scoreboard did not stop"
        self.loop.close()
        self.night.close()

    def text(self, path: str) -> str:
        """GET `path` (a busy machine may take seconds to answer: as long as a broker's message may take)."""
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}{path}", timeout=WAIT) as response:
            return str(response.read().decode("utf-8"))

    def get(self, path: str) -> Any:
        return json.loads(self.text(path))

    def post(self, path: str, body: dict[str, Any], token: str, lang: str = "en") -> tuple[int, Any]:
        """POST JSON with the director's token, from a client asking for `lang`: the status and the answer."""
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", data=json.dumps(body).encode(),
                                         headers={"Authorization": f"Bearer {token}", "Accept-Language": lang},
                                         method="POST")
        try:
            with urllib.request.urlopen(request, timeout=WAIT) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())

    def tables(self) -> dict[str, dict]:
        return {t["board"]: t for t in self.get("/api/tables")}


def shows_final(scoreboard: Scoreboard, boards: list[SimBoard]) -> bool:
    tables = scoreboard.tables()
    return all({k: tables.get(b.board, {}).get(k) for k in ("board", "log", "seq", "state")} == b.final()
               for b in boards)
