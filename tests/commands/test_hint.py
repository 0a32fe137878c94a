"""`crib hint` as a player runs it: the card, and a sentence saying why."""

from __future__ import annotations

import json

import pytest

from companion.cli import main


def test_hint_says_what_the_card_keeps_back(capsys: pytest.CaptureFixture[str]) -> None:
    # The count is 21 and you hold tens: a ten makes thirty-one, and the 5 is kept for later.
    assert main(["hint", "10H", "10C", "5D", "--pile", "8S", "3D", "KH", "--opponent-cards", "1"]) == 0
    assert capsys.readouterr().out.strip().startswith(
        "Play the ten (10): it makes thirty-one and pegs 2 now; it keeps the 5 back: the count is 21, "
        "the 10 pegs 2 on it and the 5 nothing; over the rest of the play it is worth")


def test_hint_names_the_reply_a_card_would_give_away(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hint", "10H", "5C", "KD", "--pile", "8S", "3D", "--opponent-cards", "2"]) == 0
    said = capsys.readouterr().out
    assert said.startswith("Play the five (5): it leaves the count at 16; it keeps the 10 back: the count is 11")
    assert "your opponent would peg" in said


def test_near_the_end_hint_plays_to_the_score(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["hint", "5H", "5D", "10S", "KC", "--need", "15", "--opponent-need", "2", "--starter", "5C", "--json"]
    assert main(args) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["racing"] is True and data["card"] in ("10S", "KC")
    assert "it wins the game" in data["said"] and "your opponent needs 2 and you count first" in data["said"]
    assert all(0.0 <= v <= 1.0 for v in data["values"].values())
    assert data["values"]["5H"] < data["values"][data["card"]]


def test_a_card_that_wins_on_the_spot_is_played_and_the_others_are_said_as_they_are(
        capsys: pytest.CaptureFixture[str]) -> None:
    # 10 and J down (20): the nine makes a run of three and you need 3; the ace would only leave the count at 21.
    assert main(["hint", "9C", "AD", "--pile", "10S", "JD", "--need", "3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["card"] == "9C" and data["points"] == 3
    assert data["said"].startswith("Play the nine (9): it pegs 3 now: you need 3, so it wins the game at once; "
                                   "the ace pegs nothing and leaves the game to the rest of the play")
    assert "does as well" not in data["said"]


def test_hint_refuses_what_cannot_be(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hint", "9C", "--need", "0"]) == 2
    assert "1 or more" in capsys.readouterr().err
    assert main(["hint", "9C", "--starter", "9C"]) == 2
    assert "named twice" in capsys.readouterr().err
