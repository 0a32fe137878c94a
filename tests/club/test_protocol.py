import functools
import json
import re

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from companion.club import protocol
from companion.club.night import Night
from companion.cribbage.game import replay
from companion.cribbage.transcript import INPUT_TYPES, parse_input
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
    ("cribbage/c/boards/t1/status", b'{"v":2,"online":"yes"}', "not a club-status payload: data.online must be "
                                                                "boolean"),
    ("cribbage/c/boards/t1/status", b'{"v":2}', r"not a club-status payload: data must contain \['online'\]"),
])
def test_a_malformed_message_is_refused_saying_what_is_wrong(topic, payload, said):
    with pytest.raises(protocol.BadMessage, match=said):
        protocol.parse_message(topic, payload)


@pytest.mark.parametrize(("change", "said"), [
    (lambda obj: obj.pop("input"), r"not a club-event payload: data must contain \['input'\]"),
    (lambda obj: obj["input"].update(type="dance"), "data.input.type must be one of"),
    (lambda obj: obj["input"].update(card=5), "data.input.card must be string"),
    (lambda obj: obj.update(log="3a"), "data.log must match pattern"),
    (lambda obj: obj.update(seq=-1), "data.seq must be bigger than or equal to 0"),
    (lambda obj: obj.update(seq=3.0), '"seq" must be a whole number'),
    (lambda obj: obj.update(at="noon"), "data.at must be number"),
    (lambda obj: obj.update(colour="red"), "data must not contain {'colour'} properties"),
    (lambda obj: obj["state"].update(phase="lunch"), "data.state.phase must be one of"),
    (lambda obj: obj["state"]["sides"][0].pop("score"), r"data.state.sides\[0\] must contain \['score'\]"),
])
def test_an_event_that_breaks_its_schema_is_refused_saying_where(change, said):
    obj = good_payload("events")
    change(obj)
    with pytest.raises(protocol.BadMessage, match=said):
        protocol.parse_message("cribbage/c/boards/t1/events", json.dumps(obj).encode())


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


def test_a_version_1_board_is_told_to_update():
    payload = json.dumps({"v": 1, "board": "t1", "log": "0001", "seq": 1, "at": 0, "input": {"type": "go"},
                          "state": {"players": ["A", "B"], "sides": ["A", "B"]}}).encode()
    with pytest.raises(protocol.BadMessage, match=r'"v": 2 \(what sent it runs another version'):
        protocol.parse_message("cribbage/c/boards/t1/events", payload)


DELETE = object()  # a field left out
json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
                           lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                                        max_size=4), max_leaves=8)


def whole(value, least=0, most=protocol.MAX_SCORE):
    return isinstance(value, int) and not isinstance(value, bool) and least <= value <= most


def names(value):
    return (isinstance(value, list) and 0 < len(value) <= protocol.MAX_SIDES and len(set(map(str, value))) == len(value)
            and all(isinstance(v, str) and 0 < len(v) <= 80 for v in value))


def assert_valid(message, kind):
    """What a message the scoreboard takes must be, written apart from the validator: every value the night
    and the page read is of the projection's kind and range, and the night takes it without an error."""
    assert (message.club, message.board, message.kind) == ("c", "t1", kind)
    if kind == "status":
        assert isinstance(message.online, bool)
        return
    assert re.fullmatch(r"[0-9]{1,8}", message.log) and whole(message.seq, 0, 10**7)
    assert isinstance(message.at, float)
    assert (kind == "events") == (message.input is not None)
    if message.input is not None:
        assert input_is_valid(message.input)
    state = message.state
    assert names(state["players"])
    sides = state["sides"]
    assert 0 < len(sides) <= protocol.MAX_SIDES
    for side in sides:
        assert names(side["players"]) and set(side["players"]) <= set(state["players"])
        assert isinstance(side["name"], str)
        assert all(whole(side[key]) for key in ("score", "back_peg", "match_points"))
    rules = state["rules"]
    assert whole(rules["target"], 5) and all(whole(v) for v in rules["skunk_lines"])
    assert all(isinstance(rules[key], str) and len(rules[key]) <= 40 for key in ("variant", "match_scoring"))
    assert all(isinstance(state[key], str) and len(state[key]) <= 400 for key in ("phase", "prompt"))
    assert all(state[key] is None or whole(state[key], 0, len(sides) - 1) for key in ("winner", "match_winner"))
    assert all(whole(state[key], 0, 10**6) for key in ("game", "deal", "count"))
    assert len(state["events"]) <= protocol.MAX_EVENTS
    for event in state["events"]:
        assert all(isinstance(event[key], str) for key in ("kind", "said", "name"))
        assert whole(event["side"], 0, len(sides) - 1) and whole(event["points"], -protocol.MAX_SCORE)
    assert state["skunk"] in (None, "skunk", "double skunk")
    night = Night()  # the scoreboard's own use of it: no message it takes may break the night or the page
    night.receive(message)
    night.table_list()
    night.standings()
    night.waiting()


def good_payload(kind):
    """A fresh copy of a good payload of this kind (the game replayed once: a property test asks hundreds)."""
    return json.loads(_good_payload_text(kind))


@functools.cache
def _good_payload_text(kind):
    if kind == "status":
        return protocol.status_payload(True)
    if kind == "state":
        return protocol.state_payload("t1", "0001", 3, 0.0, finished_state())
    return protocol.event_payload("t1", "0001", 3, 0.0, {"type": "go"}, state=finished_state())


INPUT_FIELDS = {  # what each field of an input may hold (RULES.md's inputs; null: the field left out)
    "players": lambda v: isinstance(v, list) and all(isinstance(n, str) for n in v),
    "card": lambda v: isinstance(v, str), "cards": lambda v: isinstance(v, list) and all(isinstance(c, str) for c in v),
    "muggins": lambda v: isinstance(v, bool), "points": lambda v: whole(v, -(10**9), 10**9),
    **dict.fromkeys(("dealer", "player", "variant", "match_scoring"), lambda v: v is None or isinstance(v, str)),
    **dict.fromkeys(("target", "claim"), lambda v: v is None or whole(v, -(10**9), 10**9)),
    "match": lambda v: v is None or isinstance(v, bool) or whole(v, -(10**9), 10**9),
}


def input_is_valid(inp):
    return (isinstance(inp, dict) and inp.get("type") in INPUT_TYPES
            and all(key in INPUT_FIELDS and INPUT_FIELDS[key](value) for key, value in inp.items() if key != "type"))


def top_level_is_valid(kind, obj):
    """A payload's own fields as the protocol (docs/club.md) defines them; its state is left valid here."""
    fields = {"v", "online"} if kind == "status" else {"v", "board", "log", "seq", "at", "state",
                                                        *(("input",) if kind == "events" else ())}
    if not isinstance(obj, dict) or obj.get("v") != 2 or not set(obj) <= fields:
        return False
    if kind == "status":
        return isinstance(obj.get("online"), bool)
    return (obj.get("board") == "t1" and isinstance(obj.get("log"), str) and bool(re.fullmatch(r"[0-9]{1,8}",
            obj["log"])) and whole(obj.get("seq"), 0, 10**7) and isinstance(obj.get("at"), (int, float))
            and not isinstance(obj.get("at"), bool) and "state" in obj
            and (kind != "events" or input_is_valid(obj.get("input"))))


@settings(suppress_health_check=[HealthCheck.too_slow], max_examples=150)  # a shared, loaded machine
@given(kind=st.sampled_from(["events", "state", "status"]),
       changes=st.dictionaries(st.sampled_from(["v", "board", "log", "seq", "at", "online", "input"]),
                               json_values | st.just(DELETE), max_size=3))
def test_a_payload_is_taken_exactly_when_its_fields_are_valid_and_what_is_taken_is_valid(kind, changes):
    obj = good_payload(kind)
    for key, value in changes.items():
        if value is DELETE:
            obj.pop(key, None)
        else:
            obj[key] = value
    try:
        message = protocol.parse_message(f"cribbage/c/boards/t1/{kind}", json.dumps(obj).encode())
    except protocol.BadMessage:
        assert not top_level_is_valid(kind, obj), obj
    else:
        assert top_level_is_valid(kind, obj), obj
        assert_valid(message, kind)


@settings(suppress_health_check=[HealthCheck.too_slow], max_examples=150)
@given(changes=st.dictionaries(st.sampled_from(["players", "sides", "rules", "phase", "prompt", "winner",
                                                "match_winner", "events", "game", "deal", "count", "skunk"]),
                               json_values, max_size=3))
def test_a_state_with_any_values_is_refused_or_valid(changes):
    obj = good_payload("events")
    obj["state"].update(changes)
    try:
        message = protocol.parse_message("cribbage/c/boards/t1/events", json.dumps(obj).encode())
    except protocol.BadMessage:
        return
    assert_valid(message, "events")


FIELDS = {  # where a value goes in a real state, and what the protocol allows there
    "winner": (lambda state, side: state, lambda v, state: v is None or whole(v, 0, len(state["sides"]) - 1)),
    "score": (lambda state, side: state["sides"][side], lambda v, state: whole(v)),
    "target": (lambda state, side: state["rules"], lambda v, state: whole(v, 5)),
    "points": (lambda state, side: state["events"][-1], lambda v, state: whole(v, -protocol.MAX_SCORE)),
}


@settings(suppress_health_check=[HealthCheck.too_slow], max_examples=200)
@given(key=st.sampled_from(sorted(FIELDS)), side=st.sampled_from([0, 1]),
       value=json_values | st.integers(-5, 1005) | st.sampled_from([None, True, False, 0, 1, 2]))
@example(key="points", side=0, value=True)
@example(key="winner", side=0, value=1)
def test_a_value_in_a_real_state_is_taken_exactly_when_the_protocol_allows_it(key, side, value):
    obj = good_payload("state")
    place, allowed = FIELDS[key]
    place(obj["state"], side)[key] = value
    try:
        message = protocol.parse_message("cribbage/c/boards/t1/state", json.dumps(obj).encode())
    except protocol.BadMessage:
        assert not allowed(value, obj["state"])
    else:
        assert allowed(value, obj["state"])
        assert_valid(message, "state")


def test_a_seat_for_the_board_is_checked_and_a_bad_one_is_refused():
    seat = protocol.TableSeat(2, 4, ("Ann", "Bob"))
    assert protocol.parse_seat(seat.payload()) == seat
    for bad, why in ((b"nope", "not JSON"), (b'{"v":2,"round":2,"table":4,"players":["Ann"]}', "two players"),
                      (b'{"v":2,"round":-1,"table":4,"players":[]}', "data.round must be bigger than or equal to 0"),
                      (b'{"v":1,"round":2,"table":4,"players":[]}', '"v": 2'),
                      (b'{"v":2,"round":2,"table":4,"players":["Ann","Ann"]}', "data.players must contain unique"),
                      (b'{"v":2,"round":2,"table":4.0,"players":[]}', "whole numbers"),
                      (b'{"v":2,"round":2,"table":4,"players":[],"x":1}', "must not contain {'x'}")):
        with pytest.raises(protocol.BadMessage, match=why):
            protocol.parse_seat(bad)


def test_a_signed_message_is_taken_only_with_its_boards_key_and_untouched():
    secret = bytes(range(32))
    topic = "cribbage/c/boards/t1/state"
    payload = protocol.state_payload("t1", "0001", 3, 0.0, finished_state())
    signed = protocol.sign(protocol.board_key(secret, "t1"), topic, payload)
    assert protocol.parse_message(topic, signed, secret).state == protocol.parse_message(topic, payload).state
    assert json.loads(signed)["sig"]  # still JSON: Home Assistant reads the state as before
    for bad, why in [(payload, "not signed"),
                      (protocol.sign(protocol.board_key(secret, "t2"), topic, payload), "signature is wrong"),
                      (signed.replace(b'"score":', b'"score":1', 1), "signature is wrong"),
                      (protocol.sign(protocol.board_key(secret, "t1"), "cribbage/c/boards/t1/events", payload),
                       "signature is wrong")]:
        with pytest.raises(protocol.BadMessage, match=why):
            protocol.parse_message(topic, bad, secret)
