"""`crib score`: the itemised count of one hand, and fast batches of totals."""

from __future__ import annotations

import json

from companion.cli import main


def test_prints_the_count_as_a_player_says_it(capsys):
    assert main(["score", "7H", "7D", "8C", "9S", "KH"]) == 0
    assert capsys.readouterr().out == "total 12: fifteen two, fifteen four, and a double run is twelve\n"


def test_itemise_prints_each_item_and_the_total_as_said(capsys):
    assert main(["score", "5H", "5D", "5C", "JS", "5S", "--itemise"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1].startswith("total 29: fifteen two, fifteen four,")
    assert out[-1].endswith("and his nobs is twenty-nine")
    assert "his nobs J♠ +1" in out
    assert "a double pair royal 5♣ 5♦ 5♥ 5♠ +12" in out
    assert len(out) == 8 + 1 + 1 + 1  # eight fifteens, the four fives, nobs, the total


def test_crib_counts_only_a_five_card_flush(capsys):
    assert main(["score", "2H", "4H", "6H", "8H", "KS", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["total"] == 4  # four-card flush in hand
    assert main(["score", "2H", "4H", "6H", "8H", "KS", "--crib", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["total"] == 0


def test_json_lists_the_items(capsys):
    assert main(["score", "4h", "5h", "6h", "TH", "5S", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    # fifteens 4-5-6 twice and 5-10 twice (8), the fives (2), a double run of three (6), four hearts (4)
    assert result["total"] == 20
    assert [item["kind"] for item in result["items"]].count("run") == 2
    assert result["items"][-1] == {"kind": "flush", "cards": ["4H", "5H", "6H", "10H"], "points": 4}


def test_batch_prints_one_total_a_line_in_order(tmp_path, capsys):
    hands = tmp_path / "hands.txt"
    hands.write_text("5H 5D 5C JS 5S\n2H 4H 6H 8H KS crib\n2H 4H 6H 8H KS\n4S 4D 5C 5S 6H\n")
    assert main(["score", "--batch", str(hands)]) == 0
    assert capsys.readouterr().out == "29\n0\n4\n24\n"


def test_batch_from_standard_input(monkeypatch, capsys):
    import io
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"AH 2H 3H 4H 5H\n")))
    assert main(["score", "--batch", "-"]) == 0
    assert capsys.readouterr().out == "12\n"  # run of five 5, fifteen 2, five-card flush 5


def test_bad_input_says_what_to_do_and_exits_2(tmp_path, capsys):
    assert main(["score", "5H", "5D"]) == 2
    assert "give four hand cards and then the starter" in capsys.readouterr().err
    assert main(["score", "5H", "5D", "5C", "JS", "5X"]) == 2
    assert "'5X' has no suit I know" in capsys.readouterr().err
    bad = tmp_path / "bad.txt"
    bad.write_text("5H 5D 5C JS 5S\n5H 5H 5C JS 5S\n")
    assert main(["score", "--batch", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "line 2: give five different cards" in err
    assert main(["score", "--batch", str(tmp_path / "missing.txt")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_a_batch_with_one_bad_line_totals_the_others_and_names_it(tmp_path, capsys):
    hands = tmp_path / "hands.txt"
    hands.write_text("5H 5D 5C JS 5S\n2H 4H 6H 8H KS crib\n5H 5D 5X JS 5S\n4S 4D 5C 5S 6H\n")
    assert main(["score", "--batch", str(hands)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "29\n0\n-\n24\n"
    assert captured.err.splitlines() == [
        "crib score: line 3: '5X' has no suit I know: type a rank A 2-9 10 (or T) J Q K then a suit C D H S "
        "(or ♣ ♦ ♥ ♠), for example 5H, 10D, ah, Q♠ (got '5H 5D 5X JS 5S')",
        "crib score: 1 of 4 lines not scored: their totals are '-'; correct them and run again",
    ]


def test_many_bad_lines_are_counted_and_the_first_ten_named(tmp_path, capsys):
    hands = tmp_path / "hands.txt"
    hands.write_text("5H 5D 5C JS 5S\n" + "nonsense\n" * 25 + "AH 2H 3H 4H 5H")
    assert main(["score", "--batch", str(hands)]) == 2
    captured = capsys.readouterr()
    assert captured.out.split() == ["29", *["-"] * 25, "12"]
    err = captured.err.splitlines()
    assert [line.split(":")[1] for line in err[:10]] == [f" line {n}" for n in range(2, 12)]
    assert err[10] == ("crib score: 25 of 27 lines not scored (the first 10 named above): their totals are '-'; "
                       "correct them and run again")


def test_a_batch_in_other_spellings_and_chunks(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr("companion.commands.score.CHUNK", 20)  # a few lines a chunk: line numbers carry on
    hands = tmp_path / "hands.txt"
    hands.write_text("5♥ 5♦ 5♣ J♠ 5♠\nC5H,C5D,C5C,CJS,C5S\n5♡ 5♢ 5♧ J♤ 5♠\n\n10h jh qh kh 10s crib\n")
    assert main(["score", "--batch", str(hands)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "29\n29\n29\n-\n10\n"  # a double run of four and the pair; no flush in a crib
    assert captured.err.startswith("crib score: line 4: give five different cards")


def test_a_batch_typed_at_a_terminal_answers_each_line_as_it_comes(monkeypatch, capsys):
    import io

    answered = []

    class Terminal(io.StringIO):
        def isatty(self):
            return True

        def readline(self, *args):
            answered.append(capsys.readouterr().out)  # what was printed before this line was read
            return super().readline(*args)

    monkeypatch.setattr("sys.stdin", Terminal("5H 5D 5C JS 5S\nAH 2H 3H 4H 5H\n"))
    assert main(["score", "--batch", "-"]) == 0
    assert answered == ["", "29\n", "12\n"]


def test_a_byte_that_is_not_utf8_is_a_bad_line_not_a_traceback(tmp_path, monkeypatch, capsys):
    import io
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"5H 5D 5C JS 5S\n5H 5D 5C J\xffS 5S\n")
    assert main(["score", "--batch", str(bad)]) == 2
    assert f"{bad}: line 2 is not UTF-8 text (byte 0xff at column 11)" in capsys.readouterr().err
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"\xfe5H 5D 5C JS 5S\n")))
    assert main(["score", "--batch", "-"]) == 2
    assert "standard input: line 1 is not UTF-8 text (byte 0xfe at column 1)" in capsys.readouterr().err
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"\xfe5H 5D 5C JS 5S\n")))
    assert main(["score", "--batch", "-", "--lang", "de"]) == 2  # the words `crib` says every unreadable text with
    assert "Standardeingabe: Zeile 1 ist kein UTF-8-Text (Byte 0xfe in Spalte 1)" in capsys.readouterr().err
    assert main(["score", "--batch", str(tmp_path / "gone.txt"), "--lang", "de"]) == 2
    assert f"kann {tmp_path / 'gone.txt'} nicht lesen: " in capsys.readouterr().err
