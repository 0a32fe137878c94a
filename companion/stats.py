"""Statistics over every game a state directory has seen, kept in SQLite beside the logs.

The game logs (`STATE_DIR/games/NNNN.jsonl`) stay the source of truth. `history(state_dir)` brings the
database `STATE_DIR/stats.sqlite` up to date with them: a log whose size and modification time are what the
database last saw is not read again; any other log is replayed with the engine and its rows replaced; rows of
logs that are gone are dropped. A database that cannot be read (or from another schema) is rebuilt.

What is stored is what a replay gives, one row per game and side (`seats`), per deal played out and player
(`deals`: pegging, hand and crib counts, and for coached deals the cards laid away, the best discard and the
points the discard gave away against it, from `companion.advice.coach`), and the score after each deal
(`race`), for the picture.

A log that cannot be read is reported by name and left out; a torn last line is dropped (the log is only
read, never repaired) and what comes before it counts. Its problems are kept whole in the database, each kind
with its facts, so they are said again without reading the log while it stays as it is.

Only facts here: a game's name, a refusal of a selection and the picture are said by
`companion.words.statistics`, in the language it is handed.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import closing, contextmanager
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path

from companion.cribbage.errors import CribbageError
from companion.cribbage.facts import Phase, ScoreKind
from companion.cribbage.game import GameState, apply, initial_state
from companion.cribbage.transcript import GameInput, Input, UndoInput
from companion.gamelog import GameLog, GameLogError, games_dir, settings_path
from companion.i18n import Language
from companion.words.contract import PlayerStatsJSON, RaceJSON, SideJSON, SkunkName, StatsGameJSON, StatsJSON
from companion.words.projection import side_json
from companion.words.statistics import (
    LogProblem,
    SelectionRefusal,
    Trouble,
    Unfit,
    game_name,
    problem_words,
)

DATABASE = "stats.sqlite"
SCHEMA_VERSION = 7  # 5: a game's sides as the projection's, named elsewhere by their index; 6: a log's problems by
# kind; 7: a log's problems whole, each kind with its facts (words.statistics.LogProblem.to_json; its first days
# kept them as a bare list, which `_known` cannot read back: their logs are read again)
SCHEMA = """
CREATE TABLE logs (path TEXT PRIMARY KEY, size INTEGER, mtime_ns INTEGER, problems TEXT NOT NULL);
CREATE TABLE games (log TEXT, game INTEGER, sides TEXT, target INTEGER, finished INTEGER, winner INTEGER,
                    skunk TEXT, played TEXT, levels TEXT, PRIMARY KEY (log, game));
CREATE TABLE seats (log TEXT, game INTEGER, player TEXT, side INTEGER, score INTEGER, won INTEGER,
                    skunk_given INTEGER, skunk_taken INTEGER, match_points INTEGER);
CREATE TABLE deals (log TEXT, game INTEGER, deal INTEGER, player TEXT, pegging INTEGER, hand INTEGER,
                    crib INTEGER, discard_loss REAL, laid TEXT, best TEXT);
CREATE TABLE race (log TEXT, game INTEGER, deal INTEGER, side INTEGER, score INTEGER);
"""


@dataclass(frozen=True, slots=True)
class PlayerStats:
    player: str
    games: int  # finished games
    wins: int
    skunks_given: int  # double skunks included
    skunks_taken: int
    match_points: int
    deals: int  # deals with a starter turned
    pegging: float | None  # average pegged a deal
    hands: int  # hands counted
    hand: float | None  # average hand
    cribs: int
    crib: float | None  # average crib, over the cribs counted for the player
    best_hand: int | None
    coached: int  # deals whose hand and discard were entered
    discard_loss: float | None  # average points given away against the best discard, coached deals

    def to_json(self) -> PlayerStatsJSON:
        return {"player": self.player, "games": self.games, "wins": self.wins, "skunks_given": self.skunks_given,
                "skunks_taken": self.skunks_taken, "match_points": self.match_points, "deals": self.deals,
                "pegging": _rounded(self.pegging), "hands": self.hands, "hand": _rounded(self.hand),
                "cribs": self.cribs, "crib": _rounded(self.crib), "best_hand": self.best_hand,
                "coached": self.coached, "discard_loss": _rounded(self.discard_loss)}


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 3)


@dataclass(frozen=True, slots=True)
class Race:
    """The latest game: the score of each side after each deal (deal 0 is the start)."""

    log: str
    game: int
    sides: tuple[SideJSON, ...]  # as the projection's, at the game's end
    target: int
    scores: tuple[tuple[int, ...], ...]  # per deal, in the order of `sides`
    winner: int | None  # an index in `sides`
    skunk: SkunkName | None
    played: str = ""  # as `Game.played`
    levels: tuple[tuple[str, str], ...] = ()  # as `Game.levels`
    finished: bool = False

    def to_json(self, lang: Language) -> RaceJSON:
        """The race, named in `lang` (`words.statistics.game_name`)."""
        return {"log": self.log, "game": self.game, "target": self.target, "sides": list(self.sides),
                "winner": self.winner, "skunk": self.skunk, "name": game_name(self, lang), "finished": self.finished,
                "race": [[deal[i] for deal in self.scores] for i in range(len(self.sides))]}


@dataclass(frozen=True, slots=True)
class Game:
    """One game as `crib stats` lists it: numbered from 1 over every log in order (`--game N`)."""

    number: int
    log: str
    game: int
    sides: tuple[SideJSON, ...]  # as the projection's, at the game's end
    winner: int | None  # an index in `sides`
    skunk: SkunkName | None
    played: str = ""  # when its log was last written, to the minute (YYYY-MM-DDTHH:MM, local time)
    levels: tuple[tuple[str, str], ...] = ()  # the computer players' levels, by name
    finished: bool = False

    def to_json(self, lang: Language) -> StatsGameJSON:
        """The game, named in `lang` (`words.statistics.game_name`)."""
        day, _at, time = self.played.partition("T")
        return {"number": self.number, "log": self.log, "game": self.game, "sides": list(self.sides),
                "winner": self.winner, "skunk": self.skunk, "finished": self.finished, "played": day, "time": time,
                "levels": dict(self.levels), "name": game_name(self, lang)}


@dataclass(frozen=True, slots=True)
class Selection:
    """Which games count: game number N, the last N games, the games a player played in (None: all)."""

    game: int | None = None
    last: int | None = None
    player: str | None = None


@dataclass(frozen=True, slots=True)
class Report:
    logs: int
    games: int  # finished games
    unfinished: int
    players: tuple[PlayerStats, ...]
    latest: Race | None
    problems: tuple[LogProblem, ...]  # logs left out or read in part (`words.statistics.problem_words` says them)
    chosen: tuple[Game, ...] = ()  # the games counted, in order
    hand_counts: tuple[tuple[str, tuple[int, ...]], ...] = ()  # per player: hands counted by score 0..29

    def to_json(self, lang: Language) -> StatsJSON:
        """The statistics as JSON, the games named and the problems said in `lang`."""
        return {"logs": self.logs, "games": self.games, "unfinished": self.unfinished,
                "players": {p.player: p.to_json() for p in self.players},
                "latest": self.latest.to_json(lang) if self.latest else None,
                "problems": [problem_words(p, lang) for p in self.problems],
                "chosen": [g.to_json(lang) for g in self.chosen],
                "hand_counts": {player: list(counts) for player, counts in self.hand_counts}}


class SelectionError(CribbageError, ValueError):
    """A selection no game fits: `refusal` says why, with what there is (`words.statistics.selection_words` says it);
    `str(err)` is its code and facts, for logs."""

    refusal: SelectionRefusal

    def __init__(self, refusal: SelectionRefusal) -> None:
        super().__init__(refusal)


# --- from a log to rows ------------------------------------------------------------------------------------

@dataclass
class _Rows:
    games: list[tuple[object, ...]]
    seats: list[tuple[object, ...]]
    deals: list[tuple[object, ...]]
    race: list[tuple[object, ...]]


def games_of(game_log: GameLog) -> list[GameState]:
    """Each game of a log (a match log holds several) as its final state; undo inputs are resolved first. Its
    reader replayed it (`GameLog.open`): every undo has an input to take back, and the engine takes every input."""
    effective: list[Input] = []
    for inp in game_log.inputs:
        if isinstance(inp, UndoInput):
            effective.pop()
        else:
            effective.append(inp)
    games: list[GameState] = []
    state = initial_state()
    for inp in effective:
        if isinstance(inp, GameInput) and state.phase is not Phase.NEW:
            games.append(state)
        state = apply(state, inp)
    return [*games, state] if state.phase is not Phase.NEW else games


def finished_deal(state: GameState, deal: int) -> bool:
    """Whether a deal was played out: its hands counted, or the game won in it (an unfinished deal's pegging
    would lower the averages)."""
    if state.winner is not None and deal == state.deal_number:
        return True
    return any(e.deal == deal and e.kind is ScoreKind.HAND for e in state.events)


def computer_levels(path: Path, players: Sequence[str]) -> dict[str, str]:
    """The computer players' levels of a game against the computer (from the settings kept beside its log:
    the person, then one level a computer player, seated in that order), else none."""
    try:
        settings = json.loads(settings_path(path).read_text())
        levels = [str(level) for level in settings["levels"]]
    except (OSError, ValueError, KeyError, TypeError):
        return {}
    return dict(zip(players[1:], levels, strict=False)) if len(levels) == len(players) - 1 else {}


def _rows(log: str, games: Sequence[GameState], played: str = "", path: Path | None = None) -> _Rows:
    rows = _Rows([], [], [], [])
    for number, state in enumerate(games, 1):
        finished = state.winner is not None
        index = {side: i for i, side in enumerate(state.sides)}  # a side is named by its index, as the projection does
        winner = None if state.winner is None else index[state.winner]
        levels = computer_levels(path, state.players) if path is not None else {}
        rows.games.append((log, number, json.dumps([side_json(state, side) for side in state.sides]), state.target,
                           finished, winner, state.skunk, played, json.dumps(levels)))
        for player in state.players:
            side = state.side_of[player]
            won = finished and side == state.winner
            lost = finished and not won
            points = state.rules.match_points(state.skunk) if won else 0
            rows.seats.append((log, number, player, index[side], state.scores[side], won,
                               won and state.skunk is not None, lost and state.skunk is not None, points))
        race = dict.fromkeys(state.sides, 0)
        rows.race += [(log, number, 0, index[side], 0) for side in state.sides]
        for record in state.deals:
            events = [e for e in state.events if e.deal == record.number]
            for e in events:
                race[e.side] += e.points
            rows.race += [(log, number, record.number, index[side], race[side]) for side in state.sides]
            if record.starter is None or not finished_deal(state, record.number):
                continue
            for player in state.players:
                pegging = sum(e.points for e in events if e.player == player and e.kind.in_play)
                hand = next((e.score.total for e in events if (e.kind, e.player) == (ScoreKind.HAND, player)), None)
                crib = next((e.score.total for e in events if (e.kind, e.player) == (ScoreKind.CRIB, player)), None)
                review = None
                if player in record.hands and player in record.discards:
                    from companion.advice.coach import review_discard  # numpy: only for coached deals

                    review = review_discard(replace(state, hands=record.hands, discards=record.discards,
                                                    dealer=record.dealer), player)
                laid, best = ((json.dumps([str(c) for c in review.chosen.discard]),
                               json.dumps([str(c) for c in review.best.discard])) if review else (None, None))
                rows.deals.append((log, number, record.number, player, pegging, hand, crib,
                                   review.loss if review else None, laid, best))
    return rows


def read_log(path: Path) -> tuple[_Rows, list[LogProblem]]:
    """The rows of one log and what went wrong reading it (the log is left as it is)."""
    game_log, games, problems = _games_in(path)
    if game_log is None:
        return _Rows([], [], [], []), problems
    played = datetime.fromtimestamp(path.stat().st_mtime).isoformat(timespec="minutes")
    return _rows(path.name, games, played, path), problems


def _games_in(path: Path) -> tuple[GameLog | None, list[GameState], list[LogProblem]]:
    """The log, its games and what went wrong reading it; no log when it is left out."""
    try:
        game_log = GameLog.open(path, repair=False)
    except GameLogError as error:  # it says why, naming the file (a disk error, a line the engine refuses too)
        return None, [], [LogProblem(Trouble.UNREADABLE, error.refusal)]
    return game_log, games_of(game_log), [LogProblem(Trouble.NOTED, finding) for finding in game_log.warnings]


def _stored(path: Path, problems: Sequence[LogProblem]) -> str:
    """A log's problems as the database keeps them: whole, each kind with its facts, and the path they name
    (`_known` reads them back)."""
    return json.dumps({"read": str(path), "problems": [p.to_json() for p in problems]})


def _known(stored: str, path: Path) -> list[LogProblem] | None:
    """A log's problems kept in the database, so the log is not read again while it stays as it is; None when
    they name the log by another path (the state directory was moved, or given another way): their words would;
    None too for what this version cannot read back (a cell damaged or written otherwise): the log is read again."""
    try:
        kept = json.loads(stored)
        if kept["problems"] and kept["read"] != str(path):
            return None
        return [LogProblem.from_json(p) for p in kept["problems"]]
    except (ValueError, KeyError, TypeError):  # ValueError: not JSON, or a kind this version does not know
        return None


# --- the database ------------------------------------------------------------------------------------------

@contextmanager
def _database(state_dir: Path) -> Iterator[sqlite3.Connection]:
    path = state_dir / DATABASE
    try:
        connection = _connect(path)
    except sqlite3.DatabaseError:  # not a database, or a damaged one: the logs have everything
        path.unlink()
        connection = _connect(path)
    with closing(connection):
        yield connection


def _connect(path: Path) -> sqlite3.Connection:
    connection = sqlite3.connect(path)
    try:
        if connection.execute("PRAGMA user_version").fetchone()[0] != SCHEMA_VERSION:
            with connection:
                for (table,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall():
                    connection.execute(f'DROP TABLE "{table}"')
                connection.executescript(SCHEMA)
                connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    except sqlite3.DatabaseError:
        connection.close()
        raise
    return connection


def _sync(connection: sqlite3.Connection, state_dir: Path) -> list[LogProblem]:
    """Bring the tables up to date with the logs; the problems of every log, old and new."""
    logs = sorted(games_dir(state_dir).glob("*.jsonl"))
    known = {path: (size, mtime, problems) for path, size, mtime, problems
             in connection.execute("SELECT path, size, mtime_ns, problems FROM logs")}
    problems: list[LogProblem] = []
    with connection:
        for gone in set(known) - {p.name for p in logs}:
            _forget(connection, gone)
        for path in logs:
            stat = path.stat()
            seen = known.get(path.name)
            kept = _known(seen[2], path) if seen is not None and seen[:2] == (stat.st_size, stat.st_mtime_ns) else None
            if kept is not None:
                problems += kept
                continue
            rows, found = read_log(path)
            _forget(connection, path.name)
            connection.execute("INSERT INTO logs VALUES (?, ?, ?, ?)",
                               (path.name, stat.st_size, stat.st_mtime_ns, _stored(path, found)))
            connection.executemany("INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", rows.games)
            connection.executemany("INSERT INTO seats VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", rows.seats)
            connection.executemany("INSERT INTO deals VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows.deals)
            connection.executemany("INSERT INTO race VALUES (?, ?, ?, ?, ?)", rows.race)
            problems += found
    return problems


def _forget(connection: sqlite3.Connection, log: str) -> None:
    for table in ("logs", "games", "seats", "deals", "race"):
        connection.execute(f"DELETE FROM {table} WHERE {'path' if table == 'logs' else 'log'} = ?", (log,))


def history(state_dir: Path, selection: Selection | None = None) -> Report:
    """The statistics of the games logged in `state_dir` (those of `selection`, else all), the database
    brought up to date first. A selection no game fits raises SelectionError."""
    with _database(state_dir) as connection:
        problems = _sync(connection, state_dir)
        return _report(connection, problems, selection or Selection())


def _games(connection: sqlite3.Connection) -> list[Game]:
    rows = connection.execute("SELECT log, game, sides, winner, skunk, played, levels, finished FROM games "
                              "ORDER BY log, game").fetchall()
    return [Game(number, log, game, tuple(json.loads(sides)), winner, skunk, played,
                 tuple(json.loads(levels).items()), bool(finished))
            for number, (log, game, sides, winner, skunk, played, levels, finished) in enumerate(rows, 1)]


def _choose(connection: sqlite3.Connection, selection: Selection) -> list[Game]:
    games = every = _games(connection)
    if selection.player is not None:
        players = sorted({p for (p,) in connection.execute("SELECT DISTINCT player FROM seats")})
        if selection.player not in players:
            raise SelectionError(SelectionRefusal(Unfit.NO_PLAYER, selection.player, tuple(players)))
        theirs = set(connection.execute("SELECT log, game FROM seats WHERE player = ?", (selection.player,)))
        games = [g for g in games if (g.log, g.game) in theirs]
    if selection.game is not None:
        if not 1 <= selection.game <= len(every):
            raise SelectionError(SelectionRefusal(Unfit.NO_GAME, game=selection.game, count=len(every)))
        games = [g for g in games if g.number == selection.game]
        if not games:
            raise SelectionError(SelectionRefusal(Unfit.NOT_IN_GAME, selection.player, game=selection.game))
    if selection.last is not None:
        if selection.last < 1:
            raise SelectionError(SelectionRefusal(Unfit.LAST, count=selection.last))
        games = games[-selection.last:]
    return games


def _report(connection: sqlite3.Connection, problems: list[LogProblem], selection: Selection) -> Report:
    chosen = _choose(connection, selection)
    connection.execute("CREATE TEMP TABLE IF NOT EXISTS chosen (log TEXT, game INTEGER)")
    connection.execute("DELETE FROM chosen")
    connection.executemany("INSERT INTO chosen VALUES (?, ?)", [(g.log, g.game) for g in chosen])
    query = connection.execute
    (logs,) = query("SELECT COUNT(DISTINCT log) FROM chosen").fetchone()
    if selection == Selection():
        (logs,) = query("SELECT COUNT(*) FROM logs").fetchone()  # logs without a game count too
    finished, unfinished = query("SELECT COALESCE(SUM(finished), 0), COALESCE(SUM(1 - finished), 0) "
                                 "FROM games JOIN chosen USING (log, game)").fetchone()
    seats = {row[0]: row[1:] for row in query(
        "SELECT player, COUNT(*), SUM(won), SUM(skunk_given), SUM(skunk_taken), SUM(match_points) "
        "FROM seats JOIN games USING (log, game) JOIN chosen USING (log, game) WHERE finished GROUP BY player")}
    deals = {row[0]: row[1:] for row in query(
        "SELECT player, COUNT(*), AVG(pegging), COUNT(hand), AVG(hand), COUNT(crib), AVG(crib), MAX(hand), "
        "COUNT(discard_loss), AVG(discard_loss) FROM deals JOIN chosen USING (log, game) GROUP BY player")}
    no_games, no_deals = (0, 0, 0, 0, 0), (0, None, 0, None, 0, None, None, 0, None)
    names = sorted(set(seats) | set(deals))
    if selection.player is not None:
        names = [selection.player]
    players = [PlayerStats(player, *seats.get(player, no_games), *deals.get(player, no_deals)) for player in names]
    hands: dict[str, list[int]] = {player: [0] * 30 for player in names}
    for player, hand, n in query("SELECT player, hand, COUNT(*) FROM deals JOIN chosen USING (log, game) "
                                 "WHERE hand IS NOT NULL GROUP BY player, hand"):
        if player in hands:
            hands[player][hand] = n
    return Report(logs, finished, unfinished, tuple(players), _latest(connection), tuple(problems), tuple(chosen),
                  tuple((player, tuple(counts)) for player, counts in hands.items()))


def _latest(connection: sqlite3.Connection) -> Race | None:
    """The latest finished game of those chosen with a deal in it, else the latest under way."""
    row = connection.execute(
        "SELECT log, game, sides, target, winner, skunk, played, levels, finished FROM games "
        "JOIN chosen USING (log, game) WHERE EXISTS "
        "(SELECT 1 FROM race WHERE race.log = games.log AND race.game = games.game AND deal > 0) "
        "ORDER BY finished DESC, log DESC, game DESC LIMIT 1").fetchone()
    if row is None:
        return None
    log, game, sides_json, target, winner, skunk, played, levels, finished = row
    sides: tuple[SideJSON, ...] = tuple(json.loads(sides_json))
    by_deal: dict[int, dict[int, int]] = {}
    for deal, side, score in connection.execute("SELECT deal, side, score FROM race WHERE log = ? AND game = ?",
                                                (log, game)):
        by_deal.setdefault(deal, {})[side] = score
    scores = tuple(tuple(by_deal[deal][side] for side in range(len(sides))) for deal in sorted(by_deal))
    return Race(log, game, sides, target, scores, winner, skunk, played, tuple(json.loads(levels).items()),
                bool(finished))
