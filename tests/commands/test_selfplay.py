"""`crib selfplay` and `crib bench` from the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.advice import endgame
from companion.cli import main
from companion.commands.bench import benchmarks
from companion.cribbage.game import replay
from companion.cribbage.transcript import read_transcript


def test_selfplay_json_is_the_same_for_a_seed(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["selfplay", "--a", "standard", "--b", "easy", "--games", "4", "--seed", "9", "--json"]
    assert main(args) == 0
    first = json.loads(capsys.readouterr().out)
    assert main(args) == 0
    again = json.loads(capsys.readouterr().out)
    first.pop("seconds"), again.pop("seconds")
    assert first == again
    assert first["a"]["wins"] + first["b"]["wins"] == 4
    assert first["a"]["level"] == "standard"


def test_selfplay_plays_the_ev_measuring_stick_and_its_games_replay(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.jsonl"
    args = ["selfplay", "--a", "ev", "--b", "standard", "--games", "3", "--transcript", str(path)]
    assert main(args) == 0
    assert "A ev " in capsys.readouterr().out
    state = replay(read_transcript(path.read_text().splitlines()))
    assert state.phase == "game over"
    assert main(["selfplay", "--a", "ev", "--b", "pro", "--duplicate", "2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["a"] == "ev"


def test_selfplay_writes_a_transcript_the_engine_replays(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.jsonl"
    assert main(["selfplay", "--a", "easy", "--b", "easy", "--games", "1", "--transcript", str(path)]) == 0
    assert "1 game, seed 1" in capsys.readouterr().out
    state = replay(read_transcript(path.read_text().splitlines()))
    assert state.phase == "game over" and state.winner in state.sides


def test_selfplay_reports_in_german(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--lang", "de", "selfplay", "--a", "easy", "--b", "easy", "--games", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("2 Partien, Seed 1, erster Geber abwechselnd (")
    assert lines[1].startswith("A easy     Siege     ") and "je Runde: Anlegen " in lines[1]
    assert lines[3].startswith("Tisch: ") and lines[4].startswith("Tisch je Runde: der Geber legt ")
    assert main(["--lang", "de", "selfplay", "--a", "easy", "--b", "easy", "--duplicate", "2"]) == 0
    first, second = capsys.readouterr().out.splitlines()
    assert first.startswith("2 Runden, jede zweimal gegeben, easy hält abwechselnd die Karten jeder Seite gegen easy")
    assert second.startswith("easy gewinnt netto ") and "Standardfehler" in second


def test_selfplay_refuses_nonsense(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selfplay", "--games", "0"]) == 2
    assert "at least 1" in capsys.readouterr().err


def test_bench_finds_its_modules_and_prints_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert {"advice", "scoring", "selfplay"} <= set(benchmarks())
    assert main(["bench", "--quick", "--only", "scoring"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["quick"] is True and figures["scoring"]["show_total_per_s"] > 0
    assert main(["bench", "--only", "nothing"]) == 2
    assert "no benchmark 'nothing'" in capsys.readouterr().err


def test_selfplay_reports_roles_deals_and_the_first_dealer(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selfplay", "--a", "standard", "--b", "easy", "--games", "4", "--seed", "9", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    table = figures["table"]
    assert {"pegging_as_dealer", "pegging_as_pone"} <= set(figures["a"]["per_deal"])
    assert table["per_deal"]["pegging_as_dealer"] + table["per_deal"]["pegging_as_pone"] == pytest.approx(
        table["per_deal"]["pegging"], abs=0.002)
    assert 0 <= table["first_dealer_wins"] <= 4 and table["deals_per_game"] > 5
    assert main(["selfplay", "--a", "standard", "--b", "easy", "--games", "4", "--seed", "9"]) == 0
    text = capsys.readouterr().out
    assert f"the first dealer wins {table['first_dealer_wins']} " in text
    assert f"{table['deals_per_game']:.2f} deals a game" in text
    assert f"dealer pegs {table['per_deal']['pegging_as_dealer']:.2f}" in text


def test_selfplay_help_says_95_percent(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["selfplay", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "(with a confidence interval of 95%)" in help_text and "%%" not in help_text


def test_selfplay_writes_the_endgame_table_the_pro_reads(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "endgame.json"
    assert main(["selfplay", "--endgame", str(path), "--deals", "40", "--seed", "3"]) == 0
    assert f"40 deals between standard players written to {path}" in capsys.readouterr().out
    outcomes = endgame.load(path)
    assert outcomes.name == "standard-deals-40-seed-3"
    assert 0.3 < endgame.WinChances(outcomes, 61).start(0, 0, dealer=True) < 0.8
    assert main(["selfplay", "--endgame", str(tmp_path / "no" / "such" / "dir.json"), "--deals", "2"]) == 2
    assert "cannot write" in capsys.readouterr().err


def test_selfplay_duplicate_reports_the_net_points_a_deal_pair(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selfplay", "--a", "standard", "--b", "easy", "--duplicate", "6", "--seed", "2", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["pairs"] == 6 and figures["a"] == "standard"
    low, high = figures["net_95ci"]
    assert low < figures["net_per_pair"] < high
    assert main(["selfplay", "--duplicate", "1"]) == 2
    assert "--duplicate takes a number of deal pairs of at least 2" in capsys.readouterr().err
