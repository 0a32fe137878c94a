"""`crib stats`: the statistics of a state directory as text, JSON and a picture."""

from __future__ import annotations

import json
import os
import sys
from datetime import datetime
from pathlib import Path

import pytest
from PIL import Image

from companion.cli import main
from companion.cribbage.transcript import GameInput, PegInput
from companion.gamelog import settings_path
from companion.words.statistics import COLOURS
from tests.game_logs import copy_sample, write_log

PLAYED = datetime(2026, 3, 14, 12).timestamp()


def dated(state_dir: Path) -> None:
    """Every log last written on 14 March 2026: the day a game is named by."""
    for log in (state_dir / "games").glob("*.jsonl"):
        os.utime(log, (PLAYED, PLAYED))


def test_stats_prints_each_player_and_the_latest_game(tmp_path, capsys):
    copy_sample(tmp_path, 1)  # Ann wins 121 to 104 in four deals (tests/test_stats.py counts every figure)
    dated(tmp_path)
    assert main(["stats", "--state-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "1 game finished, 0 under way, in 1 log"
    assert out[2].split() == ["Ann", "1", "1", "0/0", "1", "4", "5.00", "26.50", "2.00", "29", "-"]
    assert out[3].split() == ["Bob", "1", "0", "0/0", "0", "4", "5.00", "27.33", "2.00", "29", "-"]
    assert out[-1] == "latest game: 2026-03-14 12:00, Ann 121 v Bob 104, after 4 deals: Ann won"
    assert main(["stats", "--state-dir", str(tmp_path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["players"]["Bob"]["hand"] == 27.333 and data["latest"]["race"][0] == [0, 35, 65, 100, 121]


def test_stats_draws_the_score_race_and_the_averages(tmp_path, capsys):
    copy_sample(tmp_path, 1)
    picture = tmp_path / "stats.png"
    assert main(["stats", "--state-dir", str(tmp_path), "--png", str(picture)]) == 0
    image = Image.open(picture).convert("RGB")
    assert image.size == (1200, 900)
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


def test_stats_without_games_says_how_to_play_one(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "xdg"))
    assert main(["stats", "--state-dir", str(tmp_path / "empty")]) == 2
    err = capsys.readouterr().err
    assert err == (f"crib stats: no game in {tmp_path / 'empty'}: give the --state-dir of a board, `crib play` or "
                   "`crib sim` that has played (without --state-dir: the board's, "
                   f"{tmp_path / 'xdg/cribbage-companion/play'} and {tmp_path / 'xdg/cribbage-companion/sim'})\n")


def two_games(state_dir: Path) -> None:
    """Game 1: Ann beats Bob (the sample); game 2: Cat skunks Bob."""
    copy_sample(state_dir, 1)
    write_log(state_dir, 2, [GameInput(("Cat", "Bob"), dealer="Cat"), PegInput("Bob", 80), PegInput("Cat", 121)])


def test_stats_lists_the_games_by_number_and_picks_them(tmp_path, capsys):
    two_games(tmp_path)
    dated(tmp_path)
    assert main(["stats", "--state-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "2 games finished, 0 under way, in 2 logs"
    assert out[-3:] == ["  game 1: 2026-03-14 12:00, Ann 121 v Bob 104: Ann won",
                        "  game 2: 2026-03-14 12:00, Cat 121 v Bob 80 (a skunk): Cat won",
                        "latest game: 2026-03-14 12:00, Cat 121 v Bob 80 (a skunk), after 1 deal: Cat won"]
    assert main(["stats", "--state-dir", str(tmp_path), "--game", "2"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "1 game finished, 0 under way, in 1 log"
    assert [line.split()[:3] for line in out[2:4]] == [["Bob", "1", "0"], ["Cat", "1", "1"]]
    assert main(["stats", "--state-dir", str(tmp_path), "--last", "1", "--json"]) == 0
    assert [g["number"] for g in json.loads(capsys.readouterr().out)["chosen"]] == [2]
    assert main(["stats", "--state-dir", str(tmp_path), "--player", "Bob", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert list(data["players"]) == ["Bob"] and data["players"]["Bob"]["games"] == 2
    assert data["players"]["Bob"]["skunks_taken"] == 1 and sum(data["hand_counts"]["Bob"]) == 3
    assert main(["stats", "--state-dir", str(tmp_path), "--player", "Ann", "--game", "2"]) == 2
    assert "Ann did not play in game 2" in capsys.readouterr().err


@pytest.mark.parametrize(("argv", "message"), [
    (["--game", "3"], "no game 3: there are 2 games, numbered from 1 (`crib stats` lists them)"),
    (["--last", "0"], "--last 0: give how many of the latest games, 1 or more"),
    (["--player", "Zed"], "no player 'Zed' in these games: the players are Ann, Bob, Cat"),
    (["--game", "1", "--last", "1"], "give --game N or --last N, not both"),
])
def test_a_choice_no_game_fits_says_what_there_is(tmp_path, capsys, argv, message):
    two_games(tmp_path)
    assert main(["stats", "--state-dir", str(tmp_path), *argv]) == 2
    assert capsys.readouterr().err == f"crib stats: {message}\n"


def test_stats_reads_the_simulators_games_when_the_board_has_none(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "xdg"))
    board = ["--set", f"state.dir={tmp_path / 'board'}"]
    assert main(["stats", *board]) == 2
    assert capsys.readouterr().err == (
        f"crib stats: no game in {tmp_path / 'board'} (the board's), {tmp_path / 'xdg/cribbage-companion/play'} (crib "
        f"play's) nor {tmp_path / 'xdg/cribbage-companion/sim'} (crib sim's): play one with `crib play`, `crib sim` "
        "or `crib run`, or give --state-dir\n")
    copy_sample(tmp_path / "xdg" / "cribbage-companion" / "sim", 1)
    assert main(["stats", *board]) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith("1 game finished")
    assert f"reading crib sim's games in {tmp_path / 'xdg/cribbage-companion/sim'}" in captured.err
    copy_sample(tmp_path / "board", 1)
    copy_sample(tmp_path / "board", 2)
    assert main(["stats", *board]) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith("2 games finished") and captured.err == ""  # the board's own come first


def test_stats_finds_the_games_of_crib_play_and_names_where_the_simulators_are(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "xdg"))
    board = ["--set", f"state.dir={tmp_path / 'board'}"]
    play, sim = tmp_path / "xdg/cribbage-companion/play", tmp_path / "xdg/cribbage-companion/sim"
    os.utime(copy_sample(sim, 1), (PLAYED, PLAYED))
    os.utime(copy_sample(play, 1), (PLAYED + 60, PLAYED + 60))  # a game against the computer, a minute later
    copy_sample(play, 2)
    os.utime(play / "games" / "0002.jsonl", (PLAYED + 120, PLAYED + 120))
    assert main(["stats", *board]) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith("2 games finished")  # crib play's: the newest game is there
    assert captured.err == (f"crib stats: no board game in {tmp_path / 'board'}: reading crib play's games in {play}; "
                            f"crib sim's games are in {sim} (--state-dir {sim})\n")
    assert "12:01, Ann 121 v Bob 104" in captured.out and "12:02, Ann 121 v Bob 104" in captured.out  # told apart
    assert main(["state", *board]) == 0
    assert f"reading crib play's games in {play}" in capsys.readouterr().err


def test_a_picture_without_matplotlib_says_which_extra_to_install(tmp_path, capsys, monkeypatch):
    copy_sample(tmp_path, 1)
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    assert main(["stats", "--state-dir", str(tmp_path), "--png", str(tmp_path / "stats.png")]) == 2
    assert "pip install 'cribbage-companion[plots]'" in capsys.readouterr().err
    assert not (tmp_path / "stats.png").exists()


def test_a_game_against_the_computer_is_named_by_its_day_players_and_level_and_an_unfinished_deal_is_not_counted(
        tmp_path, capsys):
    copy_sample(tmp_path, 1)
    sample = (tmp_path / "games" / "0001.jsonl").read_text().splitlines()
    log = tmp_path / "games" / "0002.jsonl"  # the sample's first deal against the pro: three cards pegged, no show
    log.write_text("\n".join(line.replace("Ann", "Guest").replace("Bob", "Pro") for line in sample[:5]) + "\n")
    settings_path(log).write_text(json.dumps({"person": "Guest", "levels": ["pro"], "target": 121}))
    dated(tmp_path)
    assert main(["stats", "--state-dir", str(tmp_path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [g["name"] for g in data["chosen"]] == ["2026-03-14 12:00, Ann 121 v Bob 104",
                                                   "2026-03-14 12:00, Guest 0 v Pro (pro) 0 (under way)"]
    assert [(g["played"], g["time"], g["finished"]) for g in data["chosen"]] == [("2026-03-14", "12:00", True),
                                                                               ("2026-03-14", "12:00", False)]
    assert data["latest"]["name"] == "2026-03-14 12:00, Ann 121 v Bob 104"  # the latest finished game
    assert "Guest" not in data["players"]  # no game finished, no deal played out: nothing to average
    assert data["players"]["Ann"]["deals"] == 4


def test_stats_in_german_head_each_column_and_write_numbers_dates_and_plurals_the_german_way(tmp_path, capsys):
    two_games(tmp_path)
    dated(tmp_path)
    assert main(["stats", "--state-dir", str(tmp_path), "--lang", "de"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "2 Spiele beendet, 0 laufend, in 2 Protokollen"
    assert out[1].split() == ["Spieler", "Spiele", "Siege", "Schneider", "Match", "Runden", "Stecken", "Hand", "Krippe",
                              "Beste", "Verlust"]
    assert out[2].split()[:7] == ["Ann", "1", "1", "0/0", "1", "4", "5,00"]
    assert out[-3:] == ["  Spiel 1: 14.03.2026 12:00, Ann 121 gegen Bob 104: Ann gewann",
                        "  Spiel 2: 14.03.2026 12:00, Cat 121 gegen Bob 80 (Schneider): Cat gewann",
                        "letztes Spiel: 14.03.2026 12:00, Cat 121 gegen Bob 80 (Schneider), nach 1 Runde: Cat gewann"]
