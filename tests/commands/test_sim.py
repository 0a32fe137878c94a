"""`crib sim`: scripted games, snapshots, resuming, and SIGKILL at random points losing nothing acknowledged."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
from pathlib import Path

from companion.cli import main
from companion.cribbage.game import replay
from companion.cribbage.transcript import input_to_json
from companion.gamelog import GameLog, current_log
from tests.golden import GOLDEN
from tests.view.test_screen import DEAL

SCRIPT = GOLDEN / "deal.txt"
SIM = ["--players", "Ann,Bob", "--dealer", "Ann", "--quiet", "--set", "devices.pin_factory=mock"]


def crib_sim(*args: str) -> list[str]:
    return [sys.executable, "-m", "companion.cli", "sim", *SIM, *args]


def test_a_scripted_deal_with_snapshots(tmp_path, capsys):
    assert main(["sim", *SIM, "--state-dir", str(tmp_path / "s"), "--script", str(SCRIPT),
                 "--snapshots", str(tmp_path / "png")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in out] == ["ok"] * 11 + ["noted"] * 3 + ["ok"]
    assert out[-1] == 'ok 13 {"type": "crib", "cards": ["2C", "3D", "9S", "KH"]}'
    state = replay(GameLog.open(current_log(tmp_path / "s")).inputs)
    assert dict(state.scores) == {"Ann": 17, "Bob": 21}
    pictures = sorted(p.name for p in (tmp_path / "png").iterdir())
    assert len(pictures) == 2 * len(DEAL) and pictures[:2] == ["0001-board.png", "0001-oled.png"]


def test_running_again_resumes_the_game(tmp_path, capsys):
    first, rest = tmp_path / "first.txt", tmp_path / "rest.txt"
    first.write_text("\n".join(DEAL[:5]) + "\n")
    rest.write_text("\n".join(DEAL[5:]) + "\n")
    state_dir = str(tmp_path / "s")
    assert main(["sim", *SIM, "--state-dir", state_dir, "--script", str(first)]) == 0
    assert main(["sim", *SIM, "--state-dir", state_dir, "--script", str(rest)]) == 0
    assert dict(replay(GameLog.open(current_log(tmp_path / "s")).inputs).scores) == {"Ann": 17, "Bob": 21}


def test_bad_options_say_what_to_do(tmp_path, capsys):
    assert main(["sim", *SIM, "--dealer", "Cat", "--state-dir", str(tmp_path)]) == 2
    assert "--dealer 'Cat' is not one of the players" in capsys.readouterr().err
    assert main(["sim", *SIM, "--script", str(tmp_path / "missing.txt"), "--state-dir", str(tmp_path)]) == 2
    assert "no such file" in capsys.readouterr().err


def produced_by(entries: list[str]) -> list[int]:
    """For each input the script logs after the game input, the index of the entry that made it."""
    made, crib = [], 0
    for index in range(len(entries)):
        if index >= len(entries) - 4:
            crib += 1
            if crib < 4:
                continue
        made.append(index)
    return made


def test_sigkill_at_random_points_loses_nothing_acknowledged(tmp_path):
    """Kill `crib sim --script` with SIGKILL after N acknowledged inputs, restart with the rest of the script,
    and check every acknowledged input is in the log and the game ends exactly as without the crash."""
    made = produced_by(DEAL)
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    for n in sorted(random.Random(4).sample(range(1, len(made)), 3)):
        state_dir = tmp_path / f"kill-{n}"
        child = subprocess.Popen(crib_sim("--state-dir", str(state_dir), "--script", str(SCRIPT)),
                                 stdout=subprocess.PIPE, text=True, env=env, cwd=Path(__file__).parents[2])
        assert child.stdout is not None
        acknowledged = []
        for line in child.stdout:
            if line.startswith("ok "):
                acknowledged.append(json.loads(line.split(" ", 2)[2]))
                if len(acknowledged) == n:
                    child.send_signal(signal.SIGKILL)
                    break
        child.wait()
        logged = GameLog.open(current_log(state_dir)).inputs
        assert [input_to_json(i) for i in logged[1 : n + 1]] == acknowledged  # after the game input
        inputs_done = len(logged) - 1
        rest = DEAL[made[inputs_done - 1] + 1 :] if inputs_done else DEAL
        script = state_dir / "rest.txt"
        script.write_text("\n".join(rest) + "\n")
        subprocess.run(crib_sim("--state-dir", str(state_dir), "--script", str(script)), check=True,
                       capture_output=True, env=env, cwd=Path(__file__).parents[2])
        final = replay(GameLog.open(current_log(state_dir)).inputs)
        assert dict(final.scores) == {"Ann": 17, "Bob": 21} and final.phase == "deal", n
