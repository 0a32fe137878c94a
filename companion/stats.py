"""Statistics over every game a state directory has seen, kept in SQLite beside the logs.

The game logs (`STATE_DIR/games/NNNN.jsonl`) stay the source of truth. `history(state_dir)` brings the
database `STATE_DIR/stats.sqlite` up to date with them: a log whose size and modification time are what the
database last saw is not read again; any other log is replayed with the engine and its rows replaced; rows of
logs that are gone are dropped. A database that cannot be read (or from another schema) is rebuilt.

What is stored is what a replay gives, one row per game and side (`seats`), per deal and player (`deals`:
pegging, hand and crib counts, and for coached deals the points the discard gave away against the best
one, from `companion.advice.coach`), and the score after each deal (`race`), for the picture.

A log that cannot be read is reported by name and left out; a torn last line is dropped (the log is only
read, never repaired) and what comes before it counts.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import closing, contextmanager
from dataclasses import dataclass, replace
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from companion.advice.coach import review_discard
from companion.cribbage.errors import CribbageError
from companion.cribbage.game import PLAY_LABELS, GameState, apply, initial_state, skunk_lines
from companion.cribbage.transcript import GameInput, Input, UndoInput
from companion.fonts import MONO
from companion.gamelog import GameLog, GameLogError, games_dir

DATABASE = "stats.sqlite"
SCHEMA_VERSION = 1
SCHEMA = """
CREATE TABLE logs (path TEXT PRIMARY KEY, size INTEGER, mtime_ns INTEGER, problems TEXT NOT NULL);
CREATE TABLE games (log TEXT, game INTEGER, sides TEXT, target INTEGER, finished INTEGER, winner TEXT,
                    skunk TEXT, PRIMARY KEY (log, game));
CREATE TABLE seats (log TEXT, game INTEGER, player TEXT, side TEXT, score INTEGER, won INTEGER,
                    skunk_given INTEGER, skunk_taken INTEGER, match_points INTEGER);
CREATE TABLE deals (log TEXT, game INTEGER, deal INTEGER, player TEXT, pegging INTEGER, hand INTEGER,
                    crib INTEGER, discard_loss REAL);
CREATE TABLE race (log TEXT, game INTEGER, deal INTEGER, side TEXT, score INTEGER);
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

    def to_json(self) -> dict[str, object]:
        return {key: round(value, 3) if isinstance(value, float) else value
                for key, value in ((name, getattr(self, name)) for name in self.__slots__)}


@dataclass(frozen=True, slots=True)
class Race:
    """The latest game: the score of each side after each deal (deal 0 is the start)."""

    log: str
    game: int
    sides: tuple[str, ...]
    target: int
    scores: tuple[tuple[int, ...], ...]  # per deal, in the order of `sides`
    winner: str | None
    skunk: str | None

    def to_json(self) -> dict[str, object]:
        return {"log": self.log, "game": self.game, "target": self.target, "winner": self.winner,
                "skunk": self.skunk, "scores": {side: [deal[i] for deal in self.scores]
                                                for i, side in enumerate(self.sides)}}


@dataclass(frozen=True, slots=True)
class Report:
    logs: int
    games: int  # finished games
    unfinished: int
    players: tuple[PlayerStats, ...]
    latest: Race | None
    problems: tuple[str, ...]  # logs left out or repaired while reading, by name

    def to_json(self) -> dict[str, object]:
        return {"logs": self.logs, "games": self.games, "unfinished": self.unfinished,
                "players": {p.player: p.to_json() for p in self.players},
                "latest": self.latest.to_json() if self.latest else None, "problems": list(self.problems)}


# --- from a log to rows ------------------------------------------------------------------------------------

@dataclass
class _Rows:
    games: list[tuple[object, ...]]
    seats: list[tuple[object, ...]]
    deals: list[tuple[object, ...]]
    race: list[tuple[object, ...]]


def games_of(inputs: Sequence[Input]) -> list[GameState]:
    """Each game of a log (a match log holds several) as its final state; undo inputs are resolved first."""
    effective: list[Input] = []
    for inp in inputs:
        if isinstance(inp, UndoInput):
            if not effective:
                raise CribbageError("an undo with nothing before it")
            effective.pop()
        else:
            effective.append(inp)
    games: list[GameState] = []
    state = initial_state()
    for inp in effective:
        if isinstance(inp, GameInput) and state.phase != "new":
            games.append(state)
        state = apply(state, inp)
    return [*games, state] if state.phase != "new" else games


def _rows(log: str, games: Sequence[GameState]) -> _Rows:
    rows = _Rows([], [], [], [])
    for number, state in enumerate(games, 1):
        finished = state.winner is not None
        rows.games.append((log, number, json.dumps(state.sides), state.target, finished, state.winner, state.skunk))
        for player in state.players:
            side = state.side_of[player]
            won = finished and side == state.winner
            lost = finished and not won
            points = state.rules.match_points(state.skunk) if won else 0
            rows.seats.append((log, number, player, side, state.scores[side], won, won and state.skunk is not None,
                               lost and state.skunk is not None, points))
        race = dict.fromkeys(state.sides, 0)
        rows.race += [(log, number, 0, side, 0) for side in state.sides]
        for record in state.deals:
            events = [e for e in state.events if e.deal == record.number]
            for e in events:
                race[e.side] += e.points
            rows.race += [(log, number, record.number, side, race[side]) for side in state.sides]
            if record.starter is None:
                continue
            for player in state.players:
                pegging = sum(e.points for e in events if e.player == player and e.label in PLAY_LABELS)
                hand = next((e.score.total for e in events if e.label == f"{player}'s hand"), None)
                crib = next((e.score.total for e in events if e.label == f"{player}'s crib"), None)
                review = None
                if player in record.hands and player in record.discards:
                    review = review_discard(replace(state, hands=record.hands, discards=record.discards,
                                                    dealer=record.dealer), player)
                rows.deals.append((log, number, record.number, player, pegging, hand, crib,
                                   review.loss if review else None))
    return rows


def read_log(path: Path) -> tuple[_Rows, list[str]]:
    """The rows of one log and what went wrong reading it (the log is left as it is)."""
    try:
        game_log = GameLog.open(path, repair=False)
    except (GameLogError, OSError) as error:
        return _Rows([], [], [], []), [f"{error}; its games are left out of the statistics"]
    try:
        games = games_of(game_log.inputs)
    except CribbageError as error:
        return _Rows([], [], [], []), [f"{path}: the engine refuses an input ({error}); its games are left out of "
                                       "the statistics"]
    return _rows(path.name, games), list(game_log.warnings)


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


def _sync(connection: sqlite3.Connection, state_dir: Path) -> list[str]:
    """Bring the tables up to date with the logs; the problems of every log, old and new."""
    logs = sorted(games_dir(state_dir).glob("*.jsonl"))
    known = {path: (size, mtime, json.loads(problems)) for path, size, mtime, problems
             in connection.execute("SELECT path, size, mtime_ns, problems FROM logs")}
    problems: list[str] = []
    with connection:
        for gone in set(known) - {p.name for p in logs}:
            _forget(connection, gone)
        for path in logs:
            stat = path.stat()
            seen = known.get(path.name)
            if seen is not None and seen[:2] == (stat.st_size, stat.st_mtime_ns):
                problems += seen[2]
                continue
            rows, found = read_log(path)
            _forget(connection, path.name)
            connection.execute("INSERT INTO logs VALUES (?, ?, ?, ?)",
                               (path.name, stat.st_size, stat.st_mtime_ns, json.dumps(found)))
            connection.executemany("INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?)", rows.games)
            connection.executemany("INSERT INTO seats VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", rows.seats)
            connection.executemany("INSERT INTO deals VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows.deals)
            connection.executemany("INSERT INTO race VALUES (?, ?, ?, ?, ?)", rows.race)
            problems += found
    return problems


def _forget(connection: sqlite3.Connection, log: str) -> None:
    for table in ("logs", "games", "seats", "deals", "race"):
        connection.execute(f"DELETE FROM {table} WHERE {'path' if table == 'logs' else 'log'} = ?", (log,))


def history(state_dir: Path) -> Report:
    """The statistics of every game logged in `state_dir`, the database brought up to date first."""
    with _database(state_dir) as connection:
        problems = _sync(connection, state_dir)
        return _report(connection, problems)


def _report(connection: sqlite3.Connection, problems: list[str]) -> Report:
    query = connection.execute
    (logs,) = query("SELECT COUNT(*) FROM logs").fetchone()
    finished, unfinished = query("SELECT COALESCE(SUM(finished), 0), COALESCE(SUM(1 - finished), 0) "
                                 "FROM games").fetchone()
    seats = {row[0]: row[1:] for row in query(
        "SELECT player, COUNT(*), SUM(won), SUM(skunk_given), SUM(skunk_taken), SUM(match_points) "
        "FROM seats JOIN games USING (log, game) WHERE finished GROUP BY player")}
    deals = {row[0]: row[1:] for row in query(
        "SELECT player, COUNT(*), AVG(pegging), COUNT(hand), AVG(hand), COUNT(crib), AVG(crib), MAX(hand), "
        "COUNT(discard_loss), AVG(discard_loss) FROM deals GROUP BY player")}
    no_games, no_deals = (0, 0, 0, 0, 0), (0, None, 0, None, 0, None, None, 0, None)
    players = [PlayerStats(player, *seats.get(player, no_games), *deals.get(player, no_deals))
               for player in sorted(set(seats) | set(deals))]
    return Report(logs, finished, unfinished, tuple(players), _latest(connection), tuple(problems))


def _latest(connection: sqlite3.Connection) -> Race | None:
    row = connection.execute(
        "SELECT log, game, sides, target, winner, skunk FROM games WHERE EXISTS "
        "(SELECT 1 FROM race WHERE race.log = games.log AND race.game = games.game AND deal > 0) "
        "ORDER BY log DESC, game DESC LIMIT 1").fetchone()
    if row is None:
        return None
    log, game, sides_json, target, winner, skunk = row
    sides = tuple(json.loads(sides_json))
    by_deal: dict[int, dict[str, int]] = {}
    for deal, side, score in connection.execute("SELECT deal, side, score FROM race WHERE log = ? AND game = ?",
                                                (log, game)):
        by_deal.setdefault(deal, {})[side] = score
    scores = tuple(tuple(by_deal[deal][side] for side in sides) for deal in sorted(by_deal))
    return Race(log, game, sides, target, scores, winner, skunk)


# --- the picture -------------------------------------------------------------------------------------------

WIDTH, HEIGHT = 1000, 760
COLOURS = ((200, 40, 40), (30, 90, 200), (30, 150, 60), (200, 130, 0))
INK, GRID, PAPER = (30, 30, 30), (215, 215, 215), (255, 255, 255)


def picture(report: Report) -> Image.Image:
    """The score race of the latest game and the per-player averages, as an RGB image."""
    image = Image.new("RGB", (WIDTH, HEIGHT), PAPER)
    draw = ImageDraw.Draw(image)
    title = ImageFont.truetype(str(MONO), 22)
    font = ImageFont.truetype(str(MONO), 15)
    draw.text((20, 12), f"Cribbage statistics: {report.games} games finished, {report.unfinished} under way",
              font=title, fill=INK)
    if report.latest is not None:
        _race(draw, report.latest, (70, 60, WIDTH - 170, 380), font)
    else:
        draw.text((70, 200), "No game has a deal yet.", font=font, fill=INK)
    _bars(draw, report.players, (70, 460, WIDTH - 30, HEIGHT - 60), font)
    return image


def _race(draw: ImageDraw.ImageDraw, race: Race, box: tuple[int, int, int, int],
          font: ImageFont.FreeTypeFont) -> None:
    left, top, right, bottom = box
    deals = max(1, len(race.scores) - 1)
    top += 30
    outcome = (f"{race.winner} wins" + (f", a {race.skunk}" if race.skunk else "") if race.winner
               else "under way")
    draw.text((left, top - 30), f"Latest game ({race.log}, game {race.game}): score after each deal - {outcome}",
              font=font, fill=INK)

    def x(deal: float) -> float:
        return left + (right - left) * deal / deals

    def y(score: float) -> float:
        return bottom - (bottom - top) * score / race.target

    for score in range(0, race.target + 1, 30):
        draw.line((left, y(score), right, y(score)), fill=GRID)
        draw.text((left - 8, y(score)), str(score), font=font, fill=INK, anchor="rm")
    for deal in range(deals + 1):
        draw.text((x(deal), bottom + 6), str(deal), font=font, fill=INK, anchor="mt")
    draw.text(((left + right) / 2, bottom + 24), "deal", font=font, fill=INK, anchor="mt")
    draw.line((left, top, left, bottom), fill=INK)
    draw.line((left, bottom, right, bottom), fill=INK)
    skunk, double = skunk_lines(race.target)
    for line, words in ((race.target, f"game {race.target}"), (skunk - 0.5, f"skunk line {skunk - 1}"),
                        (double - 0.5, f"double skunk {double - 1}")):
        _dashed(draw, left, right, y(line), (150, 150, 150) if line != race.target else INK)
        draw.text((right + 6, y(line)), words, font=font, fill=INK, anchor="lm")
    for index, side in enumerate(race.sides):
        colour = COLOURS[index % len(COLOURS)]
        points = [(x(deal), y(scores[index])) for deal, scores in enumerate(race.scores)]
        draw.line(points, fill=colour, width=3)
        for px, py in points:
            draw.ellipse((px - 4, py - 4, px + 4, py + 4), fill=colour)
        if side == race.winner:  # a ring round the winning peg
            px, py = points[-1]
            draw.ellipse((px - 9, py - 9, px + 9, py + 9), outline=colour, width=3)
        mark = " - winner" if side == race.winner else ""
        legend_y = top + 10 + 20 * index
        draw.line((left + 14, legend_y, left + 40, legend_y), fill=colour, width=3)
        draw.text((left + 48, legend_y), f"{side} {race.scores[-1][index]}{mark}", font=font, fill=colour,
                  anchor="lm")


def _dashed(draw: ImageDraw.ImageDraw, left: float, right: float, y: float, colour: tuple[int, int, int]) -> None:
    start = left
    while start < right:
        draw.line((start, y, min(start + 10, right), y), fill=colour, width=2)
        start += 18


def _bars(draw: ImageDraw.ImageDraw, players: Sequence[PlayerStats], box: tuple[int, int, int, int],
          font: ImageFont.FreeTypeFont) -> None:
    left, top, right, bottom = box
    draw.text((left, top - 30), "Averages per player: pegging a deal, hand, crib (and discard loss, coached)",
              font=font, fill=INK)
    measures = (("pegging", (90, 90, 90)), ("hand", (30, 90, 200)), ("crib", (30, 150, 60)),
                ("discard_loss", (200, 40, 40)))
    values = [[getattr(p, name) for name, _ in measures] for p in players]
    highest = max([v for row in values for v in row if v is not None] + [1.0])
    draw.line((left, bottom, right, bottom), fill=INK)
    if not players:
        draw.text((left, top + 40), "No deal has been played yet.", font=font, fill=INK)
        return
    group = (right - left) / len(players)
    bar = min(60.0, group / (len(measures) + 1.5))
    for g, (stats, row) in enumerate(zip(players, values, strict=True)):
        start = left + g * group + (group - bar * len(measures)) / 2
        for m, ((_, colour), value) in enumerate(zip(measures, row, strict=True)):
            x0 = start + m * bar
            if value is None:
                draw.text((x0 + bar / 2, bottom - 4), "-", font=font, fill=INK, anchor="mb")
                continue
            height = (bottom - top - 20) * value / highest
            draw.rectangle((x0 + 3, bottom - height, x0 + bar - 3, bottom), fill=colour)
            draw.text((x0 + bar / 2, bottom - height - 3), f"{value:.1f}", font=font, fill=INK, anchor="mb")
        record = f"{stats.player}: {stats.wins} of {stats.games} won"
        draw.text((left + g * group + group / 2, bottom + 8), record, font=font, fill=INK, anchor="mt")
    x0 = left
    for name, colour in measures:
        draw.rectangle((x0, bottom + 32, x0 + 14, bottom + 46), fill=colour)
        words = {"pegging": "pegging a deal", "discard_loss": "lost to the best discard"}.get(name, name)
        draw.text((x0 + 20, bottom + 39), words, font=font, fill=INK, anchor="lm")
        x0 += 40 + int(draw.textlength(words, font=font))
