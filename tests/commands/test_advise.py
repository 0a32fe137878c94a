"""`crib advise`, `crib hint` and `crib model` as a player runs them."""

from __future__ import annotations

import io
import json

import pytest

from companion.advice import keeps
from companion.advice.model import UNIFORM, from_counts
from companion.cli import main
from companion.commands.advise import batch


def test_advise_prints_every_split_best_first(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["advise", "5H", "5D", "6C", "JS", "4S", "QD", "--dealer"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "5H 5D 6C JS 4S QD as dealer (your crib); crib model: uniform"
    assert out[2].split()[:6] == ["5H", "5D", "6C", "4S", "JS", "QD"]
    assert len(out) == 2 + 15 + 1
    assert out[-1] == "Keep 4-5-5-6: it averages 16.0 in hand (12 to 24); J-Q in your crib adds 4.7; net +20.7."


def test_advise_json_with_the_shipped_model(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["advise", "AH", "2C", "3D", "4S", "KH", "9C", "--pone", "--json", "--model"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["role"] == "pone" and data["model"].startswith("standard-discards")
    assert len(data["splits"]) == 15
    nets = [s["net"] for s in data["splits"]]
    assert nets == sorted(nets, reverse=True)


def test_advise_without_a_role_says_what_to_do(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["advise", "5H", "5D", "6C", "JS", "4S", "QD"]) == 2
    assert "--dealer (yours) or --pone" in capsys.readouterr().err
    assert main(["advise", "5H", "5D", "6C", "JS", "4S", "--pone"]) == 2
    assert "say the variant" in capsys.readouterr().err
    assert main(["advise", "5H", "5D", "6C", "JS", "4S", "XX", "--pone"]) == 2
    assert "'XX' is not a card" in capsys.readouterr().err


def test_batch_answers_every_line_and_names_the_bad_ones() -> None:
    lines = io.StringIO("5H 5D 6C JS 4S QD dealer\n\n5H 5D 6C JS 4S QD\nJD 5D 6D 4D QC pone five-card\n")
    out = io.StringIO()
    assert batch(lines, UNIFORM, out) == 2
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert len(answers) == 3
    assert answers[0]["splits"][0]["discard"] == ["JS", "QD"]
    assert answers[1] == {"line": 3, "error": "end the line with the role, dealer or pone, like: "
                                              "5H 5D 6C JS 4S QD dealer"}
    assert answers[2]["variant"] == "five-card" and len(answers[2]["splits"]) == 10


def test_hint_names_the_card_and_the_reason(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hint", "9C", "3D", "AH", "--pile", "10S", "JD", "--opponent-cards", "2"]) == 0
    assert capsys.readouterr().out.startswith("Play the nine (9): it pegs 3 now")
    assert main(["hint", "9C", "--pile", "10S", "JD", "QS"]) == 2
    assert "say go" in capsys.readouterr().err
    assert main(["hint", "9C", "--pile", "9C"]) == 2
    assert "named twice" in capsys.readouterr().err


def test_hint_json_gives_every_legal_card_its_value(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hint", "9C", "3D", "AH", "--pile", "10S", "JD", "5C", "--opponent-cards", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data["values"]) == {"3D", "AH"}  # at 25 the nine would pass 31
    assert data["values"][data["card"]] == max(data["values"].values())
    assert data["said"].startswith(f"Play the {'three' if data['card'] == '3D' else 'ace'}")


def test_model_command_writes_a_model_that_loads(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["model", "--deals", "5", "--seed", "2"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert sum(data["counts"]["dealer"].values()) == 5
    assert from_counts(data).name == "standard-discards-5-seed-2"


def test_model_command_counts_aloud_in_german_on_a_terminal(capsys: pytest.CaptureFixture[str],
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stderr.isatty", lambda: True)
    assert main(["--lang", "de", "model", "--deals", "3"]) == 0
    assert capsys.readouterr().err.endswith("\r3/3 Runden gezählt\n")


def test_model_command_writes_the_table_of_keeps(capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    shipped = keeps.load()
    some = keeps.sixes()[::1000]  # every thousandth six ranks: the whole table takes a quarter of a minute
    monkeypatch.setattr(keeps, "sixes", lambda: some)
    assert main(["model", "--keeps"]) == 0
    table = keeps.from_data(json.loads(capsys.readouterr().out))
    for six in some:
        for dealer in (True, False):
            assert table.kept(six, dealer=dealer) == shipped.kept(six, dealer=dealer)
