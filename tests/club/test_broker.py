"""The club over a real Mosquitto: boards publish, the scoreboard follows, through faults of every part."""

from __future__ import annotations

import asyncio
import json
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import paho.mqtt.client as mqtt
import pytest

from companion.club import protocol
from companion.club.mosquitto import PASSWORD, Mosquitto, wait_for
from companion.club.pairing import Seat
from companion.club.publisher import Publisher
from companion.club.scoreboard import snapshot
from companion.words import schema
from tests.club.boards import SimBoard
from tests.club.scoreboard import BOARDS, CLUB, PLAYERS, Scoreboard, shows_final
from tests.facts import scores_of


@pytest.fixture
def mosquitto(tmp_path: Path) -> Iterator[Mosquitto]:
    broker = Mosquitto(tmp_path / "broker", CLUB, ["scoreboard", "homeassistant", *BOARDS])
    broker.start()
    yield broker
    broker.stop()


def test_the_scoreboard_shows_exactly_every_boards_final_state_and_counts_each_game_once(mosquitto, tmp_path):
    scoreboard = Scoreboard(mosquitto, tmp_path / "night")
    boards = [SimBoard(b, tmp_path / b, mosquitto.broker(b), CLUB, seed=i, players=PLAYERS[i])
              for i, b in enumerate(BOARDS)]
    try:
        while not all(b.finished for b in boards):
            for board in boards:
                board.play(7)
        wait_for(lambda: shows_final(scoreboard, boards), "every table's final state")
        standings = {s["player"]: s for s in scoreboard.get("/api/standings")}
        assert sorted(standings) == sorted(p for pair in PLAYERS for p in pair)
        for board in boards:  # each game counted once, for its winner with the match points it earned
            won = board.final()["state"]["sides"][board.final()["state"]["winner"]]
            [winner] = won["players"]
            assert standings[winner]["wins"] == standings[winner]["games"] == 1
            assert standings[winner]["match_points"] == won["match_points"]
        assert all(t["online"] for t in scoreboard.tables().values())
    finally:
        for board in boards:
            board.publisher.close()
        scoreboard.stop()


def test_broker_scoreboard_and_board_restarts_mid_play_lose_nothing_and_count_nothing_twice(mosquitto, tmp_path):
    scoreboard = Scoreboard(mosquitto, tmp_path / "night")
    boards = [SimBoard(b, tmp_path / b, mosquitto.broker(b), CLUB, seed=10 + i) for i, b in enumerate(BOARDS)]
    try:
        for board in boards:
            board.play(20)
        wait_for(lambda: all(scoreboard.tables().get(b.board, {}).get("seq") == b.log.lines for b in boards),
                 "20 inputs each")

        mosquitto.stop()  # the broker goes: the boards go on scoring
        for board in boards:
            board.play(15)
        mosquitto.start()

        scoreboard.stop()  # the scoreboard goes, and comes back while the boards play on
        for board in boards:
            board.play(15)
        assert scoreboard.start(), scoreboard.failed  # on the same port

        boards[0].restart(mosquitto.broker("t1"), CLUB)  # a board's power is cut
        for board in boards:
            board.play()
        wait_for(lambda: shows_final(scoreboard, boards), "every table's final state after the faults")
        assert scoreboard.night.games_finished() == len(boards)
        assert sum(s["wins"] for s in scoreboard.get("/api/standings")) == len(boards)
    finally:
        for board in boards:
            board.publisher.close()
        scoreboard.stop()


def test_the_acl_stops_a_board_publishing_under_another_boards_topic(mosquitto, tmp_path):
    scoreboard = Scoreboard(mosquitto, tmp_path / "night")
    honest = SimBoard("t2", tmp_path / "t2", mosquitto.broker("t2"), CLUB, seed=5)
    forger = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="forger")
    forger.username_pw_set("t1", "s3cret-for-tests")
    forger.connect("127.0.0.1", mosquitto.port)
    forger.loop_start()
    try:
        honest.play(5)
        wait_for(lambda: scoreboard.tables().get("t2", {}).get("seq") == honest.log.lines, "the honest board")
        forged = json.loads(protocol.state_payload("t2", "0001", 99, 0.0, honest.publisher.folded[2]))
        for side in forged["state"]["sides"]:
            side["score"] = 120
        forger.publish(protocol.board_topic(CLUB, "t2", "state"), json.dumps(forged), qos=1).wait_for_publish(5)
        forger.publish(protocol.board_topic(CLUB, "t1", "state"), b"not json", qos=1).wait_for_publish(5)
        honest.play(1)  # a message after the forgery, to know the forgery had its chance to arrive
        wait_for(lambda: scoreboard.tables().get("t2", {}).get("seq") == honest.log.lines,
                 "the honest board's next input")
        assert 120 not in scores_of(scoreboard.tables()["t2"]["state"]).values()
        assert "t1" not in scoreboard.tables()  # its own topic, but not JSON: logged and ignored
    finally:
        forger.loop_stop()
        forger.disconnect()
        honest.publisher.close()
        scoreboard.stop()


def test_home_assistant_finds_the_board_and_reads_its_scores_from_the_retained_state(mosquitto, tmp_path):
    board = SimBoard("t3", tmp_path / "t3", mosquitto.broker("t3"), CLUB, seed=7, players=("Ann", "Bob"))
    board.publisher.close()
    board.publisher = Publisher(mosquitto.broker("t3"), CLUB, "t3", tmp_path / "t3", home_assistant=True)
    board.publisher.start()
    seen: dict[str, bytes] = {}
    assistant = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="ha")
    assistant.username_pw_set("homeassistant", PASSWORD)
    assistant.on_message = lambda client, userdata, message: seen.__setitem__(message.topic, message.payload)
    assistant.connect("127.0.0.1", mosquitto.port)
    assistant.subscribe([("homeassistant/#", 1), (f"cribbage/{CLUB}/#", 1)])
    assistant.loop_start()
    try:
        board.play(30)
        state_topic = protocol.board_topic(CLUB, "t3", "state")
        discovery = "homeassistant/sensor/cribbage_t3/"
        # the retained configs and the state come on different topics, in no promised order: wait for both
        wait_for(lambda: state_topic in seen and json.loads(seen[state_topic])["seq"] == board.log.lines
                 and sum(t.startswith(discovery) for t in list(seen)) >= protocol.MAX_SIDES + 3,
                 "the retained state and configs")
        configs = {t: json.loads(p) for t, p in seen.items() if t.startswith(discovery)}
        assert {c["name"] for c in configs.values()} >= {"Side 1 score", "Side 2 score", "Turn", "Last score said"}
        assert all(c["state_topic"] == state_topic for c in configs.values())
        state = json.loads(seen[state_topic])["state"]
        assert scores_of(state) == scores_of(board.final()["state"])
        # what "Side 1 score" and "Last score said" read through their templates
        templates = {c["name"]: c["value_template"] for c in configs.values()}
        assert "value_json.state.sides[0].score" in templates["Side 1 score"]
        assert "(value_json.state.events|last).said" in templates["Last score said"]
        assert state["events"][-1]["said"] == board.final()["state"]["events"][-1]["said"]
    finally:
        assistant.loop_stop()
        assistant.disconnect()
        board.publisher.close()


def test_every_message_of_a_club_run_follows_its_published_schema(mosquitto, tmp_path):
    """What crosses the broker in a real run (the boards' events, states and statuses, the scoreboard's seats)
    is recorded by a listener of the whole club and checked against docs/schema/club-*.schema.json."""
    scoreboard = Scoreboard(mosquitto, tmp_path / "night")
    heard: list[tuple[str, bytes]] = []
    listener = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="listener")
    listener.username_pw_set("homeassistant", PASSWORD)
    listener.on_message = lambda client, userdata, message: heard.append((message.topic, message.payload))
    listener.connect("127.0.0.1", mosquitto.port)
    listener.subscribe(f"cribbage/{CLUB}/#", qos=1)
    listener.loop_start()
    boards = [SimBoard(b, tmp_path / b, mosquitto.broker(b), CLUB, seed=30 + i, players=PLAYERS[i])
              for i, b in enumerate(BOARDS[:2])]
    try:
        scoreboard.night.set_round(1, [Seat(1, "t1", PLAYERS[0]), Seat(2, "t2", PLAYERS[1])], [])
        for board in boards:
            board.play()
        wait_for(lambda: shows_final(scoreboard, boards), "both boards' final states")
        last = {f"cribbage/{CLUB}/boards/{b.board}/events": b.log.lines for b in boards}
        wait_for(lambda: {topic.split("/")[-1] for topic, _payload in heard} >= {"state", "status", "t1", "t2"}
                 and {(t, json.loads(p)["seq"]) for t, p in heard if t in last} >= set(last.items()),
                 "every kind of message, and the boards' last inputs")
        for topic, payload in list(heard):
            kind = "club-seat" if topic.split("/")[2] == "seats" else protocol.SCHEMAS[topic.split("/")[-1]]
            schema.validate(kind, json.loads(payload))
            if kind == "club-seat":
                assert protocol.parse_seat(payload).round == 1
            else:
                assert protocol.parse_message(topic, payload).board == topic.split("/")[3]
        page = snapshot(scoreboard.night, {"anonymous": False, "signed": False})  # what the page is sent
        schema.validate("club-night", json.loads(json.dumps(page)))
        assert [t["seat"]["table"] for t in page["tables"]] == [1, 2] and all(t["mini"] for t in page["tables"])
    finally:
        listener.loop_stop()
        listener.disconnect()
        for board in boards:
            board.publisher.close()
        scoreboard.stop()


def test_a_port_taken_before_the_broker_binds_it_is_left_for_a_free_one_unless_it_was_given_out(tmp_path):
    with socket.socket() as taken:  # another program binds the free port first (a parallel test, a client)
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        brokers = [Mosquitto(tmp_path / name, CLUB, ["scoreboard"]) for name in ("moved", "kept")]
        for broker in brokers:
            broker._port = port  # as if free_port() had chosen the port the other program took
            broker._configure()
        moved, kept = brokers
        moved.start()
        try:
            client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="after-the-move")
            client.username_pw_set("scoreboard", PASSWORD)
            assert moved.port != port and client.connect("127.0.0.1", moved.port) == mqtt.MQTT_ERR_SUCCESS
            client.disconnect()
        finally:
            moved.stop()
        assert kept.port == port  # given out before the start: a client will look for the broker there
        with pytest.raises(RuntimeError, match="Address already in use"):
            kept.start()


def test_the_scoreboard_stops_at_once_with_pages_still_following_it(tmp_path):
    mosquitto = Mosquitto(tmp_path / "broker", CLUB, ["scoreboard"])
    mosquitto.start()
    scoreboard = Scoreboard(mosquitto, tmp_path / "night")
    following, closed = threading.Event(), threading.Event()

    async def follow() -> None:  # a page's live updates, left open
        async with aiohttp.ClientSession() as session, session.ws_connect(
                f"http://127.0.0.1:{scoreboard.port}/ws") as socket:
            following.set()
            async for _message in socket:
                pass
            closed.set()

    page = threading.Thread(target=asyncio.run, args=(follow(),), daemon=True)
    page.start()
    try:
        wait_for(following.is_set, "the page to follow the scoreboard")
    finally:
        scoreboard.stop()  # the scoreboard closes the page's socket, so its thread ends (stop() checks)
        mosquitto.stop()
    wait_for(closed.is_set, "the page to hear the scoreboard stop")
    page.join()
