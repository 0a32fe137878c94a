"""A board's publisher: follows the board's game logs and sends each accepted input to the club's broker.

The board never waits for the broker. The table only calls `wake()` after an input is logged; a thread of
the publisher reads the logs from where the broker last acknowledged (a small cursor file in the state
directory), folds the inputs with the engine to get the state after each, and publishes them in order with
QoS 1. With the broker down, slow or unreachable nothing is lost: the game log holds every input, and when
the connection comes back the publisher sends what the broker has not acknowledged. A message sent twice
carries the same log and sequence number, so the scoreboard counts it once. Given the signing key the
director made for it (`crib club credentials`), the board signs everything it sends to the scoreboard.
"""

from __future__ import annotations

import contextvars
import itertools
import json
import logging
import os
import ssl
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.club import protocol
from companion.config import broker_address
from companion.cribbage.errors import CribbageError
from companion.cribbage.game import GameState, apply, initial_state
from companion.cribbage.transcript import Input, parse_input
from companion.gamelog import games_dir, is_header
from companion.i18n import N_, choose, journal
from companion.words.messages import Message
from companion.words.projection import input_json

log = logging.getLogger(__name__)
JOURNAL = {  # what the publisher says in the board's journal, in the system's language (the journal's reader's)
    "not_an_input": N_("club: {log} holds a line that is not an input; publishing stops before it"),
    "refused": N_("club: the broker {address} refused the board ({reason}): check [club] username, password_file "
                  "and the broker's access list"),
    "connected": N_("club: connected to {address} as board {board} of {club}"),
    "lost": N_("club: lost the broker ({reason}); the game goes on and is sent when it is back"),
    "bad_seat": N_("club: ignored a seat on {topic}: {error}"),
    "logs_unreadable": N_("club: cannot read the game logs ({error}); trying again"),
    "does_not_apply": N_("club: {log} input {seq} does not apply ({error}); publishing stops there"),
    "cursor_unreadable": N_("club: {path} unreadable ({error}); sending the games again from the start"),
    "cursor_unwritten": N_("club: cannot keep {path} ({error}); the games may be sent again, which the scoreboard "
                           "ignores"),
}

KEEPALIVE = 30  # seconds
RETRY = (1, 8)  # reconnect backoff, seconds: a board is back on the scoreboard soon after the broker


@dataclass(frozen=True, slots=True)
class Broker:
    """Where the broker is and how to sign in: `mqtt://host:1883`, or `mqtts://host:8883` for TLS."""

    host: str
    port: int
    tls: bool = False
    username: str = ""
    password: str = ""
    ca_file: str = ""
    cert_file: str = ""
    key_file: str = ""

    @classmethod
    def from_url(cls, url: str, **login: str) -> Broker:
        """The broker at `url` (config.broker_address's forms); an Invalid (a ValueError) says what is wrong."""
        host, port, tls = broker_address(url)
        return cls(host, port, tls, **login)

    def client(self, client_id: str, *, clean: bool = True) -> Any:
        """A paho client set up for this broker (not yet connected)."""
        import paho.mqtt.client as mqtt
        from paho.mqtt.enums import CallbackAPIVersion

        client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, clean_session=clean)
        if self.username:
            client.username_pw_set(self.username, self.password or None)
        if self.tls or self.ca_file or self.cert_file:
            client.tls_set(ca_certs=self.ca_file or None, certfile=self.cert_file or None,
                           keyfile=self.key_file or None, tls_version=ssl.PROTOCOL_TLS_CLIENT)
        client.reconnect_delay_set(*RETRY)
        return client


class LogTail:
    """A game log's inputs as far as whole lines go (the table may be writing the next one), and the lines above
    the first input (its header: 1; 0 for old logs), so that input i (from 1) is on line i + that. Each read parses
    only the lines added since the last one; a log that shrank (a torn line cut off) is read again whole."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.offset = 0  # the bytes read into `inputs`
        self.above = 0
        self.inputs: list[Input] = []

    def read(self) -> tuple[int, list[Input]]:
        with self.path.open("rb") as file:
            if os.fstat(file.fileno()).st_size < self.offset:
                self.offset, self.above, self.inputs = 0, 0, []
            file.seek(self.offset)
            data = file.read()
        for raw in data[: data.rfind(b"\n") + 1].splitlines(keepends=True):
            text = raw.decode("utf-8", "replace")
            if not self.inputs and not self.above and is_header(text.rstrip("\n")):
                self.above = 1
            else:
                try:
                    self.inputs.append(parse_input(json.loads(text)))
                except (ValueError, CribbageError, RecursionError):
                    log.warning("%s", journal(JOURNAL["not_an_input"], log=self.path))
                    break
            self.offset += len(raw)
        return self.above, self.inputs


class Publisher:
    """Publishes one board's games; `start()`, `wake()` after each logged input, `close()`."""

    def __init__(self, broker: Broker, club: str, board: str, state_dir: Path, *,
                 home_assistant: bool = False, clock: Callable[[], float] = time.time,
                 signing_key: bytes | None = None) -> None:
        self.club, self.board = protocol.check_name(club, "club"), protocol.check_name(board, "board")
        self.broker = broker
        self.state_dir = state_dir
        self.home_assistant = home_assistant
        self.clock = clock
        self.cursor_path = state_dir / "club-cursor.json"
        self.acked = self._read_cursor()  # (log, seq): everything up to here reached the broker
        self.sent = self.acked
        self.in_flight: dict[int, tuple[str, int]] = {}
        self.done: set[tuple[str, int]] = set()
        self.early: set[int] = set()  # message ids acknowledged before publish() returned
        self.length: dict[str, int] = {"": 0}  # inputs sent of each log
        self.successor: dict[str, str] = {}  # a log -> the next one, once there is one (the first is final)
        self.folded: tuple[str, int, GameState] | None = None  # the last state worked out, to fold on from
        self.tails: dict[str, LogTail] = {}  # each log read so far and not yet sent whole
        self.connected = False
        self.connections = 0  # a send started before the latest connection must not move `sent`
        self.announced = False
        self.seat: protocol.TableSeat | None = None  # this board's seat in the latest round, from the scoreboard
        self.seat_news = False  # a seat arrived that the table has not shown yet
        self.lock = threading.Lock()
        self.wakeup = threading.Event()
        self.stopping = False
        self.signing_key = signing_key
        self.client = broker.client(f"cribbage-{club}-{board}")
        self.client.will_set(self.topic("status"), self._signed("status", protocol.status_payload(False)), qos=1,
                             retain=True)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_publish = self._on_publish
        self.client.on_message = self._on_message
        self.thread = threading.Thread(target=contextvars.copy_context().run, args=(self._run,), name="club-publisher",
                                       daemon=True)  # in the board's language

    def topic(self, kind: str) -> str:
        return protocol.board_topic(self.club, self.board, kind)

    def start(self) -> None:
        self.client.connect_async(self.broker.host, self.broker.port, keepalive=KEEPALIVE)
        self.client.loop_start()
        self.thread.start()

    def wake(self) -> None:
        """An input was logged: send it soon (never blocks)."""
        self.wakeup.set()

    def close(self) -> None:
        self.stopping = True
        self.wakeup.set()
        if self.thread.is_alive():
            self.thread.join(timeout=2)
        try:
            if self.connected:
                self.client.publish(self.topic("status"), self._signed("status", protocol.status_payload(False)),
                                    qos=1, retain=True)
            self.client.disconnect()
        finally:
            self.client.loop_stop()

    # --- the broker's callbacks (paho's thread) ------------------------------------------------------------

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        address = f"{self.broker.host}:{self.broker.port}"
        if reason.is_failure:
            log.warning("%s", journal(JOURNAL["refused"], address=address, reason=reason))
            return
        log.info("%s", journal(JOURNAL["connected"], address=address, board=self.board, club=self.club))
        client.subscribe(protocol.seat_topic(self.club, self.board), qos=1)
        with self.lock:
            self.connected, self.announced = True, False
            self.connections += 1
            self.sent = self.acked  # send again whatever was not acknowledged: the scoreboard counts it once
            self.in_flight.clear()
            self.early.clear()
        self.wakeup.set()

    def _on_disconnect(self, client: Any, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        if self.connected:
            log.warning("%s", journal(JOURNAL["lost"], reason=reason))
        self.connected = False

    def _on_message(self, client: Any, userdata: Any, message: Any) -> None:
        """The scoreboard seats this board (retained: it arrives again at each connection, shown when new)."""
        try:
            seat = protocol.parse_seat(message.payload)
        except protocol.BadMessage as error:
            log.warning("%s", journal(JOURNAL["bad_seat"], topic=message.topic, error=error))
            return
        with self.lock:
            if seat != self.seat:
                self.seat, self.seat_news = seat, True

    def take_seat(self) -> Message | None:
        """A seat the table has not shown yet ("Table 4: Ann against Bob"), once; else None."""
        with self.lock:
            if not self.seat_news or self.seat is None:
                return None
            self.seat_news = False
            return self.seat.message()

    def _on_publish(self, client: Any, userdata: Any, mid: int, reason: Any, properties: Any) -> None:
        self._settle(mid, None)

    def _settle(self, mid: int, where: tuple[str, int] | None) -> None:
        """Match a message sent (`where`) with its acknowledgement (None), whichever comes first."""
        with self.lock:
            if where is None:
                where = self.in_flight.pop(mid, None)
                if where is None:  # acknowledged before publish() returned
                    self.early.add(mid)
                    return
            elif mid in self.early:
                self.early.discard(mid)
            else:
                self.in_flight[mid] = where
                return
            self.done.add(where)
            before = self.acked
            self._advance()
            advanced = self.acked != before
        if advanced:
            self._write_cursor()

    def _advance(self) -> None:
        """Move the cursor over every acknowledged message in order, and over the end of a finished log."""
        while True:
            name, seq = self.acked
            if (name, seq + 1) in self.done:
                self.done.discard((name, seq + 1))
                self.acked = (name, seq + 1)
            elif name in self.successor and seq >= self.length.get(name, 0):
                self.acked = (self.successor[name], 0)
            else:
                return

    # --- the publishing thread -----------------------------------------------------------------------------

    def _run(self) -> None:
        while not self.stopping:
            self.wakeup.wait(timeout=1.0)
            self.wakeup.clear()
            if self.connected and not self.stopping:
                try:
                    self._send_new()
                except OSError as error:
                    log.warning("%s", journal(JOURNAL["logs_unreadable"], error=error.strerror or error))

    def _send_new(self) -> None:
        logs = sorted(p for p in games_dir(self.state_dir).glob("*.jsonl") if p.stem.isdigit())
        if not logs:
            return
        with self.lock:
            sent, connection = self.sent, self.connections
            self.successor.update({a.stem: b.stem for a, b in itertools.pairwise(logs)})
            self.successor.setdefault("", logs[0].stem)
        for path in logs:
            if path.stem < sent[0]:
                self.tails.pop(path.stem, None)  # sent whole: its inputs need not be kept
                continue
            if path.stem not in self.tails:
                self.tails[path.stem] = LogTail(path)
            above, inputs = self.tails[path.stem].read()
            start = sent[1] if path.stem == sent[0] else 0
            with self.lock:
                self.length[path.stem] = len(inputs)
            state = self._state_at(path.stem, inputs, start)
            for seq in range(start + 1, len(inputs) + 1):
                inp = inputs[seq - 1]
                try:
                    state = apply(state, inp)
                except CribbageError as error:  # the table refuses such inputs; a hand-edited log could hold one
                    from companion.words.saying import error_words  # only for a hand-edited log

                    log.warning("%s", journal(JOURNAL["does_not_apply"], log=path, seq=seq,
                                               error=error_words(error, choose(None))))
                    return
                payload = protocol.event_payload(self.board, path.stem, above + seq, self.clock(), input_json(inp),
                                                 state=state)
                self._publish("events", payload, where=(path.stem, seq))
                self.folded = (path.stem, seq, state)
                sent = (path.stem, seq)
            if path == logs[-1] and (start < len(inputs) or not self.announced):
                summary = protocol.state_payload(self.board, path.stem, above + len(inputs), self.clock(), state)
                self._publish("state", summary, retain=True)
                if not self.announced:
                    self._announce(state)
        with self.lock:
            if connection == self.connections:
                self.sent = max(self.sent, sent)
            before = self.acked
            self._advance()  # over logs that held nothing new
            advanced = self.acked != before
        if advanced:
            self._write_cursor()

    def _state_at(self, name: str, inputs: list[Input], count: int) -> GameState:
        if self.folded is not None and self.folded[:2] == (name, count):
            return self.folded[2]
        state = initial_state()
        for inp in inputs[:count]:
            state = apply(state, inp)
        return state

    def _publish(self, kind: str, payload: bytes, *, where: tuple[str, int] | None = None,
                 retain: bool = False) -> None:
        # Never call paho holding our lock: paho calls _on_publish holding its own.
        info = self.client.publish(self.topic(kind), self._signed(kind, payload), qos=1, retain=retain)
        if where is not None:
            self._settle(info.mid, where)

    def _signed(self, kind: str, payload: bytes) -> bytes:
        return payload if self.signing_key is None else protocol.sign(self.signing_key, self.topic(kind), payload)

    def _announce(self, state: GameState) -> None:
        """Online, and (when asked) Home Assistant's discovery of this board's sensors."""
        self._publish("status", protocol.status_payload(True), retain=True)
        if self.home_assistant:
            for topic, config in home_assistant_configs(self.club, self.board, self.topic("state")):
                self._publish_raw(topic, config)
        self.announced = True

    def _publish_raw(self, topic: str, payload: bytes) -> None:
        self.client.publish(topic, payload, qos=1, retain=True)

    # --- the cursor ---------------------------------------------------------------------------------------

    def _read_cursor(self) -> tuple[str, int]:
        try:
            data = json.loads(self.cursor_path.read_text(encoding="utf-8"))
            if isinstance(data, dict) and isinstance(data.get("log"), str) and isinstance(data.get("seq"), int):
                return data["log"], data["seq"]
        except FileNotFoundError:
            pass
        except (OSError, ValueError) as error:
            log.warning("%s", journal(JOURNAL["cursor_unreadable"], path=self.cursor_path, error=error))
        return "", 0

    def _write_cursor(self) -> None:
        temporary = self.cursor_path.with_suffix(".tmp")
        try:
            temporary.write_text(json.dumps({"log": self.acked[0], "seq": self.acked[1]}), encoding="utf-8")
            os.replace(temporary, self.cursor_path)
        except OSError as error:  # a full disk: the worst case is sending again, which the scoreboard ignores
            log.warning("%s", journal(JOURNAL["cursor_unwritten"], path=self.cursor_path,
                                      error=error.strerror or error))


def home_assistant_configs(club: str, board: str, state_topic: str) -> list[tuple[str, bytes]]:
    """Home Assistant MQTT discovery: the board as a device with sensors for the scores, the turn and the
    last score said (read from the retained state)."""
    node = f"cribbage_{board}"
    device = {"identifiers": [f"cribbage-{club}-{board}"], "name": f"Cribbage board {board}",
              "manufacturer": "Cribbage Companion", "model": "LED peg board"}
    sensors: list[tuple[str, str, str]] = [
        (f"side{i + 1}_score", f"Side {i + 1} score",
         f"{{{{ value_json.state.sides[{i}].score if value_json.state.sides|length > {i} else 0 }}}}")
        for i in range(protocol.MAX_SIDES)
    ]
    sensors += [("turn", "Turn", "{{ value_json.state.turn or '' }}"),
                ("said", "Last score said", "{{ (value_json.state.events|last).said if value_json.state.events "
                                            "else '' }}"),
                ("prompt", "Next at the table", "{{ value_json.state.prompt }}")]
    configs = []
    for key, name, template in sensors:
        config = {"name": name, "unique_id": f"cribbage_{club}_{board}_{key}", "state_topic": state_topic,
                  "value_template": template, "device": device,
                  "availability_topic": protocol.board_topic(club, board, "status"),
                  "availability_template": "{{ 'online' if value_json.online else 'offline' }}"}
        configs.append((f"homeassistant/sensor/{node}/{key}/config",
                        json.dumps(config, separators=(",", ":")).encode("utf-8")))
    return configs
