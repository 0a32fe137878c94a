from companion.club import protocol
from companion.club.night import Night
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
    night.set_round(1, [("t1", "A", "B")])
    night.close()
    again = Night(tmp_path / "night.sqlite")
    assert scores_of(again.table_list()[0]) == by_name(final.scores)
    assert again.games_finished() == 1
    assert again.pairings() == {"round": 1, "tables": [{"board": "t1", "players": ["A", "B"]}]}


def test_a_board_going_offline_is_shown():
    night = Night()
    night.receive(protocol.parse_message("cribbage/c/boards/t9/status", protocol.status_payload(False)))
    assert night.table_list() == [{"board": "t9", "log": "", "seq": -1, "online": False}]
