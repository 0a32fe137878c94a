"""Club night figures for `crib bench`: 50 simulated boards through one local Mosquitto into one scoreboard.

Each board writes a recorded computer game into its own game log and wakes its publisher, as the daemon
does; the scoreboard is `crib club` in a process of its own (its memory is its own). Figures:

- paced: every board enters an input every 0.3 s (ten times a person's speed, about one every 3 s):
  events_per_second offered and received, the delay from a board taking an input to the scoreboard having it
  (median and p99, one clock: the same machine), and the scoreboard's resident memory (peak);
- flood: every board sends the rest of its game and a whole new one at once: how many events a second the
  scoreboard takes in.
- tournament: a weekend event, 128 players on 64 boards, the rounds drawn by the ACC movement and seated
  through the scoreboard (each board hears its players), every board playing a whole game to 121 a round at
  the paced speed, the scoreboard ranking by ACC game points: the delay from a game's last input to standings
  that count it (median, p99; goal p99 <= 1 s), the scoreboard's memory, and that every player's games add up.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from typing_extensions import TypedDict

if TYPE_CHECKING:
    from companion.club.payloads import FiguresJSON, StandingJSON
    from companion.club.publisher import Publisher

BOARDS = 50
PACE = 0.3  # seconds between a board's inputs: ten times human speed
TOURNAMENT_BOARDS = 64  # 128 players
TOURNAMENT_GAMES = 22  # rounds: every board plays this many games ($CRIB_BENCH_TOURNAMENT_GAMES: fewer)


class PacedJSON(TypedDict):
    seconds: float
    events: int
    events_per_second: float
    delay_ms_median: float | None
    delay_ms_p99: float | None
    scoreboard_rss_mb: float


class FloodJSON(TypedDict):
    events: int
    events_per_second: float
    games_finished: int
    scoreboard_peak_rss_mb: float


class TournamentJSON(TypedDict):
    boards: int
    players: int
    games_per_board: int
    games: int
    seconds: float
    every_player_played_every_round: bool
    points_awarded: int
    standings_ms_median: float | None
    standings_ms_p99: float | None
    events: int
    event_delay_ms_p99: float | None
    scoreboard_rss_mb: float
    scoreboard_peak_rss_mb: float


class ClubBenchJSON(TypedDict):
    """`crib bench --only club`: boards at ten times human speed, then a flood, then a tournament night."""

    boards: int
    paced: PacedJSON
    flood: FloodJSON
    tournament: TournamentJSON
    cpus: int | None


def _figures(port: int) -> FiguresJSON:
    """The scoreboard's own figures (its /api/figures)."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/figures", timeout=10) as response:
        figures: FiguresJSON = json.loads(response.read())
        return figures


def _rss_mb(pid: int) -> dict[str, float]:
    status = Path(f"/proc/{pid}/status").read_text()
    fields = {line.split(":")[0]: line.split()[1] for line in status.splitlines()
              if line.startswith(("VmRSS", "VmHWM"))}
    return {"rss_mb": round(int(fields["VmRSS"]) / 1024, 1), "peak_rss_mb": round(int(fields["VmHWM"]) / 1024, 1)}


def run(quick: bool) -> ClubBenchJSON:
    from companion.advice.selfplay import play_game
    from companion.club.mosquitto import wait_for
    from companion.cribbage.transcript import parse_input
    from companion.gamelog import GameLog, next_log

    boards = 5 if quick else BOARDS
    seconds = 3.0 if quick else 60.0
    names = [f"t{i + 1}" for i in range(boards)]
    games = [[parse_input(o) for o in play_game(("easy", "easy"), i % 2, f"bench-{i}", record=True).inputs]
             for i in range(boards)]
    with tempfile.TemporaryDirectory(prefix="crib-bench-club-") as folder:
        root = Path(folder)
        with _club_night(root, "bench", names) as club:
            port, publishers = club.port, club.publishers
            logs = [GameLog.open(next_log(root / name)) for name in names]
            played = [0] * boards
            sent = 0
            start = time.monotonic()
            tick = 0
            while time.monotonic() - start < seconds:  # paced: board i's turn comes every PACE seconds
                due = start + tick * PACE / boards
                time.sleep(max(0.0, due - time.monotonic()))
                i = tick % boards
                if played[i] < len(games[i]):
                    logs[i].append(games[i][played[i]])
                    publishers[i].wake()
                    played[i] += 1
                    sent += 1
                tick += 1
            paced_seconds = time.monotonic() - start
            wait_for(lambda: _figures(port)["events"] >= sent, "the paced events to arrive", timeout=60)
            paced = _figures(port)
            memory = _rss_mb(club.pid)

            flood = [[parse_input(o) for o in play_game(("easy", "easy"), i % 2, f"bench-flood-{i}", record=True)
                      .inputs] for i in range(boards)]
            flood_start = time.monotonic()
            for i in range(boards):  # what is left of each game, then a whole new game in a new log
                for inp in games[i][played[i]:]:
                    logs[i].append(inp)
                    sent += 1
                logs[i] = GameLog.open(next_log(root / names[i]))
                for inp in flood[i]:
                    logs[i].append(inp)
                    sent += 1
                publishers[i].wake()
            wait_for(lambda: _figures(port)["events"] >= sent, "the flood to arrive", timeout=300)
            flood_seconds = time.monotonic() - flood_start
            flood_events = sent - paced["events"]
            finished = _figures(port)["games"]
    return {
        "boards": boards,
        "paced": {"seconds": round(paced_seconds, 1), "events": paced["events"],
                  "events_per_second": round(paced["events"] / paced_seconds, 1),
                  "delay_ms_median": paced["delay_ms_median"], "delay_ms_p99": paced["delay_ms_p99"],
                  "scoreboard_rss_mb": memory["rss_mb"]},
        "flood": {"events": flood_events, "events_per_second": round(flood_events / flood_seconds, 1),
                  "games_finished": finished, "scoreboard_peak_rss_mb": memory["peak_rss_mb"]},
        "tournament": tournament(quick),
        "cpus": os.cpu_count(),
    }


def tournament(quick: bool, games: int | None = None) -> TournamentJSON:
    """The tournament run: its own broker and scoreboard (ACC scoring), the boards seated round by round."""
    from companion.advice.selfplay import play_game
    from companion.club.mosquitto import wait_for
    from companion.club.night import Night
    from companion.club.pairing import acc_movement, seat
    from companion.cribbage.transcript import parse_input
    from companion.gamelog import GameLog, next_log

    boards = 4 if quick else TOURNAMENT_BOARDS
    rounds = games or (2 if quick else int(os.environ.get("CRIB_BENCH_TOURNAMENT_GAMES", TOURNAMENT_GAMES)))
    pace = PACE / 10 if quick else PACE
    names = [f"t{i + 1}" for i in range(boards)]
    players = [f"P{i + 1:03d}" for i in range(2 * boards)]
    pool = [play_game(("easy", "easy"), n % 2, f"bench-t-{n}", target=121, record=True).inputs
            for n in range(min(boards, 16))]
    with tempfile.TemporaryDirectory(prefix="crib-bench-tournament-") as folder:
        root = Path(folder)
        start = time.monotonic()
        with _club_night(root, "weekend", names, "--scoring", "acc") as club, \
                closing(Night(root / "night" / "night.sqlite")) as night:  # as `crib club round` writes it
            port, publishers = club.port, club.publishers
            finished = 0
            for number in range(1, rounds + 1):
                seats, _byes = seat(acc_movement(players, number), names)
                night.set_round(number, seats, [])
                wait_for(functools.partial(_seated, publishers, number), "every board to hear its seat", timeout=30)
                games_now = []
                for k, table in enumerate(seats):
                    rename = dict(zip(("A", "B"), table.players, strict=True))
                    games_now.append([parse_input(_renamed(obj, rename)) for obj in pool[(k + number) % len(pool)]])
                logs = [GameLog.open(next_log(root / name)) for name in names]
                played = [0] * boards
                tick, began = 0, time.monotonic()
                while any(played[i] < len(games_now[i]) for i in range(boards)):
                    time.sleep(max(0.0, began + tick * pace / boards - time.monotonic()))
                    i = tick % boards
                    if played[i] < len(games_now[i]):
                        logs[i].append(games_now[i][played[i]])
                        publishers[i].wake()
                        played[i] += 1
                    tick += 1
                finished += boards
                wait_for(functools.partial(_games_at_least, port, finished), "the round's games", timeout=120)
                print(f"  tournament: round {number} of {rounds}: {finished} games", file=sys.stderr, flush=True)
            wait_for(lambda: _figures(port)["standings_updates"] >= finished, "the last standings", timeout=60)
            figures = _figures(port)
            memory = _rss_mb(club.pid)
            standings = _standings(port)
    return {"boards": boards, "players": len(players), "games_per_board": rounds, "games": figures["games"],
            "seconds": round(time.monotonic() - start, 1),
            "every_player_played_every_round": all(row["games"] == rounds for row in standings),
            "points_awarded": sum(row["points"] for row in standings),
            "standings_ms_median": figures["standings_ms_median"], "standings_ms_p99": figures["standings_ms_p99"],
            "events": figures["events"], "event_delay_ms_p99": figures["delay_ms_p99"],
            "scoreboard_rss_mb": memory["rss_mb"], "scoreboard_peak_rss_mb": memory["peak_rss_mb"]}


def _seated(publishers: list[Publisher], number: int) -> bool:
    return all(p.seat is not None and p.seat.round == number for p in publishers)


def _games_at_least(port: int, count: int) -> bool:
    return int(_figures(port)["games"]) >= count


def _renamed(inp: dict[str, object], names: dict[str, str]) -> dict[str, object]:
    """A recorded input with the seated players' names for the computer's A and B."""
    renamed = dict(inp)
    if isinstance(players := inp.get("players"), list):
        renamed["players"] = [names.get(x, x) for x in players]
    for key in ("player", "dealer"):
        if isinstance(value := inp.get(key), str):
            renamed[key] = names.get(value, value)
    return renamed


def _standings(port: int) -> list[StandingJSON]:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/standings", timeout=10) as response:
        standings: list[StandingJSON] = json.loads(response.read())
        return standings


def _answers(port: int) -> bool:
    try:
        _figures(port)
    except OSError:
        return False
    return True


class Scoreboard(NamedTuple):
    """`crib club` as the benchmarks run it: its page's port, its process and the boards' publishers."""

    port: int
    pid: int
    publishers: list[Publisher]


@contextlib.contextmanager
def _club_night(root: Path, club: str, names: list[str], *options: str) -> Iterator[Scoreboard]:
    """A broker on a free port, `crib club` following it (with `options`) and a publisher for each board named,
    all connected; stopped again on the way out."""
    from companion.club.mosquitto import PASSWORD, Mosquitto, free_port, wait_for
    from companion.club.publisher import Publisher

    broker = Mosquitto(root / "broker", club, ["scoreboard", *names])
    broker.start()
    port = free_port()
    (root / "password").write_text(PASSWORD)
    scoreboard = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "club", "--broker", f"mqtt://127.0.0.1:{broker.port}",
         "--club", club, "--username", "scoreboard", "--password-file", str(root / "password"),
         "--listen", f"127.0.0.1:{port}", "--night-dir", str(root / "night"), *options],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    publishers: list[Publisher] = []
    try:
        wait_for(lambda: _answers(port), "the scoreboard to start", timeout=30)
        for name in names:
            (root / name).mkdir(exist_ok=True)
            publisher = Publisher(broker.broker(name), club, name, root / name)
            publisher.start()
            publishers.append(publisher)
        wait_for(lambda: all(p.connected for p in publishers), "the boards to connect", timeout=30)
        yield Scoreboard(port, scoreboard.pid, publishers)
    finally:
        for publisher in publishers:
            publisher.close()
        scoreboard.terminate()
        scoreboard.wait(timeout=10)
        broker.stop()
