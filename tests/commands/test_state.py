"""`crib state`: the current game of a state directory, from its log, like `crib replay`."""

from __future__ import annotations

import json

from companion.cli import main
from companion.gamelog import GameLog, next_log
from tests.sample_deal import deal


def test_state_prints_the_current_game_like_replay(tmp_path, capsys):
    log = GameLog.open(next_log(tmp_path))
    for inp in deal("end"):
        log.append(inp)
    assert main(["state", "--state-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "0001.jsonl" in out and "Bob's hand: Bob +20" in out and "scores: Ann 17, Bob 21" in out
    assert main(["state", "--state-dir", str(tmp_path), "--json"]) == 0
    state = json.loads(capsys.readouterr().out)["state"]
    assert {s["name"]: s["score"] for s in state["sides"]} == {"Ann": 17, "Bob": 21}
    assert state["prompt"] == "Bob deals. Enter the starter"


def test_state_reads_a_torn_log_without_repairing_it(tmp_path, capsys):
    path = next_log(tmp_path)
    log = GameLog.open(path)
    for inp in deal("4C"):
        log.append(inp)
    path.write_bytes(path.read_bytes() + b'{"type":"pl')
    before = path.read_bytes()
    assert main(["state", "--state-dir", str(tmp_path), "--json"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["state"]["count"] == 14 and "cut short" in captured.err
    assert path.read_bytes() == before


def test_state_without_a_game_says_how_to_start_one(tmp_path, capsys):
    assert main(["state", "--state-dir", str(tmp_path / "empty")]) == 2
    err = capsys.readouterr().err
    assert f"no game in {tmp_path / 'empty'}: give the --state-dir of a board, `crib play` or `crib sim`" in err


def test_state_reads_the_simulators_game_when_the_board_has_none(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "xdg"))
    board = ["--set", f"state.dir={tmp_path / 'board'}"]
    assert main(["state", *board]) == 2
    assert "(the board's), " in capsys.readouterr().err
    log = GameLog.open(next_log(tmp_path / "xdg" / "cribbage-companion" / "sim"))
    for inp in deal("end"):
        log.append(inp)
    assert main(["state", *board]) == 0
    captured = capsys.readouterr()
    assert "scores: Ann 17, Bob 21" in captured.out
    assert captured.err == (f"crib state: no board game in {tmp_path / 'board'}: reading crib sim's games in "
                            f"{tmp_path / 'xdg' / 'cribbage-companion' / 'sim'}\n")


def test_state_in_german(tmp_path, capsys):
    log = GameLog.open(next_log(tmp_path))
    for inp in deal("end"):
        log.append(inp)
    assert main(["state", "--state-dir", str(tmp_path), "--lang", "de"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Spielprotokoll: ") and "Hand Bob: Bob +20 (fünfzehn zwei" in out
    assert "Stand: Ann 17, Bob 21" in out
