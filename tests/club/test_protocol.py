import contextlib
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.club import protocol
from companion.cribbage.game import replay
from companion.cribbage.transcript import parse_input
from tests.club.boards import recorded_game
from tests.facts import by_name


def finished_state():
    return replay(parse_input(obj) for obj in recorded_game(1))


def test_an_event_says_the_input_and_the_state_after_it_and_reads_back():
    state = finished_state()
    payload = protocol.event_payload("t1", "0001", 7, 1000.5, {"type": "go"}, state=state)
    message = protocol.parse_message("cribbage/thursday/boards/t1/events", payload)
    assert (message.club, message.board, message.kind, message.log, message.seq) == ("thursday", "t1", "events",
                                                                                    "0001", 7)
    assert message.state["scores"] == by_name(state.scores)
    assert message.state["winner"] == state.winner
    assert message.state["said"]["words"] == state.events[-1].score.say()


def test_a_status_is_online_or_not():
    assert protocol.parse_message("cribbage/c/boards/t1/status", protocol.status_payload(False)).online is False


@pytest.mark.parametrize(("topic", "payload", "said"), [
    ("cribbage/c/boards/t1/other", b"{}", "is not cribbage/CLUB"),
    ("cribbage/c/boards/../events", b"{}", "not a usable id"),
    ("cribbage/c/boards/t1/events", b"\xff", "not JSON"),
    ("cribbage/c/boards/t1/events", b'{"v":2}', '"v": 1'),
    ("cribbage/c/boards/t1/events", b"[" * 100_000, "over the"),
    ("cribbage/c/boards/t1/status", b'{"v":1,"online":"yes"}', "true or false"),
])
def test_a_malformed_message_is_refused_saying_what_is_wrong(topic, payload, said):
    with pytest.raises(protocol.BadMessage, match=said):
        protocol.parse_message(topic, payload)


def test_a_board_cannot_speak_for_another_in_its_payload():
    payload = protocol.state_payload("t2", "0001", 3, 0.0, finished_state())
    with pytest.raises(protocol.BadMessage, match="says board 't2'"):
        protocol.parse_message("cribbage/c/boards/t1/state", payload)


def test_forged_scores_are_refused():
    obj = json.loads(protocol.state_payload("t1", "0001", 3, 0.0, finished_state()))
    obj["state"]["scores"] = {"A": 5000, "B": 1}
    with pytest.raises(protocol.BadMessage, match="scores"):
        protocol.parse_message("cribbage/c/boards/t1/state", json.dumps(obj).encode())


json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
                           lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                                        max_size=4), max_leaves=8)


@settings(suppress_health_check=[HealthCheck.too_slow])  # a shared, loaded machine
@given(kind=st.sampled_from(["events", "state", "status"]), obj=st.dictionaries(
    st.sampled_from(["v", "board", "log", "seq", "at", "state", "online", "input"]), json_values, max_size=8))
def test_any_payload_is_taken_or_refused_with_bad_message_and_nothing_else(kind, obj):
    with contextlib.suppress(protocol.BadMessage):
        protocol.parse_message(f"cribbage/c/boards/t1/{kind}", json.dumps(obj).encode())


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(state=st.dictionaries(st.sampled_from(["players", "sides", "scores", "back_pegs", "match_points", "target",
                                              "phase", "prompt", "winner", "said", "game", "deal", "count"]),
                             json_values, max_size=13))
def test_any_state_is_taken_or_refused_with_bad_message(state):
    payload = json.dumps({"v": 1, "board": "t1", "log": "0001", "seq": 1, "at": 0, "state": state}).encode()
    with contextlib.suppress(protocol.BadMessage):
        protocol.parse_message("cribbage/c/boards/t1/events", payload)


def test_a_seat_for_the_board_is_checked_and_a_bad_one_is_refused():
    seat = protocol.TableSeat(2, 4, ("Ann", "Bob"))
    assert protocol.parse_seat(seat.payload()) == seat
    for bad in (b"nope", b'{"v":2,"round":2,"table":4,"players":["Ann"]}', b'{"v":2,"round":-1,"table":4,'
                b'"players":[]}', b'{"v":1,"round":2,"table":4,"players":[]}', b'{"v":2,"round":2,"table":4,'
                b'"players":["Ann","Ann"]}'):
        with pytest.raises(protocol.BadMessage):
            protocol.parse_seat(bad)
