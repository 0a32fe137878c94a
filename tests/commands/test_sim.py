"""`crib sim`: scripted games, snapshots, resuming (SIGKILL during a game: tests/test_crash.py)."""

from __future__ import annotations

from companion.cli import main
from companion.cribbage.game import replay
from companion.gamelog import GameLog, current_log
from tests.golden import GOLDEN
from tests.view.test_screen import DEAL

SCRIPT = GOLDEN / "deal.txt"
SIM = ["--players", "Ann,Bob", "--dealer", "Ann", "--quiet", "--set", "devices.pin_factory=mock"]


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
