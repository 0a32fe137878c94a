"""The director's night over a real Mosquitto run with the files `crib club credentials` writes: results that do
not follow the rules never count, cards go through the scoreboard with the director's token and must match the
seating, a stranger's game waits for the director, and signed boards where the broker takes anyone."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest

from companion.cli import main
from companion.club import protocol
from companion.club.mosquitto import Mosquitto, wait_for
from companion.cribbage.game import apply, initial_state
from companion.cribbage.transcript import input_to_json
from companion.words import schema
from tests.club.night_fixtures import Board, whole_game
from tests.club.scoreboard import Scoreboard

CLUB = "friday"
BOARDS = ["t1", "t2", "t3"]
FIELD = ["Ann", "Cat", "Eve", "Bob", "Dan", "Fay"]  # round 1: Ann-Bob at t1, Cat-Dan at t2, Eve-Fay at t3


@pytest.fixture
def made(tmp_path: Path) -> Path:
    folder = tmp_path / "credentials"
    assert main(["club", "credentials", "--club", CLUB, "--boards", ",".join(BOARDS), "--out", str(folder)]) == 0
    return folder


@pytest.fixture
def broker(tmp_path: Path, made: Path) -> Iterator[Mosquitto]:
    running = Mosquitto(tmp_path / "broker", CLUB, [], credentials=made)
    running.start()
    yield running
    running.stop()


def crib(tmp_path: Path, *args: str) -> int:
    return main(["club", *args, "--club", CLUB, "--night-dir", str(tmp_path / "night")])


def seat_round_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert crib(tmp_path, "round", "--players", ",".join(FIELD), "--boards", ",".join(BOARDS), "--scoring",
                "acc") == 0
    assert "Table 1 (t1): Ann against Bob" in capsys.readouterr().out


def client(broker: Mosquitto, user: str, made: Path) -> mqtt.Client:
    """A raw MQTT client signed in as `user` with its own password from the credentials ("" = anonymous)."""
    raw = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"raw-{user or 'anonymous'}")
    if user:
        raw.username_pw_set(user, (made / "boards" / user / "password").read_text().strip())
    raw.connect("127.0.0.1", broker.port)
    raw.loop_start()
    return raw


def publish(raw: mqtt.Client, topic: str, payload: bytes) -> None:
    raw.publish(topic, payload, qos=1, retain=topic.endswith("/state")).wait_for_publish(5)


def test_a_forged_finished_game_never_counts_and_waits_on_the_directors_page(tmp_path, made, broker, capsys):
    seat_round_one(tmp_path, capsys)
    token = (made / "director.token").read_text().strip()
    scoreboard = Scoreboard(broker, tmp_path / "night", club=CLUB, director=token)
    honest = Board("t3", tmp_path / "t3", broker.broker("t3"), CLUB)
    t1, t2 = client(broker, "t1", made), client(broker, "t2", made)
    try:
        inputs = whole_game(3, ("Ann", "Bob"))  # t1 claims Ann won 121 to 3, with no input at all
        states = [initial_state()]
        for inp in inputs:
            states.append(apply(states[-1], inp))
        claimed = json.loads(protocol.state_payload("t1", "0001", len(inputs), 0.0, states[-1]))
        winner = claimed["state"]["winner"]
        claimed["state"]["sides"][winner]["score"], claimed["state"]["sides"][1 - winner]["score"] = 121, 3
        publish(t1, protocol.board_topic(CLUB, "t1", "state"), json.dumps(claimed).encode())
        into_t3 = {**claimed, "board": "t3", "log": "0009"}  # t1 writing as t3: the broker's ACL drops it
        publish(t1, protocol.board_topic(CLUB, "t3", "state"), json.dumps(into_t3).encode())

        game = whole_game(4, ("Cat", "Dan"))  # t2 sends its real inputs, the last with a state they do not reach
        state = initial_state()
        for seq, inp in enumerate(game, start=1):
            state = apply(state, inp)
            payload = json.loads(protocol.event_payload("t2", "0001", seq, 0.0, input_to_json(inp), state=state))
            if seq == len(game):
                loser = 1 - payload["state"]["winner"]
                payload["state"]["sides"][loser]["score"] = 5
                payload["state"]["skunk"] = "double skunk"
            publish(t2, protocol.board_topic(CLUB, "t2", "events"), json.dumps(payload).encode())

        final = honest.play_game(5, ("Eve", "Fay"))  # the honest board, seated there: after the forgeries
        wait_for(lambda: scoreboard.night.games_finished() == 1, "the honest game")
        wait_for(lambda: len(scoreboard.get("/api/waiting")["waiting"]) == 2, "both forgeries on the director's page")
        schema.validate("club-director", scoreboard.get("/api/waiting"))
        problems = {item["board"]: item for item in scoreboard.get("/api/waiting")["waiting"]}
        assert {b: (p["reason"], p["detail"]["code"], p["approvable"]) for b, p in problems.items()} == {
            "t1": ("unfollowed", "missing", False), "t2": ("unfollowed", "differs", False)}
        assert scoreboard.tables()["t3"]["log"] == "0001"  # only the honest board's own log reached t3
        assert problems["t1"]["scores"][winner] == 121 and problems["t1"]["scores"][1 - winner] == 3
        played = {r["player"]: r for r in scoreboard.get("/api/standings") if r["games"]}
        assert set(played) == {"Eve", "Fay"}  # Ann, Bob, Cat and Dan have played nothing that counts
        assert final.winner is not None and played[final.winner.players[0]]["wins"] == 1
        status, answer = scoreboard.post("/api/decide", {"id": problems["t1"]["id"], "approve": True}, token)
        assert (status, answer["refusal"]) == (409, "unfollowed")
        assert scoreboard.night.games_finished() == 1
    finally:
        for raw in (t1, t2):
            raw.loop_stop()
            raw.disconnect()
        honest.close()
        scoreboard.stop()


def test_cards_go_through_the_scoreboard_with_the_token_and_must_match_the_seating(tmp_path, made, broker,
                                                                                     capsys):
    seat_round_one(tmp_path, capsys)
    token = (made / "director.token").read_text().strip()
    scoreboard = Scoreboard(broker, tmp_path / "night", club=CLUB, director=token)
    url = f"http://127.0.0.1:{scoreboard.port}"

    def enter(player: str, opponent: str, score: int, against: int, *, number: int = 1,
              token_file: Path = made / "director.token", lang: str = "en") -> int:
        return main(["--lang", lang, "club", "enter", "--scoreboard", url, "--token-file", str(token_file),
                     "--round", str(number), "--player", player, "--opponent", opponent, "--score", str(score),
                     "--against", str(against)])

    try:
        (tmp_path / "wrong.token").write_text("guess\n")
        assert enter("Ann", "Bob", 121, 100, token_file=tmp_path / "wrong.token") == 2
        assert "the director's token is needed" in capsys.readouterr().err
        assert enter("Zed", "Ann", 121, 90) == 2
        assert "Zed is not in tonight's field" in capsys.readouterr().err
        assert enter("Cat", "Ann", 121, 90) == 2
        assert "were not seated together in round 1: Cat played Dan at table 2" in capsys.readouterr().err
        assert enter("Cat", "Ann", 121, 90, lang="de") == 2  # the refusal's code, in the reader's language
        assert "saßen in Runde 1 nicht zusammen: Cat spielte an Tisch 2 gegen Dan" in capsys.readouterr().err
        card = {"round": 1, "player": "Cat", "opponent": "Ann", "score": 121, "against": 90}
        said = {lang: scoreboard.post("/api/enter", card, token, lang) for lang in ("de-DE,de;q=0.9", "en")}
        assert {lang: (status, answer["refusal"], answer["facts"]) for lang, (status, answer) in said.items()} == (
            dict.fromkeys(said, (409, "not_seated", {"round": 1, "player": "Cat", "opponent": "Ann",
                                                     "where": "played", "other": "Dan", "table": 2})))
        assert said["en"][1]["message"] == ("Cat and Ann were not seated together in round 1: Cat played Dan at "
                                            "table 2")  # the code and facts, and the words in each asker's language
        assert said["de-DE,de;q=0.9"][1]["message"] == ("Cat und Ann saßen in Runde 1 nicht zusammen: Cat spielte "
                                                        "an Tisch 2 gegen Dan")
        assert enter("Ann", "Bob", 121, 100, number=3) == 2
        assert "there is no round 3" in capsys.readouterr().err

        assert enter("Ann", "Bob", 121, 100) == 0
        assert enter("Bob", "Ann", 100, 121) == 0
        assert "entered by both: it counts" in capsys.readouterr().out
        wait_for(lambda: {r["player"]: r["points"] for r in scoreboard.get("/api/standings")}["Ann"] == 2,
                 "Ann's win in the standings")

        assert enter("Bob", "Ann", 121, 60) == 1  # Bob changes his card: the game is out until they agree
        assert "the cards differ" in capsys.readouterr().out
        standings = {r["player"]: r for r in scoreboard.get("/api/standings")}
        assert standings["Ann"]["points"] == standings["Bob"]["points"] == 0
        [item] = scoreboard.get("/api/waiting")["waiting"]
        assert (item["reason"], item["detail"]["was"]) == ("disagreement", "counts")
        assert enter("Bob", "Ann", 100, 121) == 0  # both agree again
        assert scoreboard.get("/api/waiting")["waiting"] == []
        assert {r["player"]: r["points"] for r in scoreboard.get("/api/standings")}["Ann"] == 2

        assert crib(tmp_path, "close", "--round", "1") == 0
        assert enter("Eve", "Fay", 121, 100) == 2
        assert "round 1 is closed" in capsys.readouterr().err
    finally:
        scoreboard.stop()


def test_a_strangers_game_waits_for_the_directors_approval(tmp_path, made, broker, capsys):
    seat_round_one(tmp_path, capsys)
    token = (made / "director.token").read_text().strip()
    scoreboard = Scoreboard(broker, tmp_path / "night", club=CLUB, director=token)
    board = Board("t1", tmp_path / "t1", broker.broker("t1"), CLUB)
    try:
        final = board.play_game(6, ("Zoe", "Yan"))  # at t1, seated Ann against Bob
        wait_for(lambda: scoreboard.get("/api/waiting")["waiting"], "the stranger's game on the director's page")
        [item] = scoreboard.get("/api/waiting")["waiting"]
        assert (item["reason"], item["board"], item["detail"]["seated"], item["approvable"]) == (
            "stranger", "t1", ["Ann", "Bob"], True)
        assert scoreboard.tables()["t1"]["wrong_players"]
        assert {"Zoe", "Yan"}.isdisjoint(r["player"] for r in scoreboard.get("/api/standings"))
        assert scoreboard.post("/api/decide", {"id": item["id"], "approve": True}, "guess")[0] == 401
        status, _answer = scoreboard.post("/api/decide", {"id": item["id"], "approve": True}, token)
        assert status == 200
        assert final.winner is not None
        won = final.winner.players[0]
        wait_for(lambda: {r["player"]: r["wins"] for r in scoreboard.get("/api/standings")}.get(won) == 1,
                 "the approved game in the standings")
        assert scoreboard.get("/api/waiting")["waiting"] == []
    finally:
        board.close()
        scoreboard.stop()


def test_on_a_broker_that_takes_anyone_only_signed_boards_count_and_the_page_says_so(tmp_path, made, capsys):
    seat_round_one(tmp_path, capsys)
    broker = Mosquitto(tmp_path / "open-broker", CLUB, [], credentials=made, anonymous=True)
    broker.start()
    secret = bytes.fromhex((made / "club.secret").read_text().strip())
    scoreboard = Scoreboard(broker, tmp_path / "night", club=CLUB, secret=secret)
    key = bytes.fromhex((made / "boards" / "t3" / "signing.key").read_text().strip())
    signed = Board("t3", tmp_path / "t3", broker.broker("t3"), CLUB, signing_key=key)
    anyone = client(broker, "", made)
    try:
        wait_for(lambda: scoreboard.get("/api/waiting")["broker"]["anonymous"] is True, "the anonymous probe")
        game = whole_game(7, ("Eve", "Fay"))
        final = initial_state()
        for inp in game:
            final = apply(final, inp)
        forged = json.loads(protocol.state_payload("t2", "0001", len(game), 0.0, final))
        topic = protocol.board_topic(CLUB, "t2", "state")
        publish(anyone, topic, json.dumps(forged).encode())  # unsigned
        publish(anyone, topic, protocol.sign(key, topic, json.dumps(forged).encode()))  # t3's key, not t2's
        signed.play_game(7, ("Eve", "Fay"))  # the signed board, after the forgeries: the scoreboard had them first
        wait_for(lambda: scoreboard.night.games_finished() == 1, "the signed board's game")
        assert "t2" not in scoreboard.tables()
        text = scoreboard.text("/")
        assert 'id="anonymous"' in text
    finally:
        anyone.loop_stop()
        anyone.disconnect()
        signed.close()
        scoreboard.stop()
        broker.stop()
