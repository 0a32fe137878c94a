"""`crib stats`: the statistics of a state directory as text, JSON and a picture."""

from __future__ import annotations

import json

from PIL import Image

from companion.cli import main
from companion.stats import COLOURS
from tests.test_stats import copy_sample


def test_stats_prints_each_player_and_the_latest_game(tmp_path, capsys):
    copy_sample(tmp_path, 1)  # Ann wins 121 to 104 in four deals (tests/test_stats.py counts every figure)
    assert main(["stats", "--state-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "1 games finished, 0 under way, in 1 logs"
    assert out[2].split() == ["Ann", "1", "1", "0/0", "1", "4", "5.00", "26.50", "2.00", "29", "-"]
    assert out[3].split() == ["Bob", "1", "0", "0/0", "0", "4", "5.00", "27.33", "2.00", "29", "-"]
    assert out[-1] == "latest game: 0001.jsonl game 1, 4 deals, Ann 121, Bob 104: Ann won"
    assert main(["stats", "--state-dir", str(tmp_path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["players"]["Bob"]["hand"] == 27.333 and data["latest"]["scores"]["Ann"] == [0, 35, 65, 100, 121]


def test_stats_draws_the_score_race_and_the_averages(tmp_path, capsys):
    copy_sample(tmp_path, 1)
    picture = tmp_path / "stats.png"
    assert main(["stats", "--state-dir", str(tmp_path), "--png", str(picture)]) == 0
    image = Image.open(picture).convert("RGB")
    assert image.size == (1000, 760)
    colours = {colour for _, colour in image.getcolors(1 << 20)}
    assert COLOURS[0] in colours and COLOURS[1] in colours  # Ann's and Bob's lines are drawn
    assert main(["stats", "--state-dir", str(tmp_path), "--png", str(tmp_path / "no" / "such" / "dir.png")]) == 2
    assert "cannot write the picture" in capsys.readouterr().err


def test_stats_names_a_damaged_log_and_counts_the_rest(tmp_path, capsys):
    copy_sample(tmp_path, 1)
    damaged = copy_sample(tmp_path, 2)
    damaged.write_text("garbage\n" + damaged.read_text())
    assert main(["stats", "--state-dir", str(tmp_path), "--json"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["games"] == 1
    assert "crib stats:" in captured.err and "0002.jsonl: line 1 is damaged" in captured.err


def test_stats_without_games_says_how_to_play_one(tmp_path, capsys):
    assert main(["stats", "--state-dir", str(tmp_path / "empty")]) == 2
    err = capsys.readouterr().err
    assert "no games in" in err and "crib sim --state-dir" in err
