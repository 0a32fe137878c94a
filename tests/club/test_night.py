import json
import time

import pytest

from companion.club import protocol
from companion.club.night import Night
from companion.club.pairing import Seat
from companion.club.refused import Refused
from companion.club.scoreboard import director_view, snapshot
from companion.club.tournament import Scoring
from companion.cribbage.game import apply, initial_state
from companion.cribbage.transcript import UndoInput, parse_input
from companion.i18n import language
from companion.words import schema
from companion.words.club import refusal_words
from tests.club.boards import recorded_game
from tests.facts import by_name, scores_of

EN = language("en")
BROKER = {"anonymous": None, "signed": False}  # what a scoreboard knows of a broker before it asks


def words(refused: pytest.ExceptionInfo[Refused]) -> str:
    """A refusal of the night, as `crib club` says it in English."""
    return refusal_words(refused.value.why, refused.value.facts, EN)


def messages(board="t1", seed=1, log="0001"):
    """Every event of a recorded game, as the board's publisher sends them."""
    state, out = initial_state(), []
    for seq, obj in enumerate(recorded_game(seed), start=1):
        state = apply(state, parse_input(obj))
        payload = protocol.event_payload(board, log, seq, 100.0 + seq, obj, state=state)
        out.append(protocol.parse_message(f"cribbage/c/boards/{board}/events", payload))
    return out, state


def test_a_table_shows_the_latest_state_whatever_the_order_and_however_often_it_arrives():
    events, final = messages()
    night = Night()
    for message in [*reversed(events), *events, *events[:10]]:
        night.receive(message, received=500.0)
    [table] = night.table_list()
    assert scores_of(table["state"]) == by_name(final.scores)
    assert table["seq"] == len(events)
    assert len(night.delays) == len(events)  # each event counted once


def test_a_finished_game_counts_once_in_the_standings_with_its_match_points():
    events, final = messages(seed=2)
    night = Night()
    for message in events + events:
        night.receive(message)
    assert final.winner is not None
    [winner] = final.winner.players
    [loser] = next(s for s in final.sides if s != final.winner).players
    standings = {s.player: s for s in night.standings()}
    assert standings[winner].wins == 1 and standings[winner].games == 1
    assert standings[winner].match_points == final.match_points[final.winner]
    assert standings[loser].wins == 0 and standings[loser].games == 1
    assert night.games_finished() == 1


def test_an_undo_that_reopens_a_game_takes_it_out_of_the_standings():
    events, final = messages(seed=3)
    night = Night()
    for message in events:
        night.receive(message)
    reopened = apply(final, UndoInput())
    payload = protocol.event_payload("t1", "0001", len(events) + 1, 0.0, {"type": "undo"}, state=reopened)
    night.receive(protocol.parse_message("cribbage/c/boards/t1/events", payload))
    assert night.games_finished() == 0
    assert all(s.games == 0 for s in night.standings()) or night.standings() == []


def test_the_night_is_read_back_after_a_restart(tmp_path):
    events, final = messages(seed=4)
    night = Night(tmp_path / "night.sqlite")
    for message in events:
        night.receive(message)
    night.set_round(1, [Seat(1, "t1", ("A", "B"))], ["C"], at=7.0)
    night.close()
    again = Night(tmp_path / "night.sqlite")
    assert scores_of(again.table_list()[0]["state"]) == by_name(final.scores)
    assert again.games_finished() == 1
    assert again.pairings() == {"round": 1, "drawn": 7.0, "byes": ["C"], "stage": "qualifying",
                                "tables": [{"table": 1, "board": "t1", "players": ["A", "B"]}]}


def test_a_night_kept_by_an_older_scoreboard_is_set_aside_and_said_in_the_systems_language(
        tmp_path, monkeypatch, caplog):
    import sqlite3
    from contextlib import closing

    monkeypatch.setenv("LANG", "de_DE.UTF-8")  # the journal's reader's
    path = tmp_path / "night.sqlite"
    with closing(sqlite3.connect(path)) as old:
        old.execute("CREATE TABLE games (board TEXT)")
        old.execute("PRAGMA user_version=1")
    Night(path).close()
    assert (tmp_path / "night.sqlite.v1").exists()
    assert [record.getMessage() for record in caplog.records] == [
        f"Club: {path} stammt von einer älteren Anzeigetafel: beiseitegelegt als {path}.v1"]


def test_a_board_going_offline_is_shown():
    night = Night()
    night.receive(protocol.parse_message("cribbage/c/boards/t9/status", protocol.status_payload(False)))
    assert night.table_list() == [{"board": "t9", "log": "", "seq": -1, "online": False, "state": None}]


def test_a_board_playing_other_players_than_its_seat_is_flagged_but_not_for_last_rounds_game():
    events, _ = messages(seed=5)  # players A and B, on t1
    night = Night()
    for message in events[:30]:
        night.receive(message, received=100.0)
    night.set_round(1, [Seat(1, "t1", ("Ann", "Bob"))], [], at=50.0)
    [table] = night.table_list()
    assert table["seat"] == {"table": 1, "board": "t1", "players": ["Ann", "Bob"]} and table["wrong_players"]
    night.set_round(1, [Seat(1, "t1", ("B", "A"))], [], at=50.0)
    assert not night.table_list()[0]["wrong_players"]
    for message in events[30:]:  # the game ends; the next round seats others while the board still shows it
        night.receive(message, received=200.0)
    night.set_round(2, [Seat(1, "t1", ("Ann", "Bob"))], [], at=300.0)
    assert not night.table_list()[0]["wrong_players"]


def night_of(*seated, field=None, scoring="acc"):
    """A night of round 1 with `seated` pairs at t1, t2, ... (the field: theirs, or `field`)."""
    night = Night(scoring=Scoring(scoring))
    night.set_setting("players", field or [p for pair in seated for p in pair])
    night.set_setting("boards", [f"t{i + 1}" for i in range(len(seated))])
    night.set_round(1, [Seat(i + 1, f"t{i + 1}", pair) for i, pair in enumerate(seated)], [])
    return night


def test_a_game_entered_by_hand_counts_only_when_both_players_cards_agree():
    night = night_of(("Ann", "Bob"))
    assert night.enter(1, "Ann", "Bob", 121, 88).status == "first"
    assert night.games_finished() == 0
    assert night.enter(1, "Bob", "Ann", 87, 121).status == "disagreement"
    assert night.games_finished() == 0
    assert night.enter(1, "Bob", "Ann", 88, 121).status == "counts"  # Bob corrects his card
    [ann, bob] = night.standings()
    assert (ann.player, ann.points, ann.spread, ann.skunks) == ("Ann", 3, 33, 1)
    assert (bob.player, bob.points, bob.spread) == ("Bob", 0, -33)
    assert [line.round for line in night.scorecard("Ann")] == [1]
    assert night.waiting() == []
    for bad, code in [((1, "Ann", "Ann", 121, 80), "self"), ((1, "Ann", "Bob", 120, 80), "score"),
                      ((1, "Ann", "Bob", 121, 121), "score"), ((7, "Ann", "Bob", 121, 80), "no_round")]:
        with pytest.raises(Refused) as refused:
            night.enter(*bad)
        assert refused.value.why == code
    assert night.games_finished() == 1


def test_a_card_must_match_the_rounds_seating():
    night = night_of(("Ann", "Cat"), ("Bob", "Dan"), field=["Ann", "Bob", "Cat", "Dan", "Gus"])
    night.set_round(1, [Seat(1, "t1", ("Ann", "Cat")), Seat(2, "t2", ("Bob", "Dan"))], ["Gus"])
    for card, code, said in [((1, "Zed", "Ann", 121, 90), "not_in_field", "Zed is not in tonight's field"),
                             ((1, "Gus", "Ann", 121, 90), "not_seated", "Gus had a bye"),
                             ((1, "Ann", "Bob", 121, 90), "not_seated", "Ann played Cat at table 1")]:
        with pytest.raises(Refused) as refused:
            night.enter(*card)
        assert refused.value.why == code and said in words(refused)
    night.close_round(1)
    with pytest.raises(Refused) as refused:
        night.enter(1, "Ann", "Cat", 121, 90)
    assert "round 1 is closed" in words(refused)
    assert night.games_finished() == 0 and all(s.games == 0 for s in night.standings())


def test_a_changed_card_after_agreement_takes_the_game_out_until_both_agree_or_the_director_decides():
    night = night_of(("Ann", "Bob"), ("Cat", "Dan"))
    night.enter(1, "Ann", "Bob", 121, 100)
    night.enter(1, "Bob", "Ann", 100, 121)
    assert {s.player: s.points for s in night.standings()}["Ann"] == 2
    assert night.enter(1, "Bob", "Ann", 121, 60).status == "disagreement"  # Bob now says he won
    assert night.games_finished() == 0 and {s.player: s.points for s in night.standings()}["Ann"] == 0
    [item] = night.waiting()
    assert item["reason"] == "disagreement" and item["detail"]["was"] == "counts"
    assert [c["player"] for c in item["detail"]["cards"]] == ["Bob", "Ann"]
    schema.validate("club-director", json.loads(json.dumps(director_view(night, BROKER))))
    with pytest.raises(Refused) as refused:
        night.decide(item["id"], True)
    assert "say whose card counts" in words(refused)
    night.decide(item["id"], True, card="Ann")  # the director checks the paper: Ann's card is right
    assert {s.player: (s.points, s.spread) for s in night.standings()}["Ann"] == (2, 21)
    assert night.waiting() == []


def test_a_board_game_between_players_not_seated_there_waits_for_the_director():
    events, _final = messages(seed=6)  # A against B
    night = night_of(("Ann", "Cat"), field=["Ann", "Cat"])
    for message in events:
        night.receive(message)
    [item] = night.waiting()
    assert (item["reason"], item["board"], item["detail"]["seated"], item["approvable"]) == (
        "stranger", "t1", ["Ann", "Cat"], True)
    assert night.games_finished() == 0 and [s.player for s in night.standings()] == ["Ann", "Cat"]
    assert night.draw_playoffs(1) == ["Ann", "Cat"]  # strangers do not enlarge the field either
    night.decide(item["id"], False)
    assert night.waiting() == [] and night.games_finished() == 0
    for message in events:  # heard again (a retained state, a redelivery): a decision stands
        night.receive(message)
    assert night.waiting() == [] and night.games_finished() == 0


def test_the_director_may_count_a_strangers_game():
    events, final = messages(seed=6)
    night = night_of(("Ann", "Cat"), field=["Ann", "Cat"])
    for message in events:
        night.receive(message)
    [item] = night.waiting()
    night.decide(item["id"], True)
    assert night.games_finished() == 1
    winner = final.winner.players[0]
    assert {s.player: s.wins for s in night.standings()}[winner] == 1


def claim(state, seq, board="t1", log="0001", kind="state"):
    payload = json.dumps({"v": 2, "board": board, "log": log, "seq": seq, "at": 1.0, "state": state,
                          **({"input": {"type": "go"}} if kind == "events" else {})}).encode()
    return protocol.parse_message(f"cribbage/c/boards/{board}/{kind}", payload)


def test_a_finished_game_claimed_without_its_inputs_never_counts():
    events, _final = messages(seed=7)
    forged = json.loads(json.dumps(events[-1].state))
    forged["sides"][forged["winner"]]["score"], forged["sides"][1 - forged["winner"]]["score"] = 121, 3
    night = Night(scoring=Scoring("acc"))
    night.receive(claim(forged, 40))
    [item] = night.waiting()
    assert (item["reason"], item["detail"]["code"], item["approvable"]) == ("unfollowed", "missing", False)
    assert night.games_finished() == 0 and night.standings() == []
    with pytest.raises(Refused) as refused:
        night.decide(item["id"], True)
    assert "cannot be approved" in words(refused)


def test_a_finished_game_whose_inputs_do_not_reach_its_scores_never_counts():
    events, _final = messages(seed=8)
    night = Night(scoring=Scoring("acc"))
    for message in events[:-1]:
        night.receive(message)
    last = events[-1]
    forged = json.loads(json.dumps(last.state))
    forged["sides"][1 - forged["winner"]]["score"] = 5  # the board's last input, but a double skunk it never had
    forged["skunk"] = "double skunk"
    payload = json.dumps({"v": 2, "board": "t1", "log": "0001", "seq": last.seq, "at": 1.0, "input": last.input,
                          "state": forged}).encode()
    night.receive(protocol.parse_message("cribbage/c/boards/t1/events", payload))
    [item] = night.waiting()
    assert (item["reason"], item["detail"]["code"], item["detail"]["what"]) == ("unfollowed", "differs", "skunk")
    assert night.games_finished() == 0 and all(s.games == 0 for s in night.standings())
    night.decide(item["id"], False)
    assert night.waiting() == [] and night.games_finished() == 0


def test_a_retained_state_heard_before_its_inputs_counts_once_they_arrive():
    events, _final = messages(seed=9)
    night = Night()
    night.receive(claim(events[-1].state, events[-1].seq))  # the scoreboard restarted: retained state first
    assert night.games_finished() == 0 and night.waiting()[0]["detail"]["code"] == "missing"
    for message in events:
        night.receive(message)
    assert night.games_finished() == 1 and night.waiting() == []


def test_the_night_keeps_its_rules():
    night = Night(scoring=Scoring("acc"))
    assert night.scoring.name == "acc"
    night.keep_rules(best_of=3)
    with pytest.raises(Refused) as refused:
        night.keep_rules(scoring=Scoring("match"))
    assert "keeps scoring acc" in words(refused)
    with pytest.raises(Refused) as refused:
        night.keep_rules(best_of=5)
    assert "keeps best of 3" in words(refused)
    assert night.rules()["best_of"] == 3 and night.scoring.name == "acc"


def test_the_playoffs_seed_the_top_quarter_and_end_the_qualifying():
    night = night_of(("Ann", "Bob"), ("Cat", "Dan"), ("Eve", "Fay"), ("Gus", "Hal"),
                     field=["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy"])
    night.set_round(1, [Seat(1, "t1", ("Ann", "Bob")), Seat(2, "t2", ("Cat", "Dan")), Seat(3, "t3", ("Eve", "Fay")),
                        Seat(4, "t4", ("Gus", "Hal"))], ["Ivy"])
    for a, b, score in [("Ann", "Bob", 100), ("Cat", "Dan", 80), ("Eve", "Fay", 120), ("Gus", "Hal", 60)]:
        night.enter(1, a, b, 121, score)
        night.enter(1, b, a, score, 121)
    # nine players: three go through; Ann's win by 21 ranks above Ivy's bye (2 points, a win, no spread)
    assert night.draw_playoffs(3, at=time.time()) == ["Gus", "Cat", "Ann"]
    assert night.enter(1, "Ann", "Bob", 121, 100).status == "counts"  # a card entered again: it still counts
    night.enter(1, "Eve", "Fay", 121, 20)  # a qualifying card after the draw: it waits, the bracket stays
    assert night.enter(1, "Fay", "Eve", 20, 121).status == "late"
    assert [(s.player, s.points) for s in night.standings()][:3] == [("Gus", 3), ("Cat", 3), ("Ann", 2)]
    [item] = night.waiting()
    night.decide(item["id"], True)
    assert [s.player for s in night.standings()][:3] == ["Eve", "Gus", "Cat"]  # the standings, not the bracket
    first = night.bracket()["rounds"][0]
    assert [(m["players"], m["wins"], m["winner"]) for m in first] == [
        (["Gus", None], [0, 0], "Gus"), (["Cat", "Ann"], [0, 0], None)]
    assert night.pairings()["tables"] == [{"table": 2, "board": "t2", "players": ["Cat", "Ann"]}]
    with pytest.raises(Refused) as refused:
        night.draw_playoffs(3)
    assert "drawn already" in words(refused)


def test_a_tie_at_the_qualifying_line_is_shown_and_parted_by_head_to_head_then_by_lot():
    pairs = [("Ann", "Bob"), ("Cat", "Dan"), ("Eve", "Fay"), ("Gus", "Hal")]
    night = night_of(*pairs)
    for a, b in pairs:  # four wins of 121-100: Ann, Cat, Eve and Gus equal on everything
        night.enter(1, a, b, 121, 100)
        night.enter(1, b, a, 100, 121)
    assert night.line_tie() == {"players": ["Ann", "Cat", "Eve", "Gus"], "places": 2, "rank": 1}
    drawn = night.draw_playoffs(3, lot=lambda tied: sorted(tied, reverse=True))
    assert drawn == ["Gus", "Eve"]
    assert night.bracket()["tie"]["by"] == ["lot"] * 4

    night = night_of(("Ann", "Cat"), ("Eve", "Bob"))
    rounds = {1: [("Cat", "Ann", 100), ("Eve", "Bob", 60)], 2: [("Ann", "Bob", 100), ("Eve", "Cat", 100)],
              3: [("Ann", "Eve", 100), ("Cat", "Bob", 100)]}
    for number, games in rounds.items():
        night.set_round(number, [Seat(k + 1, f"t{k + 1}", (a, b)) for k, (a, b, _s) in enumerate(games)], [])
        for winner, loser, score in games:
            night.enter(number, winner, loser, 121, score)
            night.enter(number, loser, winner, score, 121)
    # Eve 5 points; Ann and Cat 4 points, 2 wins and +21 each for the one place left; Cat beat Ann
    assert night.line_tie() == {"players": ["Ann", "Cat"], "places": 1, "rank": 2}
    assert night.draw_playoffs(3, lot=lambda tied: pytest.fail("head-to-head parts them")) == ["Eve", "Cat"]
    assert night.bracket()["tie"] == {"players": ["Ann", "Cat"], "places": 1, "rank": 2, "order": ["Cat", "Ann"],
                                      "by": ["head-to-head", "head-to-head"], "rule": "head-to-head"}
    schema.validate("club-night", json.loads(json.dumps(snapshot(night, BROKER))))
    schema.validate("club-director", json.loads(json.dumps(director_view(night, BROKER))))
