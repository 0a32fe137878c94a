"""`crib hint` as a player runs it: the card, and a sentence saying why."""

from __future__ import annotations

import json

import pytest

from companion.cli import main


def test_hint_says_what_the_card_keeps_back(capsys: pytest.CaptureFixture[str]) -> None:
    # The count is 21 and you hold tens: a ten makes thirty-one, and the 5 is kept for later.
    assert main(["hint", "10H", "10C", "5D", "--pile", "8S", "3D", "KH", "--opponent-cards", "1"]) == 0
    assert capsys.readouterr().out.strip().startswith(
        "Play the ten (10): it makes thirty-one and pegs 2 now; it keeps the five back: the count is 21, "
        "the ten pegs 2 on it and the five nothing; over the rest of the play it is worth")


def test_hint_names_the_reply_a_card_would_give_away(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hint", "10H", "5C", "KD", "--pile", "8S", "3D", "--opponent-cards", "2"]) == 0
    said = capsys.readouterr().out
    assert said.startswith("Play the five (5): it leaves the count at 16; it keeps the ten back: the count is 11")
    assert "your opponent would peg" in said


def test_a_lead_kept_back_is_said_as_a_lead(capsys: pytest.CaptureFixture[str]) -> None:
    # Nothing is down: the king is not "on a count of 0" but led.
    assert main(["hint", "5H", "5D", "10S", "KC", "--need", "15", "--opponent-need", "4", "--starter", "5C"]) == 0
    said = capsys.readouterr().out
    assert "it keeps the king back: on the king led your opponent would peg" in said and "count is 0" not in said


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


def test_hint_says_why_the_pro_plays_another_card_than_the_expected_value_rules(
        capsys: pytest.CaptureFixture[str]) -> None:
    # He led a 7: the ev rules never pair a lead he may answer with a third; the pro's search takes the pair.
    assert main(["hint", "7C", "2D", "9H", "--pile", "7H", "--opponent-cards", "3"]) == 0
    said = capsys.readouterr().out
    assert said.startswith("Play the seven (7): it pegs 2 now")
    assert ("The expected-value rules would play the two (2), it does not pair the lead, which he may answer with "
            "a third: over the rest of the play it is worth") in said


def test_hint_lays_away_six_cards_and_says_why_the_pro_differs_from_the_expected_value_choice(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hint", "5H", "10H", "2C", "2S", "9C", "7H", "--dealer", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data["discard"]) == {"2C", "2S"} and set(data["ev_discard"]) == {"5H", "10H"}
    assert data["said"].startswith("Lay away 2-2 and keep 5-7-9-10. The pro keeps 5-7-9-10 over 2-2-7-9, the "
                                   "expected-value choice")
    # The crib speaks against 2-2 (5-10 makes more of it), but less than the exact count says: that is said so.
    assert ("the crib is yours: with the cards he likely lays away, 2-2 makes it only 1.1 less than 5-10 (1.4 by "
            "the exact count)") in data["said"] and "in the play 5-7-9-10 pegs" in data["said"]
    assert main(["hint", "5H", "5D", "6C", "JS", "4S", "QD", "--dealer"]) == 0
    assert capsys.readouterr().out.strip() == ("Keep 4-5-5-6: it averages 16.0 in hand (12 to 24); J-Q in your crib "
                                               "adds 4.7; net +20.7. The pro and the expected-value count agree.")


def test_a_lay_away_hint_needs_the_six_cards_dealt(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hint", "5C", "2H", "KS", "QH", "9C"]) == 2
    assert "six cards dealt" in capsys.readouterr().err
    assert main(["hint", "5C", "2H", "KS", "QH", "9C", "4D", "--pile", "8S"]) == 2
    assert "belong to the play" in capsys.readouterr().err


def test_hint_answers_in_german_with_numbers_written_the_german_way(capsys):
    assert main(["hint", "9C", "3D", "AH", "--pile", "10S", "JD", "--lang", "de"]) == 0
    said = capsys.readouterr().out
    assert said.startswith("Die beste Karte ist die Neun (9): sie bringt jetzt 3; so bleibt das Ass auf der Hand")
    assert "beim Stand von 20 brächte das Ass deinem Gegner" in said
    assert "im Schnitt 1,6" in said and "3,5 mehr wert als das Ass" in said and "the " not in said
    assert main(["hint", "5H", "5D", "6C", "JS", "4S", "QD", "--lang", "de"]) == 0
    said = capsys.readouterr().out
    assert said.startswith("Behalte 4-5-5-6: im Schnitt 16,0 auf der Hand (12 bis 24)") and "netto +11,2" in said
    assert said.rstrip().endswith("Der Profi und die Rechnung nach dem Erwartungswert sind sich einig.")


def test_hint_and_advise_refuse_in_the_language_asked(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hint", "9C", "--pile", "10S", "JD", "QS", "--lang", "de"]) == 2
    assert capsys.readouterr().err == "crib hint: keine Karte passt unter 31: sag Go\n"
    assert main(["hint", "9C", "--pile", "10S", "JD", "QS"]) == 2
    assert capsys.readouterr().err == "crib hint: no card fits under 31: say go\n"
    assert main(["advise", "5H", "5D", "6C", "JS", "4S", "--pone", "--lang", "de"]) == 2
    assert capsys.readouterr().err.startswith("crib advise: fünf Karten: nenne die Variante")


def test_the_hint_s_json_carries_its_reasons_as_facts(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hint", "7C", "2D", "9H", "--pile", "7H", "--opponent-cards", "3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["reasons"][:2] == [{"kind": "pegs", "count": 14, "points": 2},
                                   {"kind": "outpegs", "card": "9H", "played": "7C", "count": 7, "points": 2,
                                    "other": 0}]  # the nine would peg nothing: a fact, kept
    assert data["ev_card"] == "2D" and [r["kind"] for r in data["against"]] == ["ev_no_pair", "ev_worth_less"]
    assert data["said"].startswith("Play the seven (7): it pegs 2 now")
