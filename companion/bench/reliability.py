"""Reliability figures for `crib bench`: nothing acknowledged is lost and nothing crashes, under power loss,
bad input and long play.

- kills: scripted games of every variant (cut for deal, starter, play, go, crib cards, coached hands and
  discards, the show, claims and muggins, undo, game end, new game and the next game of a match) are entered
  into a table in a child process (forked, so nothing is imported again) that is killed with SIGKILL at random
  points: right after an acknowledgement, or a random few hundred microseconds into the next entry (in the
  middle of a log write, an fsync or a render). Each time the table is opened again from the disk, as the daemon
  starts, and checked: its state is the replay of its log, the log is the uninterrupted run's log so far, every
  acknowledged entry is there; then the rest of the script is entered from where the disk says the game is. At
  the end every log file is compared byte for byte with the uninterrupted run's.
- soak: complete games between computer players through the whole daemon path (`Daemon.step` with simulated
  devices: luma's dummy OLED and the recording strip): games a second, resident memory growth after the first
  games, and open file descriptors and threads before and after.
- config_error_ms: how long `load_config` takes to report a string left open in a 4,000-line file.
- sim_rss_mb: resident memory of `crib sim` once it has played crib sim's sample deal, with the recording strip
  and with the simulated Pico (the real driver and firmware over a pseudo-terminal).
"""

from __future__ import annotations

import gc
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.base.clock import ManualClock
from companion.boards import builtin_for, load_layout
from companion.cribbage.cards import DECK, Card
from companion.cribbage.facts import Phase, ScoreKind, Wanted
from companion.cribbage.game import GameState, replay
from companion.cribbage.scoring import score_show
from companion.cribbage.transcript import GameInput
from companion.entry import Entry
from companion.gamelog import GameLog, current_log, games_dir, next_log
from companion.table import Table

# The variants the scripts play: the game each starts with, and whether the players are coached.
VARIANTS: dict[str, tuple[GameInput, bool]] = {
    "two": (GameInput(("Ann", "Bob")), False),  # no dealer: the players cut for deal
    "coached": (GameInput(("Ann", "Bob"), dealer="Bob"), True),
    "three": (GameInput(("Ann", "Bob", "Cat"), variant="three"), False),
    "four": (GameInput(("Ann", "Bob", "Cat", "Dan"), dealer="Dan", variant="four"), False),
    "five-card": (GameInput(("Ann", "Bob"), dealer="Ann", target=61, variant="five-card"), False),
    "muggins match": (GameInput(("Ann", "Bob"), dealer="Ann", target=61, muggins=True, match=2), False),
}
BAD_ENTRIES = ("zz", "5X", "11H", "peg 9 5", "claim 19", "key:5", "\ufffd\ufffd", "C5Q", "muggins")


class Dealer:
    """The computer players' side of the table: deals each deal from a shuffled pack, lays away, plays a legal
    card at random (as the easy player does), claims a little short now and then, and sometimes takes an
    entry back with undo or enters something the table must refuse. Every entry is chosen from the table's
    state, so the same seed plays the same game."""

    def __init__(self, rng: random.Random, *, undo_share: float = 0.04, bad_share: float = 0.03) -> None:
        self.rng = rng
        self.undo_share = undo_share
        self.bad_share = bad_share
        self.log = ""  # the deals below are this log's (an undo can go back into an earlier deal)
        self.deals: dict[tuple[int, int], tuple[dict[str, list[Card]], list[Card], Card]] = {}

    def _deal(self, table: Table) -> tuple[dict[str, list[Card]], list[Card], Card]:
        """The kept cards of each player, the crib and the starter of the deal being played."""
        state = table.state
        if table.log.path.name != self.log:
            self.log, self.deals = table.log.path.name, {}
        key = (state.game_number, state.deal_number)
        if key not in self.deals:
            pack = list(DECK)
            self.rng.shuffle(pack)
            hands = {p: [pack.pop() for _ in range(state.hand_size)] for p in state.players}
            self.deals[key] = (hands, [pack.pop() for _ in range(4)], pack.pop())
        return self.deals[key]

    def entry(self, table: Table) -> str:
        roll = self.rng.random()
        if roll < self.bad_share:
            return self.rng.choice(BAD_ENTRIES)
        if roll < self.bad_share + self.undo_share and len(table.state.inputs) > 2:
            return "undo"
        return self._wanted(table)

    def _wanted(self, table: Table) -> str:
        state = table.state
        if state.phase in (Phase.GAME_OVER, Phase.MATCH_OVER):
            return "new"
        if state.phase is Phase.CUT:
            taken = {card for _, card in state.cuts}
            return str(self.rng.choice([c for c in DECK if c not in taken]))
        hands, crib, starter = self._deal(table)
        if state.phase is Phase.DEAL:
            awaited = table.awaited()
            if awaited.wanted is Wanted.HAND:
                player = awaited.players[0]
                dealt = sorted(hands[player] + self._laid_away(state, player, crib))
                return str(dealt[len(table.cards)])
            return str(starter)
        if state.phase is Phase.PLAY:
            assert state.turn is not None
            left = [c for c in hands[state.turn] if c not in state.played_by(state.turn)]
            legal = [c for c in left if state.count + c.value <= 31]
            return str(self.rng.choice(legal)) if legal else "go"
        if state.phase is Phase.CRIB:
            return str(crib[len(table.cards)])
        if state.phase is Phase.CLAIM:
            if state.missed is not None and self.rng.random() < 0.5:
                return "muggins"
            kind, player = state.counts[0]
            assert state.starter is not None
            cards = tuple(crib) if kind is ScoreKind.CRIB else state.played_by(player)
            total = score_show(cards, state.starter, crib=kind is ScoreKind.CRIB).total
            short = total - self.rng.choice((0, 0, 0, 1, 2))
            return f"claim {short if short >= 0 and short not in (19, 25, 26, 27) else total}"
        raise AssertionError(f"no entry for the phase {state.phase!r}")

    @staticmethod
    def _laid_away(state: GameState, player: str, crib: list[Card]) -> list[Card]:
        """A coached player's two crib cards: the pone the first two of the crib, the dealer the others."""
        return crib[:2] if player != state.dealer else crib[2:]


Mark = tuple[str, int, tuple[Card, ...], int]
"""What the disk holds after an entry: the log's name and length, the cards held, the deal whose hands were
skipped: two points of a run with the same mark cannot be told apart after a restart."""


def mark(table: Table) -> Mark:
    return (table.log.path.name, len(table.log.inputs), tuple(table.cards), table.held.skip_hands_deal)


def open_table(state_dir: Path, variant: str) -> Table:
    """The table as the daemon starts it on `state_dir`: the current game resumed, or a new one."""
    setup, coaching = VARIANTS[variant]
    state = replay([setup])
    layout = load_layout(builtin_for(len(state.sides), state.target))
    return Table(GameLog.open(current_log(state_dir) or next_log(state_dir)), setup=setup, layout=layout,
                 clock=ManualClock(), coaching=coaching, new_log=lambda: GameLog.open(next_log(state_dir)))


@dataclass
class Script:
    """A scripted run and what the uninterrupted run did with it."""

    variant: str
    entries: list[str]
    marks: list[Mark]  # marks[p]: after the first p entries
    phases: list[str]  # phases[p]: what entry p was entered in (with "crib cards" and "coached hand")
    logs: dict[str, bytes]  # every log file at the end
    inputs: dict[str, list[Any]] = field(default_factory=dict)  # every log's inputs at the end
    refused: int = 0  # entries refused (each left the state as it was)


def script(variant: str, seed: int, games: int, directory: Path) -> Script:
    """Play `games` games of `variant` with the computer players, straight through, in `directory`."""
    rng = random.Random(f"{variant}-{seed}")
    dealer = Dealer(rng)
    table = open_table(directory, variant)
    entries: list[str] = []
    marks, phases = [mark(table)], []
    refused = finished = 0
    while finished < games:
        text = dealer.entry(table)
        before, logged = table.state, list(table.log.inputs)
        phases.append(_phase(table))
        outcome = table.handle(Entry(text, "script"))
        if outcome.error:
            refused += 1
            if table.state != before or table.log.inputs != logged:
                raise AssertionError(f"{text!r} was refused ({outcome.words()}) but changed the game")
        entries.append(text)
        marks.append(mark(table))
        if table.state.phase in (Phase.GAME_OVER, Phase.MATCH_OVER) \
                and before.phase not in (Phase.GAME_OVER, Phase.MATCH_OVER):
            finished += 1
    logs = {path.name: path.read_bytes() for path in sorted(games_dir(directory).glob("*.jsonl"))}
    inputs = {name: GameLog.open(games_dir(directory) / name, repair=False).inputs for name in logs}
    return Script(variant, entries, marks, phases, logs, inputs, refused)


def _phase(table: Table) -> str:
    if table.cards:
        return "crib cards" if table.state.phase is Phase.CRIB else "coached hand"
    if table.awaited().wanted is Wanted.HAND:
        return "coached hand"
    return table.state.phase


@dataclass
class Kills:
    kills: int = 0
    entries_acknowledged: int = 0
    lost: int = 0
    crashed: int = 0
    mismatched: int = 0  # a restart whose state, log or final files differ from the uninterrupted run
    in_phase: Counter[str] = field(default_factory=Counter)
    variants: Counter[str] = field(default_factory=Counter)
    problems: list[str] = field(default_factory=list)


def _child(state_dir: Path, variant: str, entries: list[str], acks: int) -> None:
    """In the forked child: start the table from the disk, enter the entries, one byte down the pipe after each."""
    code = 0
    try:
        table = open_table(state_dir, variant)
        for text in entries:
            table.handle(Entry(text, "script"))
            os.write(acks, b".")
    except BaseException as error:  # reported to the parent by the exit status
        os.write(2, f"child crashed: {error!r}\n".encode())
        code = 3
    finally:
        os._exit(code)


def kill_run(run: Script, state_dir: Path, rng: random.Random, result: Kills, *, spin_us: int = 600,
             most_acks: int = 12, budget: int | None = None) -> None:
    """Play `run` again in `state_dir`, killing the player at random points, until it is done (or the kills
    reach `budget`, when the rest is entered in one go); tally what was lost, crashed or differs."""
    done, floor = 0, 0
    while done < len(run.entries):
        kill = budget is None or result.kills < budget
        wait_for = rng.randint(0, min(most_acks, len(run.entries) - done)) if kill else -1
        spin = rng.choice((0, rng.randint(0, spin_us))) / 1e6
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(read)
            _child(state_dir, run.variant, run.entries[done:], write)
        os.close(write)
        acked = 0
        while kill and acked < wait_for:
            got = os.read(read, 1)
            if not got:
                break
            acked += 1
        if kill:
            until = time.perf_counter() + spin
            while time.perf_counter() < until:  # into the next entry: a write, an fsync, a render
                pass
            os.kill(pid, signal.SIGKILL)
        while chunk := os.read(read, 4096):
            acked += len(chunk)
        os.close(read)
        _, status = os.waitpid(pid, 0)
        signalled = os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
        if signalled:
            result.kills += 1
            result.variants[run.variant] += 1
            result.in_phase[run.phases[min(done + acked, len(run.phases) - 1)]] += 1
        elif os.WEXITSTATUS(status) != 0:
            result.crashed += 1
            result.problems.append(f"{run.variant}: the table crashed after entry {done + acked}")
        result.entries_acknowledged += acked
        # the restart: the table as the daemon would open it now
        try:
            table = open_table(state_dir, run.variant)
        except Exception as error:  # tallied: the goal is zero
            result.crashed += 1
            result.problems.append(f"{run.variant}: cannot start again after a kill at entry {done + acked}: "
                                   f"{error!r}")
            return
        now = mark(table)
        same = [p for p in range(floor, len(run.marks)) if run.marks[p] == now]
        expected = run.inputs.get(table.log.path.name, [])
        if table.state != replay(table.log.inputs) or table.log.inputs != expected[: len(table.log.inputs)]:
            result.mismatched += 1
            result.problems.append(f"{run.variant}: after a kill at entry {done + acked} the log or state differs")
        if not same:
            result.mismatched += 1
            result.problems.append(f"{run.variant}: after a kill at entry {done + acked} the disk holds a game the "
                                   f"uninterrupted run never had: {now}")
            return
        if max(same) < done + acked:
            result.lost += done + acked - max(same)
            result.problems.append(f"{run.variant}: entries {max(same) + 1}..{done + acked} were acknowledged but "
                                   "are not on the disk")
        if not signalled and os.WEXITSTATUS(status) == 0 and done + acked == len(run.entries):
            done = len(run.entries)  # it finished before the kill came
        else:
            done = floor = min(same)  # enter again what the disk does not hold
    logs = {path.name: path.read_bytes() for path in sorted(games_dir(state_dir).glob("*.jsonl"))}
    if logs != run.logs:
        result.mismatched += 1
        result.problems.append(f"{run.variant}: the logs at the end differ from the uninterrupted run's")


def kill_figures(kills: int, seed: int, directory: Path, *, games: int = 2,
                 on_round: Callable[[Kills], None] | None = None) -> Kills:
    """At least `kills` SIGKILLs spread over scripted games of every variant, in turn."""
    result = Kills()
    rng = random.Random(seed)
    round_ = 0
    while result.kills < kills:
        for variant in VARIANTS:
            base = directory / f"{round_}-{variant.replace(' ', '-')}"
            run = script(variant, seed + round_, games, base / "straight")
            kill_run(run, base / "killed", rng, result)
        round_ += 1
        if on_round is not None:
            on_round(result)
    return result


# --- long play through the daemon ---------------------------------------------------------------------------

SOAK_DEVICES = ["devices.display=dummy", "devices.strip=sim", "devices.keypad=none", "devices.buttons=none",
                "devices.scanner=none", "devices.pin_factory=mock"]


def rss_kb() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


@dataclass
class Soak:
    games: int
    seconds: float
    entries: int
    refused: int
    rss_start_kb: int  # after the first games (imports, caches and the first images made)
    rss_end_kb: int
    fds: tuple[int, int]
    threads: tuple[int, int]
    crashed: int = 0
    rss_kb_by_game: dict[int, int] = field(default_factory=dict)  # after every `every` games of the soak


def soak(games: int, seed: int, directory: Path, *, warm_up: int = 20, every: int = 1000,
         on_game: Callable[[int], None] | None = None) -> Soak:
    """`games` complete games (after `warm_up` more) between computer players, through `Daemon.step`."""
    from companion.config import load_config
    from companion.daemon import Daemon, Notifier, open_game, setup_input

    config = load_config(overrides=SOAK_DEVICES, system_path=None)
    clock = ManualClock()
    fds, threads = open_fds(), threading.active_count()
    directory.mkdir(parents=True, exist_ok=True)
    nothing_typed = directory / "script.txt"  # the entries come from the players below, not from stdin
    nothing_typed.write_text("")
    board, table = open_game(config, state_dir=directory, clock=clock, simulate=True, script=nothing_typed,
                             setup=setup_input(config, ["Ann", "Bob"], "Ann"))
    outcomes: Counter[bool] = Counter()
    daemon = Daemon(table, board, clock=clock, notifier=Notifier({}),
                    on_outcome=lambda outcome: outcomes.update((outcome.error,)))
    dealer = Dealer(random.Random(seed), undo_share=0.01, bad_share=0.01)
    entries = finished = crashed = 0
    rss_start, start = 0, 0.0
    rss_by_game: dict[int, int] = {}
    daemon.start()
    try:
        while finished < games + warm_up:
            if finished == warm_up and not rss_start:
                gc.collect()
                rss_start, start = rss_kb(), time.perf_counter()
                entries = 0
                outcomes.clear()
            table = daemon.table
            over = table.state.phase in (Phase.GAME_OVER, Phase.MATCH_OVER)
            table.emit(Entry(dealer.entry(table), "script"))
            try:
                daemon.step(timeout=0)
            except Exception:  # tallied: the goal is zero
                crashed += 1
            clock.advance(0.05)
            entries += 1
            if not over and table.state.phase in (Phase.GAME_OVER, Phase.MATCH_OVER):
                finished += 1
                if finished > warm_up and (finished - warm_up) % every == 0:
                    rss_by_game[finished - warm_up] = rss_kb()
                if on_game is not None:
                    on_game(finished)
        seconds = time.perf_counter() - start
        gc.collect()
        rss_end = rss_kb()
    finally:
        board.close()
    return Soak(games, seconds, entries, outcomes[True], rss_start, rss_end, (fds, open_fds()),
                (threads, threading.active_count()), crashed, rss_by_game)


# --- configuration errors and the simulator's memory ------------------------------------------------------------

def config_error_ms(directory: Path) -> float:
    from companion.config import ConfigError, load_config

    lines = ["[game]\n"] + [f"key{n} = \"{n}\"\n" if n % 2 else f"# note {n}\n" for n in range(1, 4000)]
    lines[2001] = 'dealer = """left open\n'
    path = directory / "config.toml"
    path.write_text("".join(lines), encoding="utf-8")
    samples = []
    for _ in range(5):
        start = time.perf_counter()
        try:
            load_config(path, system_path=None)
        except ConfigError as error:
            assert "line 2002 is never closed" in str(error), error
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


def sim_rss_mb(directory: Path, strip: str) -> float:
    """The resident memory of `crib sim` at its largest (VmHWM), playing crib sim's sample deal with `strip`."""
    from companion.base.demo import DEMO

    script = directory / f"{strip}.txt"
    script.write_text("\n".join(DEMO) + "\n")
    # VmHWM, not ru_maxrss: that one keeps the peak of the process before its exec, a copy of this large one
    probe = ("import sys; from pathlib import Path; from companion.cli import main; status = main(sys.argv[1:]); "
             "print(next(line.split()[1] for line in Path('/proc/self/status').read_text().splitlines() "
             "if line.startswith('VmHWM:')), file=sys.stderr); sys.exit(status)")
    done = subprocess.run([sys.executable, "-c", probe, "sim", "--players", "Ann,Bob", "--dealer", "Ann", "--quiet",
                           "--state-dir", str(directory / strip), "--script", str(script), "--set",
                           "devices.pin_factory=mock", "--set", f"devices.strip={strip}"],
                          capture_output=True, text=True, check=True)
    return int(done.stderr.strip().splitlines()[-1]) / 1024


def _progress(line: str) -> None:
    print(f"  {line}", file=sys.stderr, flush=True)


@contextmanager
def _scratch() -> Iterator[Path]:
    """A scratch directory in memory when there is one (the figures are about kills, not the disk's speed)."""
    base = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
    with tempfile.TemporaryDirectory(prefix="crib-bench-", dir=base) as directory:
        yield Path(directory)


def run(quick: bool) -> dict[str, object]:
    with _scratch() as directory:
        start = time.perf_counter()
        kills = kill_figures(30 if quick else 1000, 14, directory / "kills", on_round=lambda done: _progress(
            f"{done.kills} SIGKILLs, {done.entries_acknowledged} entries acknowledged, {done.lost} lost"))
        kill_seconds = time.perf_counter() - start
        games = 20 if quick else 10_000
        every = 5 if quick else 500

        def soak_progress(done: int) -> None:
            if done % every == 0:
                _progress(f"long play: {done} games, {rss_kb() / 1024:.1f} MB resident")

        long_play = soak(games, 14, directory / "soak", warm_up=5 if quick else 50, every=every,
                         on_game=soak_progress)
        config_ms = config_error_ms(directory)
        memory = {strip: round(sim_rss_mb(directory, strip), 1) for strip in ("sim", "pico-sim")}
    return {
        "kills": {
            "sigkills": kills.kills, "entries_acknowledged": kills.entries_acknowledged, "lost": kills.lost,
            "crashed": kills.crashed, "differing_from_the_uninterrupted_run": kills.mismatched,
            "by_phase": dict(sorted(kills.in_phase.items())), "by_variant": dict(kills.variants),
            "seconds": round(kill_seconds, 1), "problems": kills.problems[:10],
        },
        "long_play": {
            "games": long_play.games, "games_per_second": round(long_play.games / long_play.seconds, 1),
            "entries": long_play.entries, "refused": long_play.refused, "crashed": long_play.crashed,
            "rss_growth_mb": round((long_play.rss_end_kb - long_play.rss_start_kb) / 1024, 2),
            "rss_mb": round(long_play.rss_end_kb / 1024, 1),
            "rss_mb_by_game": {game: round(kb / 1024, 1) for game, kb in long_play.rss_kb_by_game.items()},
            "open_fds_before_after": list(long_play.fds), "threads_before_after": list(long_play.threads),
            "path": "Daemon.step with luma's dummy OLED and the recording strip; two computer players (easy)",
        },
        "config_error_ms": round(config_ms, 1),
        "sim_rss_mb": {"recording strip": memory["sim"], "simulated Pico": memory["pico-sim"]},
    }
