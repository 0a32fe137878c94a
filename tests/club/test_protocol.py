import contextlib
import json

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from companion.club import protocol
from companion.cribbage.game import replay
from companion.cribbage.transcript import parse_input
from tests.club.boards import recorded_game
from tests.facts import by_name, name, said, scores_of, winner_of


def finished_state():
    return replay(parse_input(obj) for obj in recorded_game(1))


def test_an_event_says_the_input_and_the_state_after_it_and_reads_back():
    state = finished_state()
    payload = protocol.event_payload("t1", "0001", 7, 1000.5, {"type": "go"}, state=state)
    message = protocol.parse_message("cribbage/thursday/boards/t1/events", payload)
    assert (message.club, message.board, message.kind, message.log, message.seq) == ("thursday", "t1", "events",
                                                                                    "0001", 7)
    assert scores_of(message.state) == by_name(state.scores)
    assert winner_of(message.state) == name(state.winner)
    last = message.state["events"][-1]
    assert (last["kind"], last["player"], last["said"]) == (state.events[-1].kind, state.events[-1].player,
                                                             said(state.events[-1]))


def test_a_status_is_online_or_not():
    assert protocol.parse_message("cribbage/c/boards/t1/status", protocol.status_payload(False)).online is False


@pytest.mark.parametrize(("topic", "payload", "said"), [
    ("cribbage/c/boards/t1/other", b"{}", "is not cribbage/CLUB"),
    ("cribbage/c/boards/../events", b"{}", "not a usable id"),
    ("cribbage/c/boards/t1/events", b"\xff", "not JSON"),
    ("cribbage/c/boards/t1/events", b'{"v":3}', '"v": 2'),
    ("cribbage/c/boards/t1/events", b"[" * 100_000, "not JSON"),
    ("cribbage/c/boards/t1/events", b"[" * 300_000, "over the"),
    ("cribbage/c/boards/t1/status", b'{"v":1,"online":"yes"}', "true or false"),
])
def test_a_malformed_message_is_refused_saying_what_is_wrong(topic, payload, said):
    with pytest.raises(protocol.BadMessage, match=said):
        protocol.parse_message(topic, payload)


def test_a_board_cannot_speak_for_another_in_its_payload():
    payload = protocol.state_payload("t2", "0001", 3, 0.0, finished_state())
    with pytest.raises(protocol.BadMessage, match="says board 't2'"):
        protocol.parse_message("cribbage/c/boards/t1/state", payload)


@pytest.mark.parametrize(("forge", "said"), [
    (lambda state: state["sides"][0].update(score=5000), "sides"),
    (lambda state: state["sides"][1].update(players=["Zed"]), "sides"),
    (lambda state: state.update(winner=2), "winner"),
    (lambda state: state["events"][0].update(side=5), "events"),
])
def test_forged_scores_are_refused(forge, said):
    obj = json.loads(protocol.state_payload("t1", "0001", 3, 0.0, finished_state()))
    forge(obj["state"])
    with pytest.raises(protocol.BadMessage, match=said):
        protocol.parse_message("cribbage/c/boards/t1/state", json.dumps(obj).encode())


def v1_state(**changes):
    """A board's state as the scoreboard's version-1 protocol sent it: sides by name, tables keyed by them."""
    return {"players": ["A", "B"], "sides": ["A", "B"], "scores": {"A": 61, "B": 40},
            "back_pegs": {"A": 55, "B": 38}, "match_points": {"A": 1, "B": 0}, "target": 61, "phase": "game over",
            "prompt": "A wins 61 to 40", "variant": "two", "match_scoring": "standard", "winner": "A",
            "match_winner": None, "game": 1, "deal": 5, "count": 0, "skunk_line": 31, "skunk": None,
            "said": {"side": "A", "label": "A's hand", "points": 8, "words": "fifteen 2, 4, 6 and a pair is 8"},
            **changes}


def v1_payload(state) -> bytes:
    return json.dumps({"v": 1, "board": "t1", "log": "0001", "seq": 1, "at": 0, "state": state}).encode()


def test_a_version_1_board_is_read_in_the_version_2_form():
    state = protocol.parse_message("cribbage/c/boards/t1/events", v1_payload(v1_state())).state
    assert state is not None
    assert [(s["players"], s["score"], s["back_peg"], s["match_points"]) for s in state["sides"]] == [
        (["A"], 61, 55, 1), (["B"], 40, 38, 0)]
    assert winner_of(state) == "A" and state["match_winner"] is None
    assert (state["rules"]["target"], state["rules"]["skunk_lines"][0]) == (61, 31)  # a skunk under 31
    [last] = state["events"]
    assert (last["side"], last["points"], last["name"], last["said"]) == (0, 8, "A's hand",
                                                                          "fifteen 2, 4, 6 and a pair is 8")


def test_a_version_1_winner_that_is_no_side_is_refused():
    with pytest.raises(protocol.BadMessage, match="winner"):
        protocol.parse_message("cribbage/c/boards/t1/events", v1_payload(v1_state(winner="Zed")))


def test_a_version_1_partnership_is_two_sides_of_partners_across_the_table():
    state = protocol.parse_message("cribbage/c/boards/t1/state", v1_payload(v1_state(
        players=["A", "B", "C", "D"], sides=["A & C", "B & D"], scores={"A & C": 61, "B & D": 40},
        back_pegs={"A & C": 55, "B & D": 38}, match_points={"A & C": 1, "B & D": 0}, winner="A & C",
        said={"side": "A & C", "label": "C's hand", "points": 8, "words": "8"}))).state
    assert state is not None
    assert [s["players"] for s in state["sides"]] == [["A", "C"], ["B", "D"]] and state["winner"] == 0


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
@given(state=st.dictionaries(st.sampled_from(["players", "sides", "rules", "phase", "prompt", "winner",
                                              "match_winner", "events", "game", "deal", "count", "skunk"]),
                             json_values, max_size=12))
def test_any_state_is_taken_or_refused_with_bad_message(state):
    payload = json.dumps({"v": 2, "board": "t1", "log": "0001", "seq": 1, "at": 0, "state": state}).encode()
    with contextlib.suppress(protocol.BadMessage):
        protocol.parse_message("cribbage/c/boards/t1/events", payload)


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(index=st.integers(0, 3), side=st.sampled_from([0, 1]), value=json_values)
def test_any_value_in_a_real_state_is_taken_or_refused_with_bad_message(index, side, value):
    obj = json.loads(protocol.state_payload("t1", "0001", 3, 0.0, finished_state()))
    state = obj["state"]
    [state, state["sides"][side], state["rules"], state["events"][-1]][index][
        ["winner", "score", "target", "points"][index]] = value
    with contextlib.suppress(protocol.BadMessage):
        protocol.parse_message("cribbage/c/boards/t1/state", json.dumps(obj).encode())


V1_KEYS = sorted(v1_state())


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(key=st.sampled_from(V1_KEYS), value=json_values)
@example(key="sides", value=[[1], [2]])
@example(key="winner", value=["A"])
@example(key="said", value={"side": {}, "label": "go", "points": 1, "words": "1"})
def test_any_value_in_a_version_1_state_is_taken_or_refused_with_bad_message(key, value):
    with contextlib.suppress(protocol.BadMessage):
        protocol.parse_message("cribbage/c/boards/t1/events", v1_payload(v1_state(**{key: value})))


def test_a_seat_for_the_board_is_checked_and_a_bad_one_is_refused():
    seat = protocol.TableSeat(2, 4, ("Ann", "Bob"))
    assert protocol.parse_seat(seat.payload()) == seat
    for bad in (b"nope", b'{"v":2,"round":2,"table":4,"players":["Ann"]}', b'{"v":2,"round":-1,"table":4,'
                b'"players":[]}', b'{"v":1,"round":2,"table":4,"players":[]}', b'{"v":2,"round":2,"table":4,'
                b'"players":["Ann","Ann"]}'):
        with pytest.raises(protocol.BadMessage):
            protocol.parse_seat(bad)
