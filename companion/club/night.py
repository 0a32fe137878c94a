"""The club's night: every table's latest state and every finished game, kept in SQLite.

`receive` takes checked messages in any order and any number of times: an event counts once (its board,
log and sequence number are its key), a table shows the latest position it has heard of, and a finished game
counts in the standings once its inputs replay to it (referee.py) and its players were seated at its board
(and no longer if an undo reopens it). A game that does not follow the rules, a stranger's game, cards
that differ and a late card wait for the director (`waiting`, `decide`). The night keeps its rules (scoring,
movement, best-of) with it. After a restart the night is read back from its database, and the broker's
retained states bring each table up to date.
"""

from __future__ import annotations

import hashlib
import json
import logging
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Literal

from companion.club.pairing import Seat
from companion.club.payloads import (
    BracketJSON,
    DetailJSON,
    EntryJSON,
    HandCardJSON,
    LineTieJSON,
    NightRulesJSON,
    PairingsJSON,
    Stage,
    TableJSON,
    WaitingJSON,
)
from companion.club.protocol import Message
from companion.club.referee import Problem, judge, referee, step
from companion.club.refused import Refused
from companion.club.tournament import CardLine, Game, Scoring, Standing, bracket, qualifiers, scorecard, standings
from companion.cribbage.facts import Side
from companion.cribbage.game import GameState, initial_state
from companion.cribbage.rules import MATCH_SCORING, skunk_lines
from companion.i18n import N_, journal
from companion.words.club import Why
from companion.words.contract import InputJSON, StateJSON
from companion.words.phrases import side_name

log = logging.getLogger(__name__)

SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    board TEXT NOT NULL, log TEXT NOT NULL, seq INTEGER NOT NULL, at REAL NOT NULL, received REAL NOT NULL,
    input TEXT NOT NULL, PRIMARY KEY (board, log, seq));
CREATE TABLE IF NOT EXISTS tables (
    board TEXT PRIMARY KEY, log TEXT NOT NULL, seq INTEGER NOT NULL, state TEXT NOT NULL, online INTEGER);
CREATE TABLE IF NOT EXISTS games (
    board TEXT NOT NULL, log TEXT NOT NULL, game INTEGER NOT NULL, seq INTEGER NOT NULL, round INTEGER,
    stage TEXT NOT NULL, sides TEXT NOT NULL, scores TEXT NOT NULL, winner INTEGER NOT NULL, skunk TEXT,
    match_points INTEGER NOT NULL, target INTEGER NOT NULL, status TEXT NOT NULL, reason TEXT, detail TEXT,
    at REAL NOT NULL, PRIMARY KEY (board, log, game));
CREATE TABLE IF NOT EXISTS rounds (round INTEGER PRIMARY KEY, drawn REAL NOT NULL, closed INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS seats (
    round INTEGER NOT NULL, tab INTEGER NOT NULL, board TEXT NOT NULL, first TEXT NOT NULL, second TEXT NOT NULL,
    PRIMARY KEY (round, tab));
CREATE TABLE IF NOT EXISTS byes (round INTEGER NOT NULL, player TEXT NOT NULL, PRIMARY KEY (round, player));
CREATE TABLE IF NOT EXISTS entries (
    round INTEGER NOT NULL, player TEXT NOT NULL, opponent TEXT NOT NULL, score INTEGER NOT NULL,
    against INTEGER NOT NULL, at REAL NOT NULL, PRIMARY KEY (round, player));
CREATE TABLE IF NOT EXISTS playoffs (seed INTEGER PRIMARY KEY, player TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""
HAND = "hand"  # the board of a game entered by hand
OVER = ("game over", "match over")
VERSION = 3  # the database's form: each event's input kept, each game with its status before the director
COUNTS, WAITING, PROBLEM, REJECTED = "counts", "waiting", "problem", "rejected"
QUALIFYING: Final = "qualifying"
PLAYOFFS: Final = "playoffs"
TIE_BREAKS = ("head-to-head",)  # then a lot drawn by the scoreboard, recorded with the draw


@dataclass(frozen=True, slots=True)
class Entry:
    """What a card entered by hand did: `status` is "first" (waits for the opponent's card), "counts",
    "late" (waits for the director: entered after the playoff draw) or "disagreement" (waits for the director
    or for both cards to agree, `theirs` the opponent's card)."""

    status: Literal["first", "counts", "late", "disagreement"]
    round: int
    card: HandCardJSON
    theirs: HandCardJSON | None = None

    def to_json(self, message: str) -> EntryJSON:
        """The outcome with its words (`message`, in the reader's language)."""
        return {"status": self.status, "round": self.round, "card": self.card, "theirs": self.theirs,
                "message": message}


@dataclass(frozen=True, slots=True)
class Decision:
    """The director's word on a waiting game (`item`): approved or not, and whose card counts (a disagreement)."""

    approved: bool
    item: str
    card: str | None = None


def _set_aside_older(path: Path) -> None:
    """A night kept by an older scoreboard is renamed beside its place (NAME.v1): its rows name sides by joined
    names this one does not read; the broker's retained states bring every table back."""
    if not path.exists():
        return
    with closing(sqlite3.connect(str(path))) as db:
        version = db.execute("PRAGMA user_version").fetchone()[0]
    if version < VERSION:
        log.warning("%s", journal(N_("club: {path} was kept by an older scoreboard: set aside as {aside}"),
                                  path=path, aside=f"{path}.v{max(1, version)}"))
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
    state: StateJSON | None = None  # none before its first state arrives
    online: bool | None = None

    @property
    def position(self) -> tuple[int, int]:
        return int(self.log or 0), self.seq

    def to_json(self) -> TableJSON:
        return {"board": self.board, "log": self.log, "seq": self.seq, "online": self.online, "state": self.state}


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
        self.lock = threading.RLock()
        self.tables: dict[str, Table] = {}
        self.delays: list[float] = []  # seconds from a board's input to its arrival here, this run
        self.pending: dict[tuple[str, str, int], float] = {}  # games counted since the standings were last made
        self.standing_delays: list[float] = []  # seconds from a game's last input to standings that count it
        self.default_scoring = Scoring()  # until the night keeps a scoring of its own ([club] scoring)
        self.folds: dict[str, tuple[str, int, GameState]] = {}  # each board's latest log folded so far
        for board, log_, seq, state, online in self.db.execute("SELECT board, log, seq, state, online FROM tables"):
            self.tables[board] = Table(board, log_, seq, json.loads(state) or None,
                                       None if online is None else bool(online))
        if scoring is not None:
            self.keep_rules(scoring=scoring)

    # --- the night's rules ------------------------------------------------------------------------------------

    @property
    def scoring(self) -> Scoring:
        """How the night ranks, as it was first set (the default until anyone sets it)."""
        name, skunks = self.setting("scoring"), self.setting("skunks_before_spread")
        if name is None:
            return self.default_scoring
        return Scoring(name, bool(skunks))

    def rules(self) -> NightRulesJSON:
        """The rules kept with the night: scoring, movement, best-of and the tie-break at the qualifying line."""
        return {"scoring": self.setting("scoring"), "skunks_before_spread": self.setting("skunks_before_spread"),
                "movement": self.setting("movement"), "move": self.setting("move"),
                "best_of": self.setting("best_of"), "tie_break": self.setting("tie_break") or TIE_BREAKS[0]}

    def keep_rules(self, *, scoring: Scoring | None = None, best_of: int | None = None,
                   movement: str | None = None, move: int | None = None) -> None:
        """Keep each rule given with the night the first time; a rule given again must be the one kept (a night
        does not change its rules halfway: Refused, saying which it keeps)."""
        self.check_rules(scoring=scoring, best_of=best_of, movement=movement, move=move, keep=True)

    def check_rules(self, *, scoring: Scoring | None = None, best_of: int | None = None,
                    movement: str | None = None, move: int | None = None, keep: bool = False) -> None:
        """Refuse a rule given that is not the one the night keeps (and keep it, with `keep`, when none is)."""
        given: dict[str, object] = {"best_of": best_of, "movement": movement, "move": move}
        if scoring is not None:
            given |= {"scoring": scoring.name, "skunks_before_spread": scoring.skunks_before_spread}
        with self.lock:
            for key, value in given.items():
                if value is None:
                    continue
                kept = self.setting(key)
                if kept is None:
                    if keep:
                        self.set_setting(key, value)
                elif kept != value:
                    raise Refused(Why.RULES, rule=key, kept=kept, given=value)

    # --- the boards -----------------------------------------------------------------------------------------

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
            changed = False
            if message.kind == "events" and message.input is not None:
                cursor = self.db.execute(
                    "INSERT OR IGNORE INTO events VALUES (?, ?, ?, ?, ?, ?)",
                    (message.board, message.log, message.seq, message.at, received, json.dumps(message.input)))
                if cursor.rowcount:
                    self.delays.append(max(0.0, received - message.at))
                    self._fold(message.board, message.log, message.seq, message.input)
                    changed = self._recheck(message.board, message.log, message.seq)
            if message.position <= table.position:
                return changed
            table.log, table.seq, table.state = message.log, message.seq, message.state
            self._record_game(message.board, message.log, message.seq, message.state, message.at)
            self._save(table)
            return True

    def _save(self, table: Table) -> None:
        self.db.execute("INSERT OR REPLACE INTO tables VALUES (?, ?, ?, ?, ?)",
                        (table.board, table.log, table.seq, json.dumps(table.state),
                         None if table.online is None else int(table.online)))

    def _fold(self, board: str, log_: str, seq: int, inp: InputJSON) -> None:
        """Fold an input arriving in order onto its board's log (an input out of order drops the fold: the game
        is then replayed from the stored inputs when it ends)."""
        name, last, state = self.folds.get(board, (log_, 0, initial_state()))
        if name != log_:
            name, last, state = log_, 0, initial_state()
        if seq != last + 1 and not (last == 0 and seq == 2):  # a log with a header numbers its first input 2
            self.folds.pop(board, None)
            return
        folded = step(state, inp)
        if folded is None:
            self.folds.pop(board, None)
        else:
            self.folds[board] = (log_, seq, folded)

    def _record_game(self, board: str, log_: str, seq: int, claimed: StateJSON, at: float) -> None:
        """A board's game as its latest state says: out of the night while it is not over (an undo reopened
        it); once over, kept only when its inputs replay to that state, and counted only when its players
        were seated at this board (else it waits for the director)."""
        key = (board, log_, claimed["game"])
        if claimed["phase"] not in OVER or claimed["winner"] is None:
            self.db.execute("DELETE FROM games WHERE board = ? AND log = ? AND game = ?", key)
            return
        row = self.db.execute("SELECT seq, status FROM games WHERE board = ? AND log = ? AND game = ?",
                              key).fetchone()
        if row is not None and row[0] == seq and row[1] != PROBLEM:
            return  # heard before, and judged
        fold = self.folds.get(board)
        if fold is not None and fold[:2] == (log_, seq):
            verdict = judge(fold[2], claimed)
        else:
            inputs = self.db.execute("SELECT seq, input FROM events WHERE board = ? AND log = ? AND seq <= ?",
                                     (board, log_, seq)).fetchall()
            verdict = referee([(n, json.loads(text)) for n, text in inputs], seq, claimed)
        if isinstance(verdict, Problem):
            self._put_game(key, seq, number=None, stage=PLAYOFFS if self.playoffs_drawn() else QUALIFYING,
                           sides=[(s["players"], s["score"]) for s in claimed["sides"]], winner=claimed["winner"],
                           skunk=claimed["skunk"], won=0,
                           target=claimed["rules"]["target"], status=PROBLEM, reason="unfollowed",
                           detail={**verdict.to_json(), "claim": claimed}, at=at)
            return
        players = [p for side in verdict["sides"] for p in side["players"]]
        stage, number, reason, seat = self._place(board, players, key)
        rules = verdict["rules"]
        won = MATCH_SCORING.get(rules["match_scoring"], MATCH_SCORING["standard"])[verdict["skunk"]]
        detail: DetailJSON | None = None if seat is None else {"seated": list(seat.players), "round": number}
        sides = [(side["players"], side["score"]) for side in verdict["sides"]]
        self._put_game(key, seq, number=number, stage=stage, sides=sides,
                       winner=verdict["winner"], skunk=verdict["skunk"], won=won, target=rules["target"],
                       status=COUNTS if reason is None else WAITING, reason=reason, detail=detail, at=at)

    def _put_game(self, key: tuple[str, str, int], seq: int, *, number: int | None, stage: str,
                  sides: Sequence[tuple[list[str], int]], winner: int | None, skunk: str | None, won: int,
                  target: int, status: str, reason: str | None, detail: DetailJSON | None, at: float) -> None:
        """Keep a finished game: each side's players and score, and its standing before the director."""
        before = self.db.execute("SELECT at FROM games WHERE board = ? AND log = ? AND game = ?", key).fetchone()
        self.db.execute("INSERT OR REPLACE INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        (*key, seq, number, stage, json.dumps([players for players, _score in sides]),
                         json.dumps([score for _players, score in sides]), winner, skunk, won, target, status, reason,
                         None if detail is None else json.dumps(detail), at if before is None else before[0]))
        if status == COUNTS:
            self.pending[key] = at

    def _recheck(self, board: str, log_: str, seq: int) -> bool:
        """Input `seq` arrived: judge again a finished game of this log that it may complete (a retained state
        can arrive before the inputs that lead to it)."""
        rows = self.db.execute("SELECT seq, detail FROM games WHERE board = ? AND log = ? AND status = ? AND "
                               "seq >= ?", (board, log_, PROBLEM, seq)).fetchall()
        for claimed_at, detail in rows:
            self._record_game(board, log_, claimed_at, json.loads(detail)["claim"], time.time())
        return bool(rows)

    def _place(self, board: str, players: list[str], key: tuple[str, str, int]
               ) -> tuple[str, int | None, str | None, Seat | None]:
        """Where a finished board game belongs: its stage, its round, and why it waits (None: it counts), with
        the seat it should have been played at. Before any round is drawn every game counts."""
        pair = frozenset(players)
        if self.playoffs_drawn() is not None:
            seats = self.playoff_seats()
            at_board = next((s for s in seats if s.board == board), None)
            if any(frozenset(s.players) == pair for s in seats) and len(players) == 2:
                return PLAYOFFS, None, None, None
            return PLAYOFFS, None, "stranger", at_board
        rows = self.db.execute("SELECT round, first, second FROM seats WHERE board = ? ORDER BY round DESC",
                               (board,)).fetchall()
        if not rows:
            return QUALIFYING, None, None, None
        for number, first, second in rows:
            if frozenset((first, second)) == pair and len(players) == 2 and not self.db.execute(
                    "SELECT 1 FROM games WHERE board = ? AND round = ? AND status = ? AND NOT "
                    "(board = ? AND log = ? AND game = ?)", (board, number, COUNTS, *key)).fetchone():
                return QUALIFYING, number, None, None
        number, first, second = rows[0]
        return QUALIFYING, number, "stranger", Seat(0, board, (first, second))

    def table_list(self) -> list[TableJSON]:
        """Every table as last heard of, with its seat now (`seat`: the latest round's, or the playoffs' once
        drawn); a table whose game is not between the players seated there is flagged (`wrong_players`), and
        one whose finished game does not count says why (`uncounted`: "unfollowed" or "waiting")."""
        number, current, _byes = self.current_seats()
        seats = {seat.board: seat for seat in current}
        drawn = self.round_drawn(number) if self.playoffs_drawn() is None else self.playoffs_drawn() or 0.0
        with self.lock:
            tables = [self.tables[b].to_json() for b in sorted(self.tables)]
            done = {(b, lg, g): at for b, lg, g, at in self.db.execute("SELECT board, log, game, at FROM games")}
            judged = {(b, lg, g): status for b, lg, g, status in self.db.execute(
                "SELECT board, log, game, status FROM games WHERE status IN (?, ?)", (WAITING, PROBLEM))}
        for table in tables:
            state = table["state"]
            game = None if state is None else state["game"]
            status = judged.get((table["board"], table["log"], game))
            if status is not None:  # the finished game on this table does not count (yet)
                table["uncounted"] = "unfollowed" if status == PROBLEM else "waiting"
            seat = seats.get(table["board"])
            if seat is None:
                continue
            table["seat"] = seat.to_json()
            players = [] if state is None else state["players"]
            over_before = state is not None and state["phase"] in OVER and done.get(
                (table["board"], table["log"], game), drawn) < drawn
            table["wrong_players"] = bool(players) and set(players) != set(seat.players) and not over_before
        return table_sort(tables)

    # --- the games ------------------------------------------------------------------------------------------

    def games(self, stage: str | None = None) -> list[Game]:
        """Every game that counts (of one stage, or all), in the order finished."""
        with self.lock:
            rows = self.db.execute(
                "SELECT board, sides, scores, winner, skunk, target, match_points, round, at, stage FROM games "
                "WHERE status = ? AND (? IS NULL OR stage = ?) ORDER BY at, board, log, game",
                (COUNTS, stage, stage)).fetchall()
        return [Game(tuple(tuple(side) for side in json.loads(sides)), tuple(json.loads(scores)), winner, skunk,
                     target, won, board, number, at, game_stage)
                for board, sides, scores, winner, skunk, target, won, number, at, game_stage in rows]

    def qualifying(self) -> list[Game]:
        return self.games(QUALIFYING)

    def standings(self) -> list[Standing]:
        """Every player's qualifying, ranked as the night scores."""
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
        """Everyone in the field or in a game that counts, in the field's order, then by name."""
        known = self.field()
        return known + sorted({p for g in self.games() for p in g.players} - set(known))

    def games_finished(self) -> int:
        """The games that count."""
        with self.lock:
            return int(self.db.execute("SELECT COUNT(*) FROM games WHERE status = ?", (COUNTS,)).fetchone()[0])

    # --- what waits for the director ------------------------------------------------------------------------

    def waiting(self) -> list[WaitingJSON]:
        """Every game the director must decide, oldest first: {"id", "reason" ("stranger", "late",
        "disagreement" or "unfollowed"), "board", "round", "stage", "sides" (each side's players), "names" (each
        side's name), "scores", "winner", "detail", "approvable"}."""
        with self.lock:
            rows = self.db.execute(
                "SELECT board, log, game, round, stage, sides, scores, winner, reason, detail, status FROM games "
                "WHERE status IN (?, ?) ORDER BY at, board, log, game", (WAITING, PROBLEM)).fetchall()
        items: list[WaitingJSON] = []
        for board, log_, game, number, stage, sides, scores, winner, reason, detail, status in rows:
            facts: DetailJSON = json.loads(detail) if detail else {}
            facts.pop("claim", None)
            sides_of = json.loads(sides)
            items.append({"id": f"{board}/{log_}/{game}", "reason": reason, "board": board, "round": number,
                          "stage": stage, "sides": sides_of, "names": [side_name(Side(tuple(s))) for s in sides_of],
                          "scores": json.loads(scores),
                          "winner": winner, "detail": facts, "approvable": status == WAITING})
        return items

    def decide(self, item: str, approve: bool, card: str | None = None) -> Decision:
        """The director's word on a waiting game: approved it counts (a disagreement as `card`, the player whose
        card is right, says), rejected it never does. A result that does not follow the rules cannot be
        approved. Refused when there is no such game waiting."""
        board, _slash, rest = item.partition("/")
        log_, _slash, game = rest.partition("/")
        with self.lock:
            row = self.db.execute("SELECT status, reason, detail, round, sides FROM games WHERE board = ? AND "
                                  "log = ? AND game = ?", (board, log_, game)).fetchone()
            if row is None or row[0] not in (WAITING, PROBLEM):
                raise Refused(Why.NOT_WAITING, item=item)
            status, reason, detail, number, _sides = row
            key = (board, log_, int(game))
            if not approve:
                self.db.execute("UPDATE games SET status = ? WHERE board = ? AND log = ? AND game = ?",
                                (REJECTED, *key))
                return Decision(False, item)
            if status == PROBLEM:
                raise Refused(Why.UNFOLLOWED, item=item)
            if reason == "disagreement":
                cards: dict[str, HandCardJSON] = {c["player"]: c for c in json.loads(detail)["cards"]}
                if card not in cards:
                    raise Refused(Why.WHICH_CARD, cards=list(cards))
                chosen = cards[card]
                self._count_hand(number, chosen, COUNTS, reason="decided",
                                 detail={"cards": list(cards.values()), "chosen": card})
                return Decision(True, item, card)
            self.db.execute("UPDATE games SET status = ? WHERE board = ? AND log = ? AND game = ?",
                            (COUNTS, *key))
            self.pending[key] = time.time()
        return Decision(True, item)

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
            self.db.execute("INSERT INTO rounds VALUES (?, ?, 0)", (number, time.time() if at is None else at))
            self.db.executemany("INSERT INTO seats VALUES (?, ?, ?, ?, ?)",
                                [(number, s.table, s.board, *s.players) for s in seats])
            self.db.executemany("INSERT INTO byes VALUES (?, ?)", [(number, p) for p in byes])
            self.db.execute("COMMIT")

    def close_round(self, number: int) -> None:
        """No more cards for round `number`."""
        with self.lock:
            if not self.db.execute("UPDATE rounds SET closed = 1 WHERE round = ?", (number,)).rowcount:
                raise Refused(Why.NO_ROUND, round=number, rounds=self.rounds())

    def rounds(self) -> list[int]:
        with self.lock:
            return [n for (n,) in self.db.execute("SELECT round FROM rounds ORDER BY round")]

    def latest_round(self) -> int:
        with self.lock:
            row = self.db.execute("SELECT MAX(round) FROM rounds").fetchone()
        return int(row[0] or 0)

    def round_drawn(self, number: int | None = None) -> float:
        number = self.latest_round() if number is None else number
        with self.lock:
            row = self.db.execute("SELECT drawn FROM rounds WHERE round = ?", (number,)).fetchone()
        return float(row[0]) if row else 0.0

    def revision(self) -> tuple[Any, ...]:
        """What the director's commands change, to notice their writes: the rounds and when they were drawn,
        the playoffs, the games and their status, the hand entries."""
        with self.lock:
            return tuple(self.db.execute(
                "SELECT (SELECT COUNT(*) || '/' || COALESCE(MAX(drawn), 0) || '/' || SUM(closed) FROM rounds), "
                "(SELECT value FROM settings WHERE key = 'playoffs_drawn'), "
                "(SELECT COUNT(*) || '/' || SUM(status = 'counts') || '/' || SUM(status = 'waiting') FROM games), "
                "(SELECT COUNT(*) || '/' || COALESCE(MAX(at), 0) FROM entries)").fetchone())

    def seats(self, number: int | None = None) -> tuple[int, list[Seat], list[str]]:
        """A round's tables (the latest by default) and its byes."""
        number = self.latest_round() if number is None else number
        with self.lock:
            rows = self.db.execute("SELECT tab, board, first, second FROM seats WHERE round = ? ORDER BY tab",
                                   (number,)).fetchall()
            byes = [p for (p,) in self.db.execute("SELECT player FROM byes WHERE round = ?", (number,))]
        return number, [Seat(tab, board, (a, b)) for tab, board, a, b in rows], byes

    def current_seats(self) -> tuple[int, list[Seat], list[str]]:
        """Who sits where now: the latest round's seats, or once the playoffs are drawn their open matches
        (numbered on from the last qualifying round)."""
        if self.playoffs_drawn() is None:
            return self.seats()
        bracket_now = self.bracket()
        depth = next((i for i, matches in enumerate(bracket_now["rounds"]) if any(m["winner"] is None for m in
                      matches)), 0) if bracket_now else 0
        return self.latest_round() + 1 + depth, self.playoff_seats(), []

    def playoff_seats(self) -> list[Seat]:
        """The playoffs' open matches at the boards: the k-th match of a bracket round at the board of its
        first feeding match (so a match never takes a board still in use), else at the first free board."""
        drawn = self.bracket()
        if drawn is None:
            return []
        boards: list[str] = self.setting("boards") or []
        seats: list[Seat] = []
        for depth, matches in enumerate(drawn["rounds"]):
            for k, match in enumerate(matches):
                first, second = match["players"]
                if match["winner"] is not None or first is None or second is None:
                    continue
                used = {s.board for s in seats}
                want = k * 2 ** depth
                free = [i for i, b in enumerate(boards) if b not in used]
                index = want if want < len(boards) and boards[want] not in used else (free[0] if free else None)
                if index is not None:
                    seats.append(Seat(index + 1, boards[index], (first, second)))
        return sorted(seats, key=lambda s: s.table)

    def pairings(self) -> PairingsJSON | None:
        """The seats now: {"round": N, "drawn", "stage", "tables": [{"table", "board", "players"}], "byes"}."""
        number, seats, byes = self.current_seats()
        if not number:
            return None
        stage: Stage = QUALIFYING if self.playoffs_drawn() is None else PLAYOFFS
        return {"round": number, "drawn": self.round_drawn(number), "stage": stage,
                "tables": [s.to_json() for s in seats], "byes": byes}

    # --- games entered by hand ---------------------------------------------------------------------------------

    def enter(self, number: int, player: str, opponent: str, score: int, against: int, *,
              target: int = 121, at: float | None = None) -> Entry:
        """One player's card of a game played without a board. Refused (with the reason) when the round is not
        drawn or closed, a player is not in the field, the two were not seated together that round, or a board
        has reported their game. The game counts once both cards agree; a card that differs from the
        other (even after they agreed) takes the game out until they agree again or the director decides."""
        at = time.time() if at is None else at
        if player == opponent:
            raise Refused(Why.SELF, player=player)
        if sorted((score, against))[1] != target or min(score, against) < 0 or score == against:
            raise Refused(Why.SCORE, score=score, against=against, target=target)
        with self.lock:
            row = self.db.execute("SELECT closed FROM rounds WHERE round = ?", (number,)).fetchone()
            if row is None:
                raise Refused(Why.NO_ROUND, round=number, rounds=self.rounds())
            if row[0]:
                raise Refused(Why.CLOSED, round=number)
            field_ = self.field()
            for who in (player, opponent):
                if field_ and who not in field_:
                    raise Refused(Why.NOT_IN_FIELD, player=who, field=field_)
            _n, seats, byes = self.seats(number)
            seat = next((s for s in seats if player in s.players), None)
            if seat is None or opponent not in seat.players:
                facts: dict[str, object] = {"round": number, "player": player, "opponent": opponent,
                                            "where": "unseated"}
                if seat is not None:
                    other = next(p for p in seat.players if p != player)
                    facts |= {"where": "played", "other": other, "table": seat.table}
                elif player in byes:
                    facts["where"] = "bye"
                raise Refused(Why.NOT_SEATED, **facts)
            if self.db.execute("SELECT 1 FROM games WHERE board != ? AND round = ? AND status = ? AND sides IN "
                               "(?, ?)", (HAND, number, COUNTS, json.dumps([[player], [opponent]]),
                                          json.dumps([[opponent], [player]]))).fetchone():
                raise Refused(Why.ON_BOARD, board=seat.board, player=player, opponent=opponent, round=number)
            self.db.execute("INSERT OR REPLACE INTO entries VALUES (?, ?, ?, ?, ?, ?)",
                            (number, player, opponent, score, against, at))
            other = self.db.execute("SELECT opponent, score, against FROM entries WHERE round = ? AND player = ?",
                                    (number, opponent)).fetchone()
            mine: HandCardJSON = {"player": player, "opponent": opponent, "score": score, "against": against}
            if other is None:
                return Entry("first", number, mine)
            theirs: HandCardJSON = {"player": opponent, "opponent": other[0], "score": other[1], "against": other[2]}
            if tuple(other) != (player, against, score):
                key = (HAND, f"{number:04d}", _pair_number(player, opponent))
                counted = self.db.execute("SELECT status FROM games WHERE board = ? AND log = ? AND game = ?",
                                          key).fetchone()
                self._count_hand(number, mine, WAITING, reason="disagreement",
                                 detail={"cards": [mine, theirs], "was": counted[0] if counted else None})
                return Entry("disagreement", number, mine, theirs)
            key = (HAND, f"{number:04d}", _pair_number(player, opponent))
            before = self.db.execute("SELECT status, sides, scores FROM games WHERE board = ? AND log = ? AND game = ?",
                                     key).fetchone()
            counted = before is not None and before[0] == COUNTS and sorted(zip(
                [tuple(side) for side in json.loads(before[1])], json.loads(before[2]), strict=True)) == sorted(
                [((player,), score), ((opponent,), against)])
            if self.playoffs_drawn() is not None and not counted:  # the same card again changes nothing
                self._count_hand(number, mine, WAITING, reason="late", detail={"cards": [mine, theirs]})
                return Entry("late", number, mine)
            self._count_hand(number, mine, COUNTS)
        return Entry("counts", number, mine)

    def _count_hand(self, number: int, card: HandCardJSON, status: str, *, reason: str | None = None,
                    detail: DetailJSON | None = None, target: int = 121) -> None:
        """The game of a card (`player`, `opponent`, `score`, `against`) in round `number`, as `status`."""
        player, opponent, score, against = card["player"], card["opponent"], card["score"], card["against"]
        lines = skunk_lines(target)
        loser_score = min(score, against)
        skunk: Literal["skunk", "double skunk"] | None = (
            "double skunk" if len(lines) > 1 and loser_score < lines[1] else "skunk" if loser_score < lines[0]
            else None)
        key = (HAND, f"{number:04d}", _pair_number(player, opponent))
        sides = [([player], score), ([opponent], against)]
        self._put_game(key, 0, number=number, stage=QUALIFYING, sides=sides, winner=0 if score > against else 1,
                       skunk=skunk, won=MATCH_SCORING["standard"][skunk], target=target, status=status,
                       reason=reason, detail=detail, at=time.time())

    # --- the playoffs ---------------------------------------------------------------------------------------

    def line_tie(self) -> LineTieJSON | None:
        """Players equal on everything the night ranks by across the qualifying line, were the playoffs drawn
        now: {"players": tied, "places": how many of them go through, "rank"}; None when the line is clear."""
        ranked = self._entrants()
        through = qualifiers(len(ranked)) if len(ranked) >= 2 else 0
        if not 0 < through < len(ranked) or ranked[through - 1].rank != ranked[through].rank:
            return None
        rank = ranked[through].rank
        tied = [s.player for s in ranked if s.rank == rank]
        return {"players": tied, "places": through - (rank - 1), "rank": rank}

    def _entrants(self) -> list[Standing]:
        field_ = set(self.field())
        return [s for s in self.standings() if not field_ or s.player in field_]

    def draw_playoffs(self, best_of: int | None = None, at: float | None = None,
                      lot: Callable[[list[str]], list[str]] | None = None) -> list[str]:
        """Seed the top quarter of the field (rounded up) by the standings into the playoffs; the qualifying
        ends here. Players tied across the line are parted by the night's rule: head-to-head (wins in the
        games between them), then a lot drawn here; both are recorded and shown to the director."""
        if self.playoffs_drawn() is not None:
            raise Refused(Why.DRAWN)
        best_of = best_of or self.setting("best_of") or 3
        bracket([], best_of, [])  # checks best_of
        self.keep_rules(best_of=best_of)
        ranked = self._entrants()
        if len(ranked) < 2:
            raise Refused(Why.TOO_FEW)
        count = qualifiers(len(ranked))
        tie = self.line_tie()
        seeds = [s.player for s in ranked[:count]]
        if tie is not None:
            above = [s.player for s in ranked if s.rank < tie["rank"]]
            parted = self._part(tie["players"], lot or _draw_lots)
            seeds = above + [p for p, _how in parted][:tie["places"]]
            self.set_setting("line_tie", {**tie, "order": [p for p, _how in parted],
                                          "by": [how for _p, how in parted], "rule": self.rules()["tie_break"]})
        with self.lock:
            self.db.executemany("INSERT INTO playoffs VALUES (?, ?)", list(enumerate(seeds, start=1)))
        self.set_setting("playoffs_drawn", time.time() if at is None else at)
        return seeds

    def _part(self, tied: list[str], lot: Callable[[list[str]], list[str]]) -> list[tuple[str, str]]:
        """The tied players in order: by wins in the qualifying games among themselves, equal ones by lot."""
        among = set(tied)
        wins = dict.fromkeys(tied, 0)
        for game in self.qualifying():
            if set(game.players) <= among and len(game.sides) == 2:
                wins[game.sides[game.winner][0]] += 1
        order: list[tuple[str, str]] = []
        for count in sorted(set(wins.values()), reverse=True):
            group = [p for p in tied if wins[p] == count]
            how = "head-to-head" if len(group) == 1 else "lot"
            order += [(p, how) for p in (lot(group) if len(group) > 1 else group)]
        return order

    def playoffs_drawn(self) -> float | None:
        drawn = self.setting("playoffs_drawn")
        return None if drawn is None else float(drawn)

    def bracket(self) -> BracketJSON | None:
        """The bracket as the playoff games have filled it: {"best_of", "seeds", "rounds": [[match]], "tie"}."""
        if self.playoffs_drawn() is None:
            return None
        with self.lock:
            seeds = [p for (p,) in self.db.execute("SELECT player FROM playoffs ORDER BY seed")]
        best_of = int(self.setting("best_of"))
        rounds = bracket(seeds, best_of, self.games(PLAYOFFS))
        return {"best_of": best_of, "seeds": seeds, "rounds": [[m.to_json() for m in r] for r in rounds],
                "tie": self.setting("line_tie")}

    def close(self) -> None:
        self.db.close()


def _draw_lots(players: list[str]) -> list[str]:
    drawn = list(players)
    secrets.SystemRandom().shuffle(drawn)
    return drawn


def _pair_number(a: str, b: str) -> int:
    """A hand-entered game's number in its round: the same for both players' entries."""
    return int.from_bytes(hashlib.sha256("\n".join(sorted((a, b))).encode()).digest()[:4], "big")


def table_sort(tables: list[TableJSON]) -> list[TableJSON]:
    """Tables in their seats' order, then by board id with its number read as a number (t2 before t10)."""
    def key(table: TableJSON) -> tuple[int, str, int]:
        digits = "".join(c for c in table["board"] if c.isdigit())
        seat = table.get("seat")
        return (10**6 if seat is None else seat["table"], table["board"].rstrip("0123456789"),
                int(digits) if digits else 0)
    return sorted(tables, key=key)
