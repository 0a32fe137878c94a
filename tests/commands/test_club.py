"""`crib club round`, `enter`, `playoffs`, `scorecards` and `export`: what the director types and reads."""

from __future__ import annotations

from companion.cli import main


def crib(tmp_path, *args):
    return main(["club", *args, "--club", "weekend", "--night-dir", str(tmp_path / "night")])


def test_a_round_without_a_field_says_how_to_name_one_and_draws_nothing(tmp_path, capsys):
    assert crib(tmp_path, "round") == 2
    assert "name the field and the boards for the first round" in capsys.readouterr().err
    assert crib(tmp_path, "round", "--players", "Ann,Bob,Cat", "--boards", "t1,t 2") == 2
    assert "'t 2' is not a usable id" in capsys.readouterr().err
    assert crib(tmp_path, "round", "--players", "Ann,Bob,Cat", "--boards", "t1,t2") == 0
    out = capsys.readouterr().out
    assert "Round 1:\n  Table 1 (t1): Ann against " in out and "has a bye (2 game points, no spread)" in out


def test_hand_entered_cards_count_when_they_agree_and_the_playoffs_print_seed_one_first(tmp_path, capsys):
    crib(tmp_path, "round", "--players", "Ann,Bob,Cat,Dan", "--boards", "t1,t2")
    capsys.readouterr()
    assert crib(tmp_path, "enter", "--round", "1", "--player", "Ann", "--opponent", "Cat", "--score", "121",
                "--against", "60") == 0
    assert crib(tmp_path, "enter", "--round", "1", "--player", "Cat", "--opponent", "Ann", "--score", "60",
                "--against", "121") == 0
    assert "entered by both: it counts" in capsys.readouterr().out
    assert crib(tmp_path, "enter", "--round", "1", "--player", "Bob", "--opponent", "Dan", "--score", "130",
                "--against", "60") == 2
    assert "121 to less" in capsys.readouterr().err
    assert crib(tmp_path, "playoffs", "--scoring", "acc", "--best-of", "3") == 0
    out = capsys.readouterr().out
    assert out.startswith("Playoffs, best of 3:\n  seed 1: Ann\n  seed 2: ")
    assert crib(tmp_path, "export", "--scoring", "acc", "--standings", str(tmp_path / "s.csv")) == 0
    assert (tmp_path / "s.csv").read_text().splitlines()[1] == "1,Ann,3,1,1,61,1,0,0,4"
    assert crib(tmp_path, "scorecards", "--player", "Zed", "--out", str(tmp_path / "c.pdf")) == 2
    assert "no player Zed tonight" in capsys.readouterr().err
    assert crib(tmp_path, "scorecards", "--scoring", "acc", "--out", str(tmp_path / "c.pdf")) == 0
    assert (tmp_path / "c.pdf").read_bytes().startswith(b"%PDF") and "4 scorecards" in capsys.readouterr().out
