"""`crib replay`: a transcript replayed, in words and as JSON."""

from __future__ import annotations

import json
from pathlib import Path

from companion.cli import main

GAME = Path(__file__).parent.parent / "data" / "games" / "two_121.jsonl"  # see tests/cribbage/test_sample_games


def test_json_has_players_scores_winner_and_every_deal(capsys):
    assert main(["replay", str(GAME), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["players"] == ["Ann", "Bob"]
    assert [(s["players"], s["score"]) for s in result["sides"]] == [(["Ann"], 121), (["Bob"], 104)]
    assert result["sides"][result["winner"]]["players"] == ["Ann"]
    first = result["deals"][0]
    assert first["dealer"] == "Ann" and first["starter"]["code"] == "5S"
    assert first["pegging"] == {"Ann": 9, "Bob": 1}  # run 3, fifteen and run 5, last card 1; Bob's go
    assert show(result, 1) == [("hand", "Bob", 29), ("hand", "Ann", 24), ("crib", "Ann", 2)]
    assert [e["name"] for e in result["events"] if e["deal"] == 1 and e["kind"] in ("hand", "crib")] == [
        "Bob's hand", "Ann's hand", "Ann's crib"]
    assert [d["dealer"] for d in result["deals"]] == ["Ann", "Bob", "Ann", "Bob"]
    assert show(result, 4) == [("hand", "Ann", 20)]  # Ann counted out first


def show(result: dict, deal: int) -> list[tuple[str, str, int]]:
    """The counts of one deal's show, in order: (kind, player, points)."""
    return [(e["kind"], e["player"], e["points"]) for e in result["events"]
            if e["deal"] == deal and e["kind"] in ("hand", "crib")]


def test_text_tells_each_point_and_the_result(capsys):
    assert main(["replay", str(GAME)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "deal 1: Ann deals, starter 5S"
    assert "  Bob's hand: Bob +29 (" in "\n".join(out)
    assert out[-2:] == ["scores: Ann 121, Bob 104", "Ann wins 121 to 104"]


def test_an_illegal_line_is_named_and_exits_2(tmp_path, capsys):
    bad = tmp_path / "bad.jsonl"
    lines = GAME.read_text().splitlines()[:6]
    bad.write_text("\n".join([*lines, '{"type":"play","card":"9H"}']) + "\n")
    assert main(["replay", str(bad)]) == 2
    assert capsys.readouterr().err.strip() == (
        "crib replay: line 7: the count is 25: 9H would make 34; play a lower card or say go")
    bad.write_text('{"type":"game","players":["Ann","Bob"]}\n{"type":"play","card":"5Z"}\n')
    assert main(["replay", str(bad)]) == 2
    assert "line 2: play input, field 'card'" in capsys.readouterr().err


def test_undo_lines_take_back_inputs(tmp_path, capsys):
    game = tmp_path / "undo.jsonl"
    lines = GAME.read_text().splitlines()[:4]
    game.write_text("\n".join([*lines, '{"type":"play","card":"KH"}', '{"type":"undo"}', ""]))
    assert main(["replay", str(game), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["prompt"] == "Bob to play, count 14" and [c["code"] for c in result["pile"]] == ["JS", "4C"]


def test_a_board_log_with_its_header_replays(tmp_path, capsys):
    log = tmp_path / "0001.jsonl"
    log.write_text('{"log":"cribbage-companion","version":1}\n' + GAME.read_text())
    assert main(["replay", str(log), "--json"]) == 0
    sides = json.loads(capsys.readouterr().out)["sides"]
    assert [(s["name"], s["score"]) for s in sides] == [("Ann", 121), ("Bob", 104)]


def test_a_byte_that_is_not_utf8_is_an_error_naming_the_line(tmp_path, capsys):
    bad = tmp_path / "bad.jsonl"
    lines = GAME.read_bytes().splitlines(keepends=True)
    bad.write_bytes(b"".join(lines[:3]) + b'{"type":"play","card":"5\xffH"}\n' + b"".join(lines[3:]))
    assert main(["replay", str(bad)]) == 2
    err = capsys.readouterr().err
    assert f"{bad}: line 4 is not UTF-8 text (byte 0xff at column 25): save it as UTF-8" in err
    assert "Traceback" not in err
