"""The club's topic tree and payloads (version 1), built by the boards and checked by the scoreboard.

    cribbage/CLUB/boards/BOARD/events   every accepted input with the state after it (QoS 1)
    cribbage/CLUB/boards/BOARD/state    the board's current state (QoS 1, retained)
    cribbage/CLUB/boards/BOARD/status   {"v":1,"online":true|false} (retained; the broker's will says false)

Every payload is a JSON object with `"v": 1`. An event is identified by its board, its game log ("0003")
and its sequence number in that log (the number `ok N` shows at the table), so a message delivered twice
is recognised and counted once. Anything received is checked by `parse_message`: a malformed or forged
message raises `BadMessage` with what was wrong, and the scoreboard logs and ignores it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from companion.cribbage.game import GameState, skunk_lines

VERSION = 1
ROOT = "cribbage"
MAX_PAYLOAD = 64 * 1024  # bytes; a state summary is about 1 KB
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$")  # a club or board id: safe in a topic and a URL
LOG = re.compile(r"^[0-9]{1,8}$")
MAX_SIDES = 4
MAX_SCORE = 1000


class BadMessage(ValueError):
    """A message the scoreboard will not use; the text says what was wrong with it."""


def check_name(value: str, what: str) -> str:
    if not NAME.match(value):
        raise ValueError(f"{what} {value!r} is not a usable id: use 1 to 40 letters, digits, '-', '_' or '.', "
                         "starting with a letter or digit")
    return value


def board_topic(club: str, board: str, kind: str) -> str:
    return f"{ROOT}/{club}/boards/{board}/{kind}"


def club_filter(club: str) -> str:
    return f"{ROOT}/{club}/boards/+/+"


def summary(state: GameState) -> dict[str, Any]:
    """What the scoreboard shows of a board's game: the players, the scores and the last thing said."""
    last = state.events[-1] if state.events else None
    said = None if last is None else {"side": last.side, "points": last.points, "label": last.label,
                                      "words": last.score.say()}
    return {
        "players": list(state.players), "sides": list(state.sides), "target": state.target,
        "skunk_line": skunk_lines(state.target)[0] if state.players else 0,
        "variant": state.variant, "match_scoring": state.match_scoring, "phase": state.phase,
        "dealer": state.dealer, "turn": state.turn, "count": state.count,
        "scores": dict(state.scores), "back_pegs": dict(state.back_pegs), "winner": state.winner,
        "skunk": state.skunk, "match_points": dict(state.match_points), "match_winner": state.match_winner,
        "game": state.game_number, "deal": state.deal_number, "prompt": state.prompt(), "said": said,
    }


def event_payload(board: str, log: str, seq: int, at: float, inp: dict[str, Any], *, state: GameState) -> bytes:
    return _dump({"v": VERSION, "board": board, "log": log, "seq": seq, "at": at, "input": inp,
                  "state": summary(state)})


def state_payload(board: str, log: str, seq: int, at: float, state: GameState) -> bytes:
    return _dump({"v": VERSION, "board": board, "log": log, "seq": seq, "at": at, "state": summary(state)})


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

    @property
    def position(self) -> tuple[int, int]:
        """Where in the board's history this message stands: later logs and later inputs sort higher."""
        return int(self.log or 0), self.seq


def parse_message(topic: str, payload: bytes) -> Message:
    """Check a message from the broker against the topic tree and the version-1 payloads."""
    parts = topic.split("/")
    if len(parts) != 5 or parts[0] != ROOT or parts[2] != "boards" or parts[4] not in ("events", "state", "status"):
        raise BadMessage(f"topic {topic!r} is not cribbage/CLUB/boards/BOARD/(events|state|status)")
    club, board, kind = parts[1], parts[3], parts[4]
    if not NAME.match(club) or not NAME.match(board):
        raise BadMessage(f"topic {topic!r} names a club or board that is not a usable id")
    if len(payload) > MAX_PAYLOAD:
        raise BadMessage(f"{topic}: payload of {len(payload)} bytes is over the {MAX_PAYLOAD}-byte limit")
    try:
        obj = json.loads(payload.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        raise BadMessage(f"{topic}: payload is not JSON ({error})") from None
    if not isinstance(obj, dict) or obj.get("v") != VERSION:
        raise BadMessage(f"{topic}: payload must be a JSON object with \"v\": {VERSION}")
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
    return Message(club, board, kind, log=log, seq=seq, at=float(at), state=_checked_state(topic, obj.get("state")))


def _checked_state(topic: str, state: object) -> dict[str, Any]:
    if not isinstance(state, dict):
        raise BadMessage(f"{topic}: \"state\" must be an object")
    sides, players = _names(state.get("sides")), _names(state.get("players"))
    if sides is None or players is None:
        raise BadMessage(f"{topic}: \"players\" and \"sides\" must be lists of up to {MAX_SIDES} names")
    for key in ("scores", "back_pegs", "match_points"):
        table = state.get(key)
        if not isinstance(table, dict) or set(table) != set(sides) or not all(
                isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= MAX_SCORE for v in table.values()):
            raise BadMessage(f"{topic}: \"{key}\" must give each side a score from 0 to {MAX_SCORE}")
    target = state.get("target")
    if isinstance(target, bool) or not isinstance(target, int) or not 5 <= target <= MAX_SCORE:
        raise BadMessage(f"{topic}: \"target\" must be the points that win, like 121")
    for key in ("phase", "prompt", "variant", "match_scoring"):
        if not isinstance(state.get(key), str) or len(state[key]) > 200:
            raise BadMessage(f"{topic}: \"{key}\" must be a short text")
    for key in ("winner", "match_winner"):
        if state.get(key) is not None and state.get(key) not in sides:
            raise BadMessage(f"{topic}: \"{key}\" must be one of the sides or null")
    for key in ("game", "deal", "count", "skunk_line"):
        value = state.get(key)
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 10**6:
            raise BadMessage(f"{topic}: \"{key}\" must be a whole number from 0")
    said = state.get("said")
    if said is not None and not (isinstance(said, dict) and isinstance(said.get("words"), str)
                                 and len(said["words"]) <= 500 and said.get("side") in sides
                                 and isinstance(said.get("points"), int) and isinstance(said.get("label"), str)):
        raise BadMessage(f"{topic}: \"said\" must be null or the last score with its side, points and words")
    if state.get("skunk") not in (None, "skunk", "double skunk"):
        raise BadMessage(f"{topic}: \"skunk\" must be null, \"skunk\" or \"double skunk\"")
    return state


def _names(value: object) -> list[str] | None:
    """`value` when it is a list of 1 to MAX_SIDES different, short names."""
    if (isinstance(value, list) and 0 < len(value) <= MAX_SIDES
            and all(isinstance(v, str) and 0 < len(v) <= 80 for v in value) and len(set(value)) == len(value)):
        return value
    return None
