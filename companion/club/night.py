"""The club's night: every table's latest state and every finished game, kept in SQLite.

`receive` takes checked messages in any order and any number of times: an event counts once (its board,
log and sequence number are its key), a table shows the latest position it has heard of, and a game counts
in the standings once it is over (and no longer if an undo reopens it). After a restart the night is read
back from its database, and the broker's retained states bring each table up to date.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
import time
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.club.protocol import Message
from companion.cribbage.rules import MATCH_SCORING

log = logging.getLogger(__name__)

SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    board TEXT NOT NULL, log TEXT NOT NULL, seq INTEGER NOT NULL, at REAL NOT NULL, received REAL NOT NULL,
    state TEXT NOT NULL, PRIMARY KEY (board, log, seq));
CREATE TABLE IF NOT EXISTS tables (
    board TEXT PRIMARY KEY, log TEXT NOT NULL, seq INTEGER NOT NULL, state TEXT NOT NULL, online INTEGER);
CREATE TABLE IF NOT EXISTS games (
    board TEXT NOT NULL, log TEXT NOT NULL, game INTEGER NOT NULL, players TEXT NOT NULL, sides TEXT NOT NULL,
    scores TEXT NOT NULL, winner INTEGER NOT NULL, skunk TEXT, match_points INTEGER NOT NULL, target INTEGER NOT NULL,
    PRIMARY KEY (board, log, game));
CREATE TABLE IF NOT EXISTS pairings (
    round INTEGER NOT NULL, board TEXT NOT NULL, first TEXT NOT NULL, second TEXT NOT NULL,
    PRIMARY KEY (round, board));
"""
OVER = ("game over", "match over")
VERSION = 2  # the database's form: the games' sides as lists of players, the winner as a side's index


def _set_aside_older(path: Path) -> None:
    """A night kept by an older scoreboard is renamed beside its place (NAME.v1): its rows name sides by joined
    names this one does not read; the broker's retained states bring every table back."""
    if not path.exists():
        return
    with closing(sqlite3.connect(str(path))) as db:
        version = db.execute("PRAGMA user_version").fetchone()[0]
    if version < VERSION:
        log.warning("club: %s was kept by an older scoreboard: set aside as %s.v%d", path, path, max(1, version))
        for suffix in ("", "-wal", "-shm"):
            old = Path(f"{path}{suffix}")
            if old.exists():
                old.rename(f"{path}.v{max(1, version)}{suffix}")


@dataclass(slots=True)
class Table:
    """One board as the scoreboard last heard of it."""

    board: str
    log: str = ""
    seq: int = -1
    state: dict[str, Any] = field(default_factory=dict)
    online: bool | None = None

    @property
    def position(self) -> tuple[int, int]:
        return int(self.log or 0), self.seq

    def to_json(self) -> dict[str, Any]:
        return {"board": self.board, "log": self.log, "seq": self.seq, "online": self.online, **self.state}


@dataclass(frozen=True, slots=True)
class Standing:
    player: str
    games: int
    wins: int
    skunks: int  # games won by a skunk or a double skunk
    skunked: int  # games lost by one
    match_points: int

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "games": self.games, "wins": self.wins, "skunks": self.skunks,
                "skunked": self.skunked, "match_points": self.match_points}


class Night:
    def __init__(self, path: Path | str = ":memory:") -> None:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            _set_aside_older(Path(path))
        self.db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self.db.execute(f"PRAGMA user_version={VERSION}")
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")  # a crash keeps what was written; the broker has the rest
        self.db.executescript(SCHEMA)
        self.lock = threading.Lock()
        self.tables: dict[str, Table] = {}
        self.delays: list[float] = []  # seconds from a board's input to its arrival here, this run
        for board, log, seq, state, online in self.db.execute("SELECT board, log, seq, state, online FROM tables"):
            self.tables[board] = Table(board, log, seq, json.loads(state), None if online is None else bool(online))

    def receive(self, message: Message, received: float | None = None) -> bool:
        """Take one checked message; True when it changed what the page shows."""
        received = time.time() if received is None else received
        with self.lock:
            table = self.tables.setdefault(message.board, Table(message.board))
            if message.kind == "status":
                changed = table.online != message.online
                table.online = message.online
                self._save(table)
                return changed
            assert message.state is not None
            if message.kind == "events":
                cursor = self.db.execute(
                    "INSERT OR IGNORE INTO events VALUES (?, ?, ?, ?, ?, ?)",
                    (message.board, message.log, message.seq, message.at, received,
                     json.dumps({k: message.state[k] for k in ("game", "deal", "phase")})))
                if cursor.rowcount:
                    self.delays.append(max(0.0, received - message.at))
            if message.position <= table.position:
                return False
            table.log, table.seq, table.state = message.log, message.seq, message.state
            self._record_game(message.board, message.log, message.state)
            self._save(table)
            return True

    def _save(self, table: Table) -> None:
        self.db.execute("INSERT OR REPLACE INTO tables VALUES (?, ?, ?, ?, ?)",
                        (table.board, table.log, table.seq, json.dumps(table.state),
                         None if table.online is None else int(table.online)))

    def _record_game(self, board: str, log: str, state: dict[str, Any]) -> None:
        key = (board, log, state["game"])
        if state["phase"] not in OVER or state["winner"] is None:
            self.db.execute("DELETE FROM games WHERE board = ? AND log = ? AND game = ?", key)  # undone
            return
        rules = state["rules"]
        won = MATCH_SCORING.get(rules["match_scoring"], MATCH_SCORING["standard"])[state["skunk"]]
        sides = state["sides"]
        self.db.execute("INSERT OR REPLACE INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        (*key, json.dumps(state["players"]), json.dumps([s["players"] for s in sides]),
                         json.dumps([s["score"] for s in sides]), state["winner"], state["skunk"], won,
                         rules["target"]))

    def table_list(self) -> list[dict[str, Any]]:
        with self.lock:
            return [self.tables[b].to_json() for b in sorted(self.tables)]

    def standings(self) -> list[Standing]:
        """Every player's night: by match points, then wins, then fewest games."""
        rows: dict[str, list[int]] = {}
        with self.lock:
            games = self.db.execute("SELECT players, sides, winner, skunk, match_points FROM games").fetchall()
        for players_json, sides_json, winner, skunk, won in games:
            players, sides = json.loads(players_json), json.loads(sides_json)
            for player in players:
                side = next(i for i, partners in enumerate(sides) if player in partners)
                row = rows.setdefault(player, [0, 0, 0, 0, 0])
                row[0] += 1
                if side == winner:
                    row[1] += 1
                    row[2] += skunk is not None
                    row[4] += won
                else:
                    row[3] += skunk is not None
        table = [Standing(p, *r) for p, r in rows.items()]
        return sorted(table, key=lambda s: (-s.match_points, -s.wins, s.games, s.player))

    def games_finished(self) -> int:
        with self.lock:
            return int(self.db.execute("SELECT COUNT(*) FROM games").fetchone()[0])

    def set_round(self, number: int, tables: list[tuple[str, str, str]]) -> None:
        """Record who plays whom at which table in round `number` (drawn again, it replaces the old draw)."""
        with self.lock:
            self.db.execute("DELETE FROM pairings WHERE round = ?", (number,))
            self.db.executemany("INSERT INTO pairings VALUES (?, ?, ?, ?)",
                                [(number, board, a, b) for board, a, b in tables])

    def pairings(self) -> dict[str, Any] | None:
        """The latest round drawn: {"round": N, "tables": [{"board", "players"}]}, or None."""
        with self.lock:
            row = self.db.execute("SELECT MAX(round) FROM pairings").fetchone()
            if row[0] is None:
                return None
            rows = self.db.execute("SELECT board, first, second FROM pairings WHERE round = ? ORDER BY board",
                                   (row[0],)).fetchall()
        return {"round": row[0], "tables": [{"board": b, "players": [x, y]} for b, x, y in rows]}

    def close(self) -> None:
        self.db.close()
