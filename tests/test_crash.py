"""Crashes lose nothing acknowledged: `crib sim --script` killed with SIGKILL right after its Nth acknowledgement,
and power cuts injected in-process between the log (or the held cards' file) and the outputs."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from companion.base.clock import ManualClock
from companion.boards import load_layout
from companion.cribbage.cards import Card
from companion.cribbage.game import replay
from companion.entry import Entry
from companion.gamelog import GameLog, current_log
from companion.table import Table
from tests.facts import by_name
from tests.scripted_game import GO, UNDO, GameScript, game_script, keys_for

SEED = 7
LAYOUT = load_layout("two-track-121")
ROOT = Path(__file__).parents[1]


class PowerCut(BaseException):
    """The process stops here: nothing after this line runs (not even `finally` blocks of the controller)."""


def new_table(state_dir: Path, game: GameScript) -> Table:
    path = current_log(state_dir) or state_dir / "games" / "0001.jsonl"
    return Table(GameLog.open(path), setup=game.setup, layout=LAYOUT, clock=ManualClock())


def play(table: Table, entries: list[str], prompts: list[str] | None = None) -> list[tuple[int, tuple[Card, ...]]]:
    """Enter each entry; after each, what is durable: the log's length and the cards held (and the prompt)."""
    marks = []
    for text in entries:
        outcome = table.handle(Entry(text, "script"))
        assert not outcome.error, (text, outcome.message)
        marks.append((len(table.log.inputs), tuple(table.cards)))
        if prompts is not None:
            prompts.append(table.prompt())
    return marks


def durable(state_dir: Path, game: GameScript) -> tuple[Table, tuple[int, tuple[Card, ...]]]:
    """The table as it starts again from what is on disk."""
    table = new_table(state_dir, game)
    return table, (len(table.log.inputs), tuple(table.cards))


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory):
    """The scripted game played straight through: the marks after each entry and the whole log."""
    game = game_script(SEED, keypad_share=0)
    state_dir = tmp_path_factory.mktemp("straight")
    table = new_table(state_dir, game)
    prompts = [table.prompt()]
    marks = play(table, game.entries, prompts)
    assert by_name(table.state.scores) == by_name(game.final.scores) and table.state.winner == game.final.winner
    return game, marks, list(table.log.inputs), prompts


def resume_point(marks, mark, acknowledged: int) -> int:
    """How many entries the disk holds: the last point of the straight run with the same log and held cards."""
    done = max((i + 1 for i, m in enumerate(marks) if m == mark), default=0)
    assert done >= acknowledged, f"entry {acknowledged} was acknowledged but the disk holds only {done} entries"
    return done


@pytest.mark.slow
@pytest.mark.parametrize("kill", range(4))
def test_sigkill_after_the_nth_acknowledgement_loses_nothing(tmp_path, uninterrupted, kill):
    """`crib sim` reads the entries from a pipe: the first N are written, and once the Nth is acknowledged the child
    has nothing more to do and is killed there, however slowly the machine runs (no timing, no race)."""
    game, marks, straight_log, prompts = uninterrupted
    rng = random.Random(SEED)
    crib_points = [i + 1 for i, (_, held) in enumerate(marks) if held]  # acknowledged as "noted": Crib 1-3 of 4
    points = rng.sample(range(1, len(game.entries) - 1), 2) + rng.sample(crib_points, 2)
    # the acknowledged entry itself is pressed on the keypad (the simulated keys wait for the driver, not the clock)
    entries = [_on_keypad(e) if i + 1 in points else e for i, e in enumerate(game.entries)]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    sim = [sys.executable, "-m", "companion.cli", "sim", "--players", ",".join(game.setup.players),
           "--dealer", str(game.setup.dealer), "--quiet", "--no-web", "--set", "devices.pin_factory=mock",
           "--set", "devices.strip=sim"]  # the recording strip: what is durable is the log's and the held cards
    n = points[kill]
    state_dir = tmp_path / f"kill-{n}"
    state_dir.mkdir()
    child = subprocess.Popen([*sim, "--state-dir", str(state_dir)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             text=True, env=env, cwd=ROOT)
    assert child.stdin is not None and child.stdout is not None
    child.stdin.write("\n".join(entries[:n]) + "\n")
    child.stdin.flush()
    assert child.stdout.readline().startswith("Game log: ")  # what to type, said once
    lines = [child.stdout.readline() for _ in range(n)]
    child.send_signal(signal.SIGKILL)
    child.wait()
    child.stdin.close()
    child.stdout.close()
    assert all(line.startswith(("ok ", "noted ")) for line in lines), lines[-3:]
    table, mark = durable(state_dir, game)
    assert mark == marks[n - 1]  # nothing came after the Nth entry: the disk holds exactly what was acknowledged
    done = n
    logged = table.log.inputs
    assert logged[1:] == straight_log[1 : len(logged)]  # the inputs of the straight run, none lost
    in_file = table.log.path.read_text(encoding="utf-8").splitlines()
    for line in lines:
        if line.startswith("ok "):  # "ok N": line N of the log holds the input
            _, number, text = line.split(" ", 2)
            assert json.loads(in_file[int(number) - 1]) == json.loads(text)
    assert table.state == replay(logged) and table.prompt() == prompts[done]
    if n in crib_points:
        assert table.cards  # killed between crib cards: the cards acknowledged came back
    rest = state_dir / "rest.txt"
    rest.write_text("\n".join(game.entries[done:]) + "\n")
    subprocess.run([*sim, "--state-dir", str(state_dir), "--script", str(rest)], check=True,
                   capture_output=True, env=env, cwd=ROOT)
    final = replay(GameLog.open(current_log(state_dir)).inputs)
    assert by_name(final.scores) == by_name(game.final.scores) and final.winner == game.final.winner, n


def _on_keypad(entry: str) -> str:
    if entry in GO:
        return "key:A"
    if entry in UNDO:
        return "key:B"
    return keys_for(Card.parse(entry))


@pytest.mark.parametrize("where", ["append", "write_pending"])
def test_a_power_cut_between_the_disk_and_the_outputs(tmp_path, uninterrupted, where):
    """Cut the power right after the log append (or the held cards' file) returns, before anything is shown."""
    game, marks, straight_log, _ = uninterrupted
    rng = random.Random(f"{SEED}-{where}")
    for cut_at in sorted(rng.sample(range(2, 40 if where == "write_pending" else len(straight_log)), 4)):
        state_dir = tmp_path / f"{where}-{cut_at}"
        table = new_table(state_dir, game)
        calls, real = 0, getattr(table.log, where)

        def cut(*args, real=real, cut_at=cut_at):
            nonlocal calls
            real(*args)
            calls += 1
            if calls == cut_at:
                raise PowerCut

        setattr(table.log, where, cut)
        shown = 0
        with pytest.raises(PowerCut):
            for text in game.entries:
                table.handle(Entry(text, "script"))
                shown += 1  # the entries whose outcome reached the screen
        again, mark = durable(state_dir, game)
        done = resume_point(marks, mark, shown)
        assert again.state == replay(again.log.inputs) and again.log.inputs == straight_log[: len(again.log.inputs)]
        play(again, game.entries[done:])
        assert by_name(again.state.scores) == by_name(game.final.scores), (where, cut_at)
