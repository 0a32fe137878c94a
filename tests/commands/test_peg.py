"""`crib peg`: points for the last card given the cards since the last reset."""

from __future__ import annotations

import json

from companion.cli import main


def test_run_in_any_order(capsys):
    assert main(["peg", "9H", "6D", "8C", "7S"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "total 4: a run of four is four"


def test_json_has_the_items(capsys):
    assert main(["peg", "4H", "6D", "5C", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["total"] == 5  # fifteen 2 and the run 4-6-5 for 3
    assert [i["kind"] for i in result["items"]] == ["fifteen", "run"]


def test_batch(tmp_path, capsys):
    seq = tmp_path / "seq.txt"
    seq.write_text("9H 6D 8C 7S\n8H 7D 7C 6S\n6H 5D 6C\n5H 5D 6C 7S 8H\n")
    assert main(["peg", "--batch", str(seq)]) == 0
    assert capsys.readouterr().out == "4\n0\n0\n6\n"


def test_past_31_and_repeated_cards_are_refused(tmp_path, capsys):
    assert main(["peg", "KH", "KD", "QH", "5S"]) == 2
    assert "may never pass 31" in capsys.readouterr().err
    assert main(["peg", "5H", "5H"]) == 2
    assert "5H is given twice" in capsys.readouterr().err
    seq = tmp_path / "seq.txt"
    seq.write_text("5H\nKH KD QH 5S\n")
    assert main(["peg", "--batch", str(seq)]) == 2
    assert "line 2" in capsys.readouterr().err


def test_a_batch_with_one_bad_line_totals_the_others(tmp_path, capsys):
    seq = tmp_path / "seq.txt"
    seq.write_text("9H 6D 8C 7S\nKH KD QH 5S\n5H 5D\n")
    assert main(["peg", "--batch", str(seq)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "4\n-\n2\n"
    assert captured.err.startswith("crib peg: line 2: ")
    assert "may never pass 31" in captured.err
