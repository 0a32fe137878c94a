"""`crib sim`: scripted games, snapshots, resuming (SIGKILL during a game: tests/test_crash.py)."""

from __future__ import annotations

from PIL import Image

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


THREE = ["5S", "JS", "4C", "7C", "5C", "4D", "go", "go", "go", "7D", "5D", "6C", "8C", "5H", "6H", "8H",
         "AH", "3D", "9C", "9H"]  # tests/cribbage/test_sample_games.py: Ann deals, Bob 31, Cat 28, Ann 23


def test_three_players_get_the_three_track_board(tmp_path, capsys):
    script = tmp_path / "three.txt"
    script.write_text("\n".join(THREE) + "\n")
    sim = ["sim", "--players", "Ann,Bob,Cat", "--dealer", "Ann", "--set", "devices.pin_factory=mock"]
    assert main([*sim, "--quiet", "--state-dir", str(tmp_path / "s"), "--script", str(script),
                 "--snapshots", str(tmp_path / "png")]) == 0
    state = replay(GameLog.open(current_log(tmp_path / "s")).inputs)
    assert dict(state.scores) == {"Ann": 23, "Bob": 31, "Cat": 28}
    with Image.open(tmp_path / "png" / f"{len(THREE):04d}-board.png") as board:
        assert board.size == (1644, 1064)  # three tracks a street (two tracks: 1644 x 864)
    capsys.readouterr()
    assert main([*sim, "--state-dir", str(tmp_path / "t"), "--script", str(script),
                 "--set", "board.layout=two-track-121"]) == 2
    err = capsys.readouterr().err
    assert "board 'two-track-121' has 2 tracks but the game has 3 players or teams" in err
    assert 'set board.layout = "auto"' in err and not (tmp_path / "t").exists()
