"""The club's topic tree and payloads (version 2), built by the boards and checked by the scoreboard.

    cribbage/CLUB/boards/BOARD/events   every accepted input with the state after it (QoS 1)
    cribbage/CLUB/boards/BOARD/state    the board's current state (QoS 1, retained)
    cribbage/CLUB/boards/BOARD/status   {"v":2,"online":true|false} (retained; the broker's will says false)
    cribbage/CLUB/seats/BOARD           the round's seat at this board, from the scoreboard (QoS 1, retained):
                                        {"v":2,"round":4,"table":4,"players":["Ann","Bob"]} (players [] when idle)

Every payload is a JSON object with `"v": 2`, typed in payloads.py and published as a JSON Schema
(docs/schema/club-event, club-state, club-status and club-seat); its `state` is the game's one projection
(companion.words.projection: the same keys as `crib replay --json` and the page's `/api/state`). An event
is identified by its board, its game log ("0003") and its sequence number in that log (the number `ok N`
shows at the table), so a message delivered twice is recognised and counted once. Anything received is
checked against its schema, then for what a schema cannot say (a winner that is one of the sides, the
scoreboard's bounds): a malformed or forged message raises `BadMessage` with what was wrong, and the
scoreboard logs and ignores it. Where the broker cannot keep boards apart (an anonymous broker), each board
signs what it publishes with a key the director gave it (`sign`: HMAC-SHA256 over the topic and the payload,
appended as its last field `"sig"`), and a scoreboard holding the club's secret takes only messages whose
signature is right (`verify`).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from dataclasses import dataclass
from typing import Literal, cast

from companion.club.payloads import (
    ID,
    MAX_ROUND,
    MAX_SEQ,
    VERSION,
    EventMessageJSON,
    SeatMessageJSON,
    StateMessageJSON,
    StatusMessageJSON,
)
from companion.club.refused import Refused
from companion.cribbage.game import GameState
from companion.words import messages, schema
from companion.words.club import Why
from companion.words.contract import InputJSON, StateJSON
from companion.words.projection import state_json

ROOT = "cribbage"
MAX_PAYLOAD = 256 * 1024  # bytes; a whole game's state is about 20 KB
MAX_EVENTS = 2000
NAME = re.compile(ID)
MAX_SIDES = 4
MAX_SCORE = 1000
Kind = Literal["events", "state", "status"]
SCHEMAS: dict[str, str] = {"events": "club-event", "state": "club-state", "status": "club-status"}


class BadMessage(ValueError):
    """A message the scoreboard will not use; the text says what was wrong with it."""


SIG = b',"sig":"'


def board_key(secret: bytes, board: str) -> bytes:
    """The signing key the director gives a board: derived from the club's secret, so the scoreboard needs
    only that secret to check every board."""
    return hmac.new(secret, b"cribbage board " + board.encode("utf-8"), hashlib.sha256).digest()


def _mac(key: bytes, topic: str, payload: bytes) -> bytes:
    return hmac.new(key, topic.encode("utf-8") + b"\n" + payload, hashlib.sha256).hexdigest().encode("ascii")


def sign(key: bytes, topic: str, payload: bytes) -> bytes:
    """A payload (a JSON object) with its signature as the last field: `{...,"sig":"<hex>"}`."""
    return payload[:-1] + SIG + _mac(key, topic, payload) + b'"}'


def verify(key: bytes, topic: str, payload: bytes) -> bytes:
    """The payload as signed (without its signature); BadMessage when it carries none or a wrong one."""
    start = payload.rfind(SIG)
    if start < 0 or not payload.endswith(b'"}') or len(payload) - start != len(SIG) + 64 + 2:
        raise BadMessage(f"{topic}: the message is not signed, and this scoreboard takes signed boards only")
    inner = payload[:start] + b"}"
    if not hmac.compare_digest(payload[start + len(SIG):-2], _mac(key, topic, inner)):
        raise BadMessage(f"{topic}: the signature is wrong: not signed with this board's key")
    return inner


def check_name(value: str, what: str) -> str:
    if not NAME.match(value):
        raise Refused(Why.BAD_ID, what=what, value=value)
    return value


def board_topic(club: str, board: str, kind: str) -> str:
    return f"{ROOT}/{club}/boards/{board}/{kind}"


def club_filter(club: str) -> str:
    return f"{ROOT}/{club}/boards/+/+"


def event_payload(board: str, log: str, seq: int, at: float, inp: InputJSON, *, state: GameState) -> bytes:
    message: EventMessageJSON = {"v": VERSION, "board": board, "log": log, "seq": seq, "at": at, "input": inp,
                                 "state": state_json(state)}
    return _dump(message)


def state_payload(board: str, log: str, seq: int, at: float, state: GameState) -> bytes:
    message: StateMessageJSON = {"v": VERSION, "board": board, "log": log, "seq": seq, "at": at,
                                 "state": state_json(state)}
    return _dump(message)


def seat_topic(club: str, board: str) -> str:
    return f"{ROOT}/{club}/seats/{board}"


@dataclass(frozen=True, slots=True)
class TableSeat:
    """Who the scoreboard has seated at a board in a round (no players: the board sits this round out)."""

    round: int
    table: int
    players: tuple[str, ...]

    def payload(self) -> bytes:
        message: SeatMessageJSON = {"v": VERSION, "round": self.round, "table": self.table,
                                    "players": list(self.players)}
        return _dump(message)

    def message(self) -> messages.Message:
        """What the board's screen says ("Table 4: Ann against Bob"), as a message: its words are the screen's."""
        if len(self.players) != 2:
            return messages.Message(messages.Say.SIT_OUT, count=self.round)
        return messages.Message(messages.Say.SEAT, count=self.table, players=self.players)


def parse_seat(payload: bytes) -> TableSeat:
    """A seat message as the board receives it; BadMessage when it is not one."""
    obj = _load("seat", payload)
    seat = cast(SeatMessageJSON, _valid("seat", "club-seat", obj))
    if not (_whole(seat["round"], MAX_ROUND) and _whole(seat["table"], MAX_ROUND)):
        raise BadMessage("seat: \"round\" and \"table\" must be whole numbers")
    if len(seat["players"]) == 1:
        raise BadMessage("seat: \"players\" must name the table's two players, or be empty")
    return TableSeat(seat["round"], seat["table"], tuple(seat["players"]))


def status_payload(online: bool) -> bytes:
    message: StatusMessageJSON = {"v": VERSION, "online": online}
    return _dump(message)


def _dump(message: EventMessageJSON | StateMessageJSON | StatusMessageJSON | SeatMessageJSON) -> bytes:
    return json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def _load(where: str, payload: bytes) -> object:
    """The payload's JSON object of our version; BadMessage when it is not one."""
    try:
        obj: object = json.loads(payload.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        raise BadMessage(f"{where}: payload is not JSON ({error})") from None
    if not isinstance(obj, dict) or obj.get("v") != VERSION:
        raise BadMessage(f"{where}: payload must be a JSON object with \"v\": {VERSION} (what sent it runs another "
                         "version of the club's protocol: update it)")
    return obj


def _valid(where: str, name: str, obj: object) -> object:
    """`obj` when it follows the published schema `name`; BadMessage saying where it does not."""
    try:
        schema.validate(name, obj)
    except schema.Invalid as error:
        raise BadMessage(f"{where}: {error}") from None
    return obj


@dataclass(frozen=True, slots=True)
class Message:
    """One checked message: a board's status (`online`), or its state at `log`/`seq` (and an event's input)."""

    club: str
    board: str
    kind: Kind
    log: str = ""
    seq: int = 0
    at: float = 0.0
    state: StateJSON | None = None
    online: bool | None = None
    input: InputJSON | None = None  # an event's input, in the game log's form

    @property
    def position(self) -> tuple[int, int]:
        """Where in the board's history this message stands: later logs and later inputs sort higher."""
        return int(self.log or 0), self.seq


def parse_message(topic: str, payload: bytes, secret: bytes | None = None) -> Message:
    """Check a message from the broker against the topic tree and its payload's schema; with the club's
    `secret`, only a message signed with its board's key is taken."""
    parts = topic.split("/")
    if len(parts) != 5 or parts[0] != ROOT or parts[2] != "boards" or parts[4] not in SCHEMAS:
        raise BadMessage(f"topic {topic!r} is not cribbage/CLUB/boards/BOARD/(events|state|status)")
    club, board, kind = parts[1], parts[3], cast(Kind, parts[4])
    if not NAME.match(club) or not NAME.match(board):
        raise BadMessage(f"topic {topic!r} names a club or board that is not a usable id")
    if len(payload) > MAX_PAYLOAD:
        raise BadMessage(f"{topic}: payload of {len(payload)} bytes is over the {MAX_PAYLOAD}-byte limit")
    if secret is not None:
        payload = verify(board_key(secret, board), topic, payload)
    obj = _valid(topic, SCHEMAS[kind], _load(topic, payload))
    if kind == "status":
        return Message(club, board, kind, online=cast(StatusMessageJSON, obj)["online"])
    message = cast(EventMessageJSON | StateMessageJSON, obj)
    if message["board"] != board:
        raise BadMessage(f"{topic}: payload says board {message['board']!r}, the topic says {board!r}")
    if not _whole(message["seq"], MAX_SEQ):  # JSON Schema's integers include 3.0
        raise BadMessage(f"{topic}: \"seq\" must be a whole number from 0")
    state = _checked_state(topic, message["state"])
    inp = cast(EventMessageJSON, message)["input"] if kind == "events" else None
    return Message(club, board, kind, log=message["log"], seq=message["seq"], at=float(message["at"]),
                   state=state, input=inp)


def _checked_state(topic: str, state: StateJSON) -> StateJSON:
    """A state (which follows its schema) that says what a schema cannot: its indices name its sides, its
    sides' players are its players, and its numbers are within the bounds the scoreboard keeps."""
    players, sides = state["players"], state["sides"]
    if _names(players) is None:
        raise BadMessage(f"{topic}: \"players\" must be a list of up to {MAX_SIDES} different names")
    if not 0 < len(sides) <= MAX_SIDES or not all(
            _names(side["players"]) is not None and set(side["players"]) <= set(players)
            and all(_whole(side[key]) for key in ("score", "back_peg", "match_points")) for side in sides):
        raise BadMessage(f"{topic}: \"sides\" must list each side with its players and a score, back peg and match "
                         f"points from 0 to {MAX_SCORE}")
    rules = state["rules"]
    if not (_whole(rules["target"]) and rules["target"] >= 5 and all(_whole(v) for v in rules["skunk_lines"])):
        raise BadMessage(f"{topic}: \"rules\" must give the target (like 121) and the skunk lines")
    if len(state["prompt"]) > 400:
        raise BadMessage(f"{topic}: \"prompt\" must be a short text")
    for key, value in (("winner", state["winner"]), ("match_winner", state["match_winner"])):
        if value is not None and not (_whole(value) and value < len(sides)):
            raise BadMessage(f"{topic}: \"{key}\" must be the index of one of the sides, or null")
    if not all(_whole(value, 10**6) for value in (state["game"], state["deal"], state["count"])):
        raise BadMessage(f"{topic}: \"game\", \"deal\" and \"count\" must be whole numbers from 0")
    events = state["events"]
    if len(events) > MAX_EVENTS or not all(
            e["side"] is not None and _whole(e["side"]) and e["side"] < len(sides)
            and _whole(e["points"], least=-MAX_SCORE) for e in events):
        raise BadMessage(f"{topic}: \"events\" must list up to {MAX_EVENTS} scores, each with its side's index and "
                         "its points")
    return state


def _whole(value: object, most: int = MAX_SCORE, least: int = 0) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and least <= value <= most


def _names(value: list[str]) -> list[str] | None:
    """`value` when it is a list of 1 to MAX_SIDES different, short names."""
    if 0 < len(value) <= MAX_SIDES and all(0 < len(v) <= 80 for v in value) and len(set(value)) == len(value):
        return value
    return None
