"""The club's night: every table's latest state and every finished game, kept in SQLite.

`receive` takes checked messages in any order and any number of times: an event counts once (its board,
log and sequence number are its key), a table shows the latest position it has heard of, and a game counts
in the standings once it is over (and no longer if an undo reopens it). After a restart the night is read
back from its database, and the broker's retained states bring each table up to date.
"""

from __future__ import annotations

import hashlib
import json
import logging
import sqlite3
import threading
import time
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from companion.club.pairing import Seat
from companion.club.protocol import Message
from companion.club.tournament import CardLine, Game, Scoring, Standing, bracket, qualifiers, scorecard, standings
from companion.cribbage.rules import MATCH_SCORING, skunk_lines

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
CREATE TABLE IF NOT EXISTS finished (
    board TEXT NOT NULL, log TEXT NOT NULL, game INTEGER NOT NULL, at REAL NOT NULL, PRIMARY KEY (board, log, game));
CREATE TABLE IF NOT EXISTS rounds (round INTEGER PRIMARY KEY, drawn REAL NOT NULL);
CREATE TABLE IF NOT EXISTS seats (
    round INTEGER NOT NULL, tab INTEGER NOT NULL, board TEXT NOT NULL, first TEXT NOT NULL, second TEXT NOT NULL,
    PRIMARY KEY (round, tab));
CREATE TABLE IF NOT EXISTS byes (round INTEGER NOT NULL, player TEXT NOT NULL, PRIMARY KEY (round, player));
CREATE TABLE IF NOT EXISTS entries (
    round INTEGER NOT NULL, player TEXT NOT NULL, opponent TEXT NOT NULL, score INTEGER NOT NULL,
    against INTEGER NOT NULL, PRIMARY KEY (round, player));
CREATE TABLE IF NOT EXISTS playoffs (seed INTEGER PRIMARY KEY, player TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""
HAND = "hand"  # the board of a game entered by hand
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


class Night:
    def __init__(self, path: Path | str = ":memory:", scoring: Scoring | None = None) -> None:
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
        self.scoring = scoring or Scoring()
        self.delays: list[float] = []  # seconds from a board's input to its arrival here, this run
        self.pending: dict[tuple[str, str, int], float] = {}  # games finished since the standings were last made
        self.standing_delays: list[float] = []  # seconds from a game's last input to standings that count it
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
            self._record_game(message.board, message.log, message.state, message.at, received)
            self._save(table)
            return True

    def _save(self, table: Table) -> None:
        self.db.execute("INSERT OR REPLACE INTO tables VALUES (?, ?, ?, ?, ?)",
                        (table.board, table.log, table.seq, json.dumps(table.state),
                         None if table.online is None else int(table.online)))

    def _record_game(self, board: str, log: str, state: dict[str, Any], at: float, received: float) -> None:
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
        if self.db.execute("INSERT OR IGNORE INTO finished VALUES (?, ?, ?, ?)", (*key, received)).rowcount:
            self.pending[key] = at

    def table_list(self) -> list[dict[str, Any]]:
        """Every table as last heard of, with its seat in the latest round (`seat`) until the playoffs; a table
        whose game is not between the players seated there is flagged (`wrong_players`)."""
        drawn = self.round_drawn()
        playoffs = self.playoffs_drawn()
        seats = {seat.board: seat for seat in self.seats()[1]} if playoffs is None or playoffs < drawn else {}
        with self.lock:
            tables = [self.tables[b].to_json() for b in sorted(self.tables)]
            done = {(b, lg, g): at for b, lg, g, at in self.db.execute("SELECT board, log, game, at FROM finished")}
        for table in tables:
            seat = seats.get(table["board"])
            if seat is None:
                continue
            table["seat"] = seat.to_json()
            players = table.get("players") or []
            over_before = table.get("phase") in OVER and done.get(
                (table["board"], table["log"], table.get("game")), drawn) < drawn
            table["wrong_players"] = bool(players) and set(players) != set(seat.players) and not over_before
        return table_sort(tables)

    def games(self) -> list[Game]:
        """Every finished game, in the order finished, each with the round whose seats it played."""
        with self.lock:
            rows = self.db.execute(
                "SELECT g.board, g.sides, g.scores, g.winner, g.skunk, g.target, g.match_points, "
                "COALESCE(f.at, 0) FROM games g LEFT JOIN finished f USING (board, log, game) "
                "ORDER BY COALESCE(f.at, 0), g.board, g.log, g.game").fetchall()
            seated = self.db.execute("SELECT round, first, second FROM seats ORDER BY round").fetchall()
        rounds: dict[frozenset[str], list[int]] = {}
        for number, first, second in seated:
            rounds.setdefault(frozenset((first, second)), []).append(number)
        games = []
        for board, sides, scores, winner, skunk, target, won, at in rows:
            sides_of = tuple(tuple(side) for side in json.loads(sides))
            pair = frozenset(p for side in sides_of for p in side)
            left = rounds.get(pair)
            games.append(Game(sides_of, tuple(json.loads(scores)), winner, skunk, target, won, board,
                              left.pop(0) if left else None, at))
        return games

    def qualifying(self) -> list[Game]:
        """The games of the qualifying: all, until the playoffs are drawn."""
        start = self.playoffs_drawn()
        return [g for g in self.games() if start is None or g.at < start]

    def standings(self) -> list[Standing]:
        """Every player's night, ranked as the night scores (`scoring`)."""
        with self.lock:
            pending, self.pending = self.pending, {}
            byes = [p for (p,) in self.db.execute("SELECT player FROM byes")]
        table = standings(self.qualifying(), self.scoring, byes, self.field())
        now = time.time()
        self.standing_delays += [max(0.0, now - at) for at in pending.values()]
        return table

    def scorecard(self, player: str) -> list[CardLine]:
        with self.lock:
            byes = [r for (r,) in self.db.execute("SELECT round FROM byes WHERE player = ?", (player,))]
        return scorecard(player, self.qualifying(), self.scoring, byes)

    def players(self) -> list[str]:
        """Everyone in the field or in a game, in the field's order, then by name."""
        known = self.field()
        return known + sorted({p for g in self.games() for p in g.players} - set(known))

    def games_finished(self) -> int:
        with self.lock:
            return int(self.db.execute("SELECT COUNT(*) FROM games").fetchone()[0])

    # --- the tournament's rounds ----------------------------------------------------------------------------

    def setting(self, key: str) -> Any:
        with self.lock:
            row = self.db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        return None if row is None else json.loads(row[0])

    def set_setting(self, key: str, value: Any) -> None:
        with self.lock:
            self.db.execute("INSERT OR REPLACE INTO settings VALUES (?, ?)", (key, json.dumps(value)))

    def field(self) -> list[str]:
        players: list[str] = self.setting("players") or []
        return players

    def set_round(self, number: int, seats: list[Seat], byes: list[str], at: float | None = None) -> None:
        """Record who plays whom at which table in round `number` (drawn again, it replaces the old draw)."""
        with self.lock:
            self.db.execute("BEGIN")
            for table in ("seats", "byes", "rounds"):
                self.db.execute(f"DELETE FROM {table} WHERE round = ?", (number,))
            self.db.execute("INSERT INTO rounds VALUES (?, ?)", (number, time.time() if at is None else at))
            self.db.executemany("INSERT INTO seats VALUES (?, ?, ?, ?, ?)",
                                [(number, s.table, s.board, *s.players) for s in seats])
            self.db.executemany("INSERT INTO byes VALUES (?, ?)", [(number, p) for p in byes])
            self.db.execute("COMMIT")

    def latest_round(self) -> int:
        with self.lock:
            row = self.db.execute("SELECT MAX(round) FROM rounds").fetchone()
        return int(row[0] or 0)

    def round_drawn(self, number: int | None = None) -> float:
        number = self.latest_round() if number is None else number
        with self.lock:
            row = self.db.execute("SELECT drawn FROM rounds WHERE round = ?", (number,)).fetchone()
        return float(row[0]) if row else 0.0

    def revision(self) -> tuple[int, float, float | None, int, int]:
        """What the director's commands change, to notice their writes: the latest round and when it was
        drawn, when the playoffs were, the games and the hand entries."""
        number = self.latest_round()
        with self.lock:
            games, entries = self.db.execute(
                "SELECT (SELECT COUNT(*) FROM games), (SELECT COUNT(*) FROM entries)").fetchone()
        return number, self.round_drawn(number), self.playoffs_drawn(), games, entries

    def seats(self, number: int | None = None) -> tuple[int, list[Seat], list[str]]:
        """A round's tables (the latest by default) and its byes."""
        number = self.latest_round() if number is None else number
        with self.lock:
            rows = self.db.execute("SELECT tab, board, first, second FROM seats WHERE round = ? ORDER BY tab",
                                   (number,)).fetchall()
            byes = [p for (p,) in self.db.execute("SELECT player FROM byes WHERE round = ?", (number,))]
        return number, [Seat(tab, board, (a, b)) for tab, board, a, b in rows], byes

    def pairings(self) -> dict[str, Any] | None:
        """The latest round drawn: {"round": N, "drawn", "tables": [{"table", "board", "players"}], "byes"}."""
        number, seats, byes = self.seats()
        if not number:
            return None
        return {"round": number, "drawn": self.round_drawn(number), "tables": [s.to_json() for s in seats],
                "byes": byes}

    # --- games entered by hand ---------------------------------------------------------------------------------

    def enter(self, number: int, player: str, opponent: str, score: int, against: int, *,
              target: int = 121) -> str:
        """One player's word on a game played without a board. The game counts once both players have entered
        it and agree; until then (or when they differ) nothing counts and the answer says what is missing."""
        if player == opponent:
            raise ValueError("a player cannot play themselves: name the opponent")
        if sorted((score, against))[1] != target or min(score, against) < 0 or score == against:
            raise ValueError(f"a finished game is {target} to less: the scores {score} and {against} are not")
        with self.lock:
            if not self.db.execute("SELECT 1 FROM rounds WHERE round = ?", (number,)).fetchone():
                raise ValueError(f"there is no round {number}: draw it first with `crib club round`")
            self.db.execute("INSERT OR REPLACE INTO entries VALUES (?, ?, ?, ?, ?)",
                            (number, player, opponent, score, against))
            other = self.db.execute("SELECT opponent, score, against FROM entries WHERE round = ? AND player = ?",
                                    (number, opponent)).fetchone()
        if other is None:
            return f"{player}'s card for round {number} is in; it counts when {opponent} enters the same game"
        if tuple(other) != (player, against, score):
            return (f"{player} says {player} {score}, {opponent} {against}; {opponent} says "
                    f"{opponent} {other[1]}, {other[0]} {other[2]}: the cards differ, so the game does not count. "
                    "Check the cards with both players and enter the game again")
        lines = skunk_lines(target)
        loser_score = min(score, against)
        skunk: Literal["skunk", "double skunk"] | None = (
            "double skunk" if len(lines) > 1 and loser_score < lines[1] else "skunk" if loser_score < lines[0]
            else None)
        sides = [[player], [opponent]]
        key = (HAND, f"{number:04d}", _pair_number(player, opponent))
        with self.lock:
            self.db.execute("INSERT OR REPLACE INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                            (*key, json.dumps([player, opponent]), json.dumps(sides), json.dumps([score, against]),
                             0 if score > against else 1, skunk, MATCH_SCORING["standard"][skunk], target))
            self.db.execute("INSERT OR IGNORE INTO finished VALUES (?, ?, ?, ?)", (*key, time.time()))
        return f"round {number}: {player} {score}, {opponent} {against}, entered by both: it counts"

    # --- the playoffs ---------------------------------------------------------------------------------------

    def draw_playoffs(self, best_of: int, at: float | None = None) -> list[str]:
        """Seed the top quarter of the standings (rounded up) into the playoffs; the qualifying ends here."""
        if self.playoffs_drawn() is not None:
            raise ValueError("the playoffs are drawn already")
        ranked = [s.player for s in self.standings()]
        if len(ranked) < 2:
            raise ValueError("the playoffs need at least two players in the standings")
        seeds = ranked[:qualifiers(len(ranked))]
        bracket(seeds, best_of, [])  # checks best_of
        with self.lock:
            self.db.executemany("INSERT INTO playoffs VALUES (?, ?)", list(enumerate(seeds, start=1)))
        self.set_setting("best_of", best_of)
        self.set_setting("playoffs_drawn", time.time() if at is None else at)
        return seeds

    def playoffs_drawn(self) -> float | None:
        drawn = self.setting("playoffs_drawn")
        return None if drawn is None else float(drawn)

    def bracket(self) -> dict[str, Any] | None:
        """The bracket as the boards' games have filled it: {"best_of", "rounds": [[match]]}, or None."""
        start = self.playoffs_drawn()
        if start is None:
            return None
        with self.lock:
            seeds = [p for (p,) in self.db.execute("SELECT player FROM playoffs ORDER BY seed")]
        best_of = int(self.setting("best_of"))
        rounds = bracket(seeds, best_of, [g for g in self.games() if g.at >= start])
        return {"best_of": best_of, "seeds": seeds, "rounds": [[m.to_json() for m in r] for r in rounds]}

    def close(self) -> None:
        self.db.close()


def _pair_number(a: str, b: str) -> int:
    """A hand-entered game's number in its round: the same for both players' entries."""
    return int.from_bytes(hashlib.sha256("\n".join(sorted((a, b))).encode()).digest()[:4], "big")


def table_sort(tables: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Tables in their seats' order, then by board id with its number read as a number (t2 before t10)."""
    def key(table: dict[str, Any]) -> tuple[int, str, int]:
        digits = "".join(c for c in table["board"] if c.isdigit())
        return (table.get("seat", {}).get("table", 10**6), table["board"].rstrip("0123456789"),
                int(digits) if digits else 0)
    return sorted(tables, key=key)
