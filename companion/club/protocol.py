"""The club's topic tree and payloads (version 2), built by the boards and checked by the scoreboard.

    cribbage/CLUB/boards/BOARD/events   every accepted input with the state after it (QoS 1)
    cribbage/CLUB/boards/BOARD/state    the board's current state (QoS 1, retained)
    cribbage/CLUB/boards/BOARD/status   {"v":2,"online":true|false} (retained; the broker's will says false)
    cribbage/CLUB/seats/BOARD           the round's seat at this board, from the scoreboard (QoS 1, retained):
                                        {"v":2,"round":4,"table":4,"players":["Ann","Bob"]} (players [] when idle)

Every payload is a JSON object with `"v": 2`; its `state` is the game's one projection
(companion.words.projection: the same keys as `crib replay --json` and the page's `/api/state`). An event
is identified by its board, its game log ("0003") and its sequence number in that log (the number `ok N`
shows at the table), so a message delivered twice is recognised and counted once. Anything received is
checked by `parse_message`: a malformed or forged message raises `BadMessage` with what was wrong, and the
scoreboard logs and ignores it. Where the broker cannot keep boards apart (an anonymous broker), each board
signs what it publishes with a key the director gave it (`sign`: HMAC-SHA256 over the topic and the payload,
appended as its last field `"sig"`), and a scoreboard holding the club's secret takes only messages whose
signature is right (`verify`). Version 1 payloads (a flat summary keyed by side names) are still read: they
are brought to the version-2 form on arrival (`_upgrade`), so the rest of the scoreboard knows one form.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from dataclasses import dataclass
from typing import Any

from companion.cribbage.game import GameState
from companion.cribbage.rules import partnerships, skunk_lines
from companion.i18n import _
from companion.words import schema
from companion.words.projection import state_json

VERSION = 2
READ = (1, 2)  # the versions the scoreboard takes
ROOT = "cribbage"
MAX_PAYLOAD = 256 * 1024  # bytes; a whole game's state is about 20 KB
MAX_EVENTS = 2000
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$")  # a club or board id: safe in a topic and a URL
LOG = re.compile(r"^[0-9]{1,8}$")
MAX_SIDES = 4
MAX_SCORE = 1000


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
        raise ValueError(f"{what} {value!r} is not a usable id: use 1 to 40 letters, digits, '-', '_' or '.', "
                         "starting with a letter or digit")
    return value


def board_topic(club: str, board: str, kind: str) -> str:
    return f"{ROOT}/{club}/boards/{board}/{kind}"


def club_filter(club: str) -> str:
    return f"{ROOT}/{club}/boards/+/+"


def event_payload(board: str, log: str, seq: int, at: float, inp: dict[str, Any], *, state: GameState) -> bytes:
    return _dump({"v": VERSION, "board": board, "log": log, "seq": seq, "at": at, "input": inp,
                  "state": state_json(state)})


def state_payload(board: str, log: str, seq: int, at: float, state: GameState) -> bytes:
    return _dump({"v": VERSION, "board": board, "log": log, "seq": seq, "at": at, "state": state_json(state)})


def seat_topic(club: str, board: str) -> str:
    return f"{ROOT}/{club}/seats/{board}"


@dataclass(frozen=True, slots=True)
class TableSeat:
    """Who the scoreboard has seated at a board in a round (no players: the board sits this round out)."""

    round: int
    table: int
    players: tuple[str, ...]

    def payload(self) -> bytes:
        return _dump({"v": VERSION, "round": self.round, "table": self.table, "players": list(self.players)})

    def words(self) -> str:
        """What the board's screen says: "Table 4: Ann against Bob"."""
        if len(self.players) != 2:
            return _("Round {round}: no game at this table").format(round=self.round)
        return _("Table {table}: {first} against {second}").format(
            table=self.table, first=self.players[0], second=self.players[1])


def parse_seat(payload: bytes) -> TableSeat:
    """A seat message as the board receives it; BadMessage when it is not one."""
    try:
        obj = json.loads(payload.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        raise BadMessage(f"seat: payload is not JSON ({error})") from None
    if not isinstance(obj, dict) or obj.get("v") != VERSION:
        raise BadMessage(f"seat: payload must be a JSON object with \"v\": {VERSION}")
    number, table, players = obj.get("round"), obj.get("table"), obj.get("players")
    if not isinstance(number, int) or not isinstance(table, int) or not (
            _whole(number, 10**4) and _whole(table, 10**4)):
        raise BadMessage("seat: \"round\" and \"table\" must be whole numbers")
    named = _names(players)
    if players != [] and (named is None or len(named) != 2):
        raise BadMessage("seat: \"players\" must name the table's two players, or be empty")
    return TableSeat(number, table, tuple(named or ()))


def status_payload(online: bool) -> bytes:
    return _dump({"v": VERSION, "online": online})


def _dump(obj: dict[str, Any]) -> bytes:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


@dataclass(frozen=True, slots=True)
class Message:
    """One checked message: `kind` is "events", "state" or "status"."""

    club: str
    board: str
    kind: str
    log: str = ""
    seq: int = 0
    at: float = 0.0
    state: dict[str, Any] | None = None
    online: bool | None = None
    input: dict[str, Any] | None = None  # an event's input, in the game log's form

    @property
    def position(self) -> tuple[int, int]:
        """Where in the board's history this message stands: later logs and later inputs sort higher."""
        return int(self.log or 0), self.seq


def parse_message(topic: str, payload: bytes, secret: bytes | None = None) -> Message:
    """Check a message from the broker against the topic tree and the payloads; with the club's `secret`,
    only a message signed with its board's key is taken."""
    parts = topic.split("/")
    if len(parts) != 5 or parts[0] != ROOT or parts[2] != "boards" or parts[4] not in ("events", "state", "status"):
        raise BadMessage(f"topic {topic!r} is not cribbage/CLUB/boards/BOARD/(events|state|status)")
    club, board, kind = parts[1], parts[3], parts[4]
    if not NAME.match(club) or not NAME.match(board):
        raise BadMessage(f"topic {topic!r} names a club or board that is not a usable id")
    if len(payload) > MAX_PAYLOAD:
        raise BadMessage(f"{topic}: payload of {len(payload)} bytes is over the {MAX_PAYLOAD}-byte limit")
    if secret is not None:
        payload = verify(board_key(secret, board), topic, payload)
    try:
        obj = json.loads(payload.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        raise BadMessage(f"{topic}: payload is not JSON ({error})") from None
    if not isinstance(obj, dict) or obj.get("v") not in READ:
        raise BadMessage(f"{topic}: payload must be a JSON object with \"v\": {VERSION} (or 1)")
    if kind == "status":
        online = obj.get("online")
        if not isinstance(online, bool):
            raise BadMessage(f"{topic}: a status needs \"online\": true or false")
        return Message(club, board, kind, online=online)
    if obj.get("board") != board:
        raise BadMessage(f"{topic}: payload says board {obj.get('board')!r}, the topic says {board!r}")
    log, seq, at = obj.get("log"), obj.get("seq"), obj.get("at")
    if not isinstance(log, str) or not LOG.match(log):
        raise BadMessage(f"{topic}: \"log\" must be the game log's number, like \"0003\"")
    if isinstance(seq, bool) or not isinstance(seq, int) or not 0 <= seq <= 10**7:
        raise BadMessage(f"{topic}: \"seq\" must be a whole number from 0")
    if isinstance(at, bool) or not isinstance(at, (int, float)):
        raise BadMessage(f"{topic}: \"at\" must be a time in seconds")
    state = obj.get("state")
    if obj["v"] == VERSION:  # the published contract first (docs/schema/state.schema.json), then what it cannot say
        try:
            schema.validate("state", state)
        except schema.Invalid as error:
            raise BadMessage(f"{topic}: {error}") from None
    checked = _checked_state(topic, _upgrade(topic, state) if obj["v"] == 1 else state)
    inp = obj.get("input")
    if kind == "events" and not (isinstance(inp, dict) and isinstance(inp.get("type"), str)):
        raise BadMessage(f"{topic}: an event needs its \"input\", like {{\"type\":\"go\"}}")
    return Message(club, board, kind, log=log, seq=seq, at=float(at), state=checked,
                   input=inp if kind == "events" else None)


def _checked_state(topic: str, state: object) -> dict[str, Any]:
    """A state (of version 2, or upgraded from 1) whose every value the scoreboard reads is of the kind the
    projection makes, within the bounds the scoreboard keeps, and whose indices name its sides."""
    if not isinstance(state, dict):
        raise BadMessage(f"{topic}: \"state\" must be an object")
    players, sides = _names(state.get("players")), state.get("sides")
    if players is None:
        raise BadMessage(f"{topic}: \"players\" must be a list of up to {MAX_SIDES} names")
    if not isinstance(sides, list) or not 0 < len(sides) <= MAX_SIDES or not all(
            isinstance(side, dict) and _names(side.get("players")) is not None
            and set(side["players"]) <= set(players) and isinstance(side.get("name"), str)
            and all(_whole(side.get(key)) for key in ("score", "back_peg", "match_points")) for side in sides):
        raise BadMessage(f"{topic}: \"sides\" must list each side with its players and a score, back peg and match "
                         f"points from 0 to {MAX_SCORE}")
    rules = state.get("rules")
    if not isinstance(rules, dict) or not _whole(rules.get("target")) or not rules["target"] >= 5 or not (
            isinstance(rules.get("skunk_lines"), list) and all(_whole(v) for v in rules["skunk_lines"])):
        raise BadMessage(f"{topic}: \"rules\" must give the target (like 121) and the skunk lines")
    for key in ("variant", "match_scoring"):
        if not isinstance(rules.get(key), str) or len(rules[key]) > 40:
            raise BadMessage(f"{topic}: \"rules.{key}\" must be a short text")
    for key in ("phase", "prompt"):
        if not isinstance(state.get(key), str) or len(state[key]) > 400:
            raise BadMessage(f"{topic}: \"{key}\" must be a short text")
    for key in ("winner", "match_winner"):
        value = state.get(key)
        if value is not None and not (_whole(value) and value < len(sides)):
            raise BadMessage(f"{topic}: \"{key}\" must be the index of one of the sides, or null")
    for key in ("game", "deal", "count"):
        if not _whole(state.get(key), 10**6):
            raise BadMessage(f"{topic}: \"{key}\" must be a whole number from 0")
    events = state.get("events")
    if not isinstance(events, list) or len(events) > MAX_EVENTS or not all(
            isinstance(e, dict) and isinstance(e.get("kind"), str) and isinstance(e.get("said"), str)
            and isinstance(e.get("name"), str) and _whole(e.get("side")) and e["side"] < len(sides)
            and _whole(e.get("points"), least=-MAX_SCORE) for e in events):
        raise BadMessage(f"{topic}: \"events\" must list each score with its kind, side, points and words")
    if state.get("skunk") not in (None, "skunk", "double skunk"):
        raise BadMessage(f"{topic}: \"skunk\" must be null, \"skunk\" or \"double skunk\"")
    return state


def _whole(value: object, most: int = MAX_SCORE, least: int = 0) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and least <= value <= most


def _upgrade(topic: str, state: object) -> dict[str, Any]:
    """A version-1 summary in the version-2 form: the sides from the players (partners sit across), each side's
    numbers from the summary's tables keyed by its name, the last score said as the one event."""
    if not isinstance(state, dict) or _names(state.get("players")) is None:
        raise BadMessage(f"{topic}: a version-1 \"state\" must be an object with its \"players\"")
    players = tuple(state["players"])
    names = _names(state.get("sides"))
    sides = partnerships(players)
    if names is None or len(names) != len(sides):
        raise BadMessage(f"{topic}: a version-1 \"sides\" must name one side a player, or two partnerships")
    tables: list[dict[str, Any]] = [state.get(key) or {} for key in ("scores", "back_pegs", "match_points")]
    if not all(isinstance(t, dict) and set(t) == set(names) for t in tables):
        raise BadMessage(f"{topic}: \"scores\", \"back_pegs\" and \"match_points\" must give each side a score")
    target = state.get("target")
    if not isinstance(target, int) or not _whole(target) or target < 5:
        raise BadMessage(f"{topic}: \"target\" must be the points that win, like 121")
    said = state.get("said")
    index = {name: i for i, name in enumerate(names)}
    winners = [state.get(key) for key in ("winner", "match_winner")]
    if not all(w is None or (isinstance(w, str) and w in index) for w in winners):
        raise BadMessage(f"{topic}: \"winner\" and \"match_winner\" must be one of the sides or null")
    if isinstance(said, dict) and not (isinstance(said.get("side"), str) and said["side"] in index):
        raise BadMessage(f"{topic}: \"said\" must be null or the last score with its side, points and words")
    events: list[dict[str, Any]] = [] if not isinstance(said, dict) else [
        {"kind": "", "side": index[said["side"]], "player": None, "points": said.get("points"),
         "deal": state.get("deal"), "claimed": None, "notes": [], "name": said.get("label"),
         "said": said.get("words")}]
    return {**{k: v for k, v in state.items() if k not in ("scores", "back_pegs", "said", "skunk_line")},
            "sides": [{"players": list(players_of), "name": name, "score": tables[0][name], "back_peg": tables[1][name],
                       "match_points": tables[2][name]} for players_of, name in zip(sides, names, strict=True)],
            "rules": {"variant": state.get("variant"), "players": len(players), "target": target,
                      "match_scoring": state.get("match_scoring"),
                      "skunk_lines": list(skunk_lines(target))},
            "winner": None if winners[0] is None else index[winners[0]],
            "match_winner": None if winners[1] is None else index[winners[1]],
            "events": events}


def _names(value: object) -> list[str] | None:
    """`value` when it is a list of 1 to MAX_SIDES different, short names."""
    if (isinstance(value, list) and 0 < len(value) <= MAX_SIDES
            and all(isinstance(v, str) and 0 < len(v) <= 80 for v in value) and len(set(value)) == len(value)):
        return value
    return None
