import time

import pytest

from companion.club import protocol
from companion.club.night import Night
from companion.club.pairing import Seat
from companion.club.tournament import Scoring
from companion.cribbage.game import apply, initial_state
from companion.cribbage.transcript import UndoInput, parse_input
from tests.club.boards import recorded_game
from tests.facts import by_name, scores_of


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
    assert scores_of(table) == by_name(final.scores)
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
    assert scores_of(again.table_list()[0]) == by_name(final.scores)
    assert again.games_finished() == 1
    assert again.pairings() == {"round": 1, "drawn": 7.0, "byes": ["C"],
                                "tables": [{"table": 1, "board": "t1", "players": ["A", "B"]}]}


def test_a_board_going_offline_is_shown():
    night = Night()
    night.receive(protocol.parse_message("cribbage/c/boards/t9/status", protocol.status_payload(False)))
    assert night.table_list() == [{"board": "t9", "log": "", "seq": -1, "online": False}]


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


def test_a_game_entered_by_hand_counts_only_when_both_players_cards_agree():
    night = Night(scoring=Scoring("acc"))
    night.set_round(1, [Seat(1, "t1", ("Ann", "Bob"))], [])
    assert "counts when Bob enters" in night.enter(1, "Ann", "Bob", 121, 88)
    assert night.games_finished() == 0
    assert "the cards differ" in night.enter(1, "Bob", "Ann", 87, 121)
    assert night.games_finished() == 0
    assert "it counts" in night.enter(1, "Bob", "Ann", 88, 121)  # Bob corrects his card
    [ann, bob] = night.standings()
    assert (ann.player, ann.points, ann.spread, ann.skunks) == ("Ann", 3, 33, 1)
    assert (bob.player, bob.points, bob.spread) == ("Bob", 0, -33)
    assert [line.round for line in night.scorecard("Ann")] == [1]
    for bad in [(1, "Ann", "Ann", 121, 80), (1, "Ann", "Bob", 120, 80), (1, "Ann", "Bob", 121, 121),
                (7, "Ann", "Bob", 121, 80)]:
        with pytest.raises(ValueError):
            night.enter(*bad)
    assert night.games_finished() == 1


def test_the_playoffs_seed_the_top_quarter_and_end_the_qualifying():
    night = Night(scoring=Scoring("acc"))
    night.set_round(1, [Seat(1, "t1", ("Ann", "Bob")), Seat(2, "t2", ("Cat", "Dan")), Seat(3, "t3", ("Eve", "Fay")),
                        Seat(4, "t4", ("Gus", "Hal"))], ["Ivy"])
    for a, b, score in [("Ann", "Bob", 100), ("Cat", "Dan", 80), ("Eve", "Fay", 120), ("Gus", "Hal", 60)]:
        night.enter(1, a, b, 121, score)
        night.enter(1, b, a, score, 121)
    # nine players: three go through; Ann's win by 21 ranks above Ivy's bye (2 points, a win, no spread)
    assert night.draw_playoffs(3, at=time.time()) == ["Gus", "Cat", "Ann"]
    night.enter(1, "Ann", "Cat", 121, 20)  # a playoff game: the qualifying is over
    night.enter(1, "Cat", "Ann", 20, 121)
    assert [(s.player, s.points) for s in night.standings()][:3] == [("Gus", 3), ("Cat", 3), ("Ann", 2)]
    first = night.bracket()["rounds"][0]
    assert [(m["players"], m["wins"], m["winner"]) for m in first] == [
        (["Gus", None], [0, 0], "Gus"), (["Cat", "Ann"], [0, 1], None)]
    with pytest.raises(ValueError, match="drawn already"):
        night.draw_playoffs(3)
