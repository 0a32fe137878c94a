"""The page's server: tokens, Origin checks, bad requests (property tests of request bodies), and two browsers
watching the same game seeing the same updates, through real sockets."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import aiohttp
import pytest
from aiohttp.test_utils import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import i18n
from companion.devices.base import Entry, ManualClock
from companion.play.computer import Settings
from companion.web.language import COOKIE
from companion.web.server import MAX_BODY, TOKEN_HEADER, Hub, WebKeypad
from tests.web.running import running_board, serve

TOKEN = "7f3a9c21"
JSON = {"Content-Type": "application/json"}


def new_hub(token: str | None = TOKEN) -> tuple[Hub, list[Entry]]:
    entries: list[Entry] = []
    hub = Hub(emit=entries.append, token=token)
    hub.latest = json.dumps({"state": {"phase": "play"}, "you": None})
    return hub, entries


def test_controls_need_the_token_on_a_real_board_and_watching_does_not():
    hub, entries = new_hub()

    async def check(client: TestClient) -> None:
        response = await client.post("/api/entry", json={"text": "5H"})
        assert response.status == 401
        assert "control token" in (await response.json())["error"]
        response = await client.post("/api/entry", json={"text": "5H"}, headers={TOKEN_HEADER: TOKEN[:-1] + "0"})
        assert response.status == 401
        assert entries == []
        response = await client.post("/api/entry", json={"text": "5H"}, headers={TOKEN_HEADER: TOKEN})
        assert response.status == 202
        assert (await client.get("/api/state")).status == 200
        assert (await client.get("/")).status == 200
        response = await client.post("/api/token", json={}, headers={TOKEN_HEADER: TOKEN})
        assert response.status == 200

    serve(hub, check)
    assert entries == [Entry("5H", "web")]


def test_in_simulation_controls_are_open():
    hub, entries = new_hub(token=None)

    async def check(client: TestClient) -> None:
        assert (await client.post("/api/entry", json={"text": "go"})).status == 202
        assert (await client.post("/api/key", json={"key": "A"})).status == 409  # this hub has no page keypad

    serve(hub, check)
    assert entries == [Entry("go", "web")]


def test_the_pages_keypad_makes_the_entries_the_physical_keypad_makes():
    entries: list[Entry] = []
    keypad = WebKeypad(clock=ManualClock(), timeout=4.0)
    keypad.start(entries.append)
    hub = Hub(emit=entries.append, token=None, keypad=keypad)

    async def check(client: TestClient) -> None:
        for key in ["5", "3", "*", "2", "4", "A", "#", "2", "1", "2", "C", "5", "B", "B"]:
            assert (await client.post("/api/key", json={"key": key})).status == 202

    serve(hub, check)
    keypad.poll(0.0)  # the main loop decodes the presses in order
    # UNDO first clears the half-entered 5 (and nothing else), as on the table's keypad
    assert [e.text for e in entries] == ["5H", "QS", "go", "peg 2 12", "undo"]
    assert {e.source for e in entries} == {"web keypad"}


def test_requests_from_another_sites_page_are_refused():
    hub, entries = new_hub(token=None)

    async def check(client: TestClient) -> None:
        response = await client.post("/api/entry", json={"text": "5H"}, headers={"Origin": "http://evil.example"})
        assert response.status == 403
        assert "another site" in (await response.json())["error"]
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await client.ws_connect("/ws", headers={"Origin": "http://evil.example"})
        assert refused.value.status == 403
        same = f"http://{client.server.host}:{client.server.port}"
        socket = await client.ws_connect("/ws", headers={"Origin": same})
        assert json.loads((await socket.receive()).data)["state"]["phase"] == "play"
        await socket.close()
        response = await client.post("/api/entry", json={"text": "5H"}, headers={"Origin": same})
        assert response.status == 202
        # a form post (no preflight across sites) is refused: controls are JSON
        response = await client.post("/api/entry", data="text=5H",
                                     headers={"Content-Type": "application/x-www-form-urlencoded"})
        assert response.status == 415

    serve(hub, check)
    assert entries == [Entry("5H", "web")]


def test_bad_requests_get_a_4xx_with_a_message():
    hub, entries = new_hub(token=None)

    async def check(client: TestClient) -> None:
        for path, body in [("/api/entry", b"{"), ("/api/entry", b"[1]"), ("/api/entry", b'{"text": 5}'),
                           ("/api/entry", b'{"text": ""}'), ("/api/entry", json.dumps({"text": "x" * 41}).encode()),
                           ("/api/key", b'{"key": "Z"}'), ("/api/discard", b'{"cards": ["5H"]}'),
                           ("/api/discard", b'{"cards": "5H"}'), ("/api/computer-game", b'{"levels": ["hard"]}')]:
            response = await client.post(path, data=body, headers=JSON)
            assert 400 <= response.status < 500, (path, body)
            assert (await response.json())["error"]
        response = await client.post("/api/entry", data=b"{" + b" " * MAX_BODY + b"}", headers=JSON)
        assert response.status == 413
        response = await client.get("/etc/passwd")
        assert response.status == 404 and "no such page" in (await response.json())["error"]
        for path in ("/static/../server.py", "/static/server.py", "/api/games/..%2F..%2Fetc/1",
                     "/api/games/0001.jsonl/1"):
            response = await client.get(path)
            assert 400 <= response.status < 500, path

    serve(hub, check)
    assert entries == []


bodies = st.one_of(
    st.binary(max_size=200),
    st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
                 lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
                     st.sampled_from(["text", "key", "cards", "levels", "person", "target", "match", "seed",
                                      "muggins", "feedback", "x"]), inner, max_size=5),
                 max_leaves=12).map(lambda value: json.dumps(value).encode()),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(path=st.sampled_from(["/api/entry", "/api/key", "/api/discard", "/api/computer-game"]), body=bodies)
def test_any_body_is_answered_with_a_message_and_never_a_traceback(path, body):
    hub, entries = new_hub(token=None)
    hub.latest = json.dumps({"state": {}, "you": {"person": "Guest"}})

    async def check(client: TestClient) -> None:
        response = await client.post(path, data=body, headers=JSON)
        data = await response.json()
        if response.status == 202:
            assert len(entries) == 1 and "queued" in data
        else:
            assert 400 <= response.status < 500 and data["error"] and "Traceback" not in data["error"]
            assert entries == []

    serve(hub, check)


def _wait_for(condition, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def test_two_browsers_watching_the_same_game_see_the_same_updates(tmp_path: Path):
    with running_board(tmp_path, Settings("Guest", ("easy",), seed=4), move_seconds=0.02) as board:
        url = board.url

        async def watch() -> tuple[tuple[list[dict], list[dict]], list[dict]]:
            async with aiohttp.ClientSession() as one, aiohttp.ClientSession() as two:
                first = await one.ws_connect(url + "ws")
                second = await two.ws_connect(url + "ws")
                seen = ([], [])
                for socket, into in ((first, seen[0]), (second, seen[1])):
                    into.append(json.loads((await socket.receive(timeout=5)).data))
                    while not into[-1]["you"]["dealt"]:  # the deck deals a moment after the game starts
                        into.append(json.loads((await socket.receive(timeout=5)).data))
                hand = seen[0][-1]["you"]["dealt"]
                response = await one.post(url + "api/discard", json={"cards": [c["code"] for c in hand[:2]]})
                assert response.status == 202
                for socket, into in ((first, seen[0]), (second, seen[1])):
                    while not into[-1]["state"]["starter"]:
                        into.append(json.loads((await socket.receive(timeout=5)).data))
                await first.close()
                await second.close()
                return seen, hand

        (first, second), hand = asyncio.run(watch())
        assert first[-1] == second[-1]
        assert first[-1]["state"]["starter"]["code"] == str(board.table.state.starter)
        assert [c["code"] for c in first[-1]["you"]["discarded"]] == [c["code"] for c in hand[:2]]


def test_a_wrong_token_on_a_real_board_changes_nothing_through_a_real_socket(tmp_path: Path):
    with running_board(tmp_path, Settings("Guest", ("easy",), seed=4), token=TOKEN) as board:
        async def poke() -> tuple[int, int]:
            async with aiohttp.ClientSession() as session:
                hand: list[dict] = []
                while not hand:  # the page's snapshot follows the deal within a few milliseconds
                    hand = json.loads(await (await session.get(board.url + "api/state")).text())["you"]["dealt"]
                    await asyncio.sleep(0.01)
                cards = [c["code"] for c in hand[:2]]
                bad = await session.post(board.url + "api/discard", json={"cards": cards},
                                         headers={TOKEN_HEADER: "nope"})
                good = await session.post(board.url + "api/discard", json={"cards": cards},
                                          headers={TOKEN_HEADER: TOKEN})
                return bad.status, good.status

        _wait_for(lambda: "Guest" in board.table.state.hands)
        assert board.table.state.discards.get("Guest") is None
        bad, good = asyncio.run(poke())
        assert (bad, good) == (401, 202)
        _wait_for(lambda: board.table.state.discards.get("Guest") is not None)


def test_each_browser_gets_the_page_in_its_own_language_and_a_choice_made_on_the_page_wins():
    hub, _ = new_hub()

    async def check(client: TestClient) -> None:
        german = await (await client.get("/", headers={"Accept-Language": "de-DE,de;q=0.9"})).text()
        english = await (await client.get("/", headers={"Accept-Language": "en-US"})).text()
        assert '<html lang="de">' in german and "Neues Spiel gegen den Computer" in german and "window.WORDS" in german
        assert '<html lang="en">' in english and "New game against the computer" in english
        chosen = await (await client.get("/stats", headers={"Accept-Language": "de-DE",
                                                             "Cookie": f"{COOKIE}=en"})).text()
        assert '<html lang="en">' in chosen
        chosen = await (await client.get("/", headers={"Cookie": f"{COOKIE}=de"})).text()
        assert '<html lang="de">' in chosen and 'aria-label="Sprache"' in chosen
        assert '"Punkterennen nach {deals} Runde: {scores}"' in chosen  # the plural forms for the page's scripts

    serve(hub, check)
    assert i18n.current().code == "en"  # the board's language is untouched


def test_a_refusal_carries_its_code():
    hub, _ = new_hub()

    async def check(client: TestClient) -> None:
        response = await client.post("/api/entry", json={"text": "5H"})
        assert response.status == 401 and (await response.json())["code"] == "token"

    serve(hub, check)


def test_a_page_opened_in_a_new_language_waits_for_its_own_words_rather_than_get_the_boards():
    hub = Hub(emit=lambda entry: None, token=None)
    assert hub.text_for("de") == "{}"  # nothing published yet: the first page gets what there is
    hub._broadcast('{"prompt": "Enter the starter"}', "en", {})
    assert hub.text_for("en") == '{"prompt": "Enter the starter"}'
    assert hub.text_for("de") is None  # a German page just opened: the main loop makes its words next
    hub._broadcast('{"prompt": "Enter the starter"}', "en", {"de": '{"prompt": "Startkarte eingeben"}'})
    assert hub.text_for("de") == '{"prompt": "Startkarte eingeben"}'


def test_one_board_tells_each_page_the_game_in_the_pages_own_language(tmp_path):
    with running_board(tmp_path, Settings("Guest", ("easy",), seed=4), move_seconds=0.02) as board:
        url = board.url

        async def watch() -> tuple[dict, dict]:
            async with aiohttp.ClientSession() as english, aiohttp.ClientSession() as german:
                sockets = (await english.ws_connect(url + "ws", headers={"Accept-Language": "en-GB"}),
                           await german.ws_connect(url + "ws", headers={"Accept-Language": "de-DE,de;q=0.9"}))
                seen: list[dict] = [{}, {}]
                for at, socket in enumerate(sockets):
                    while not seen[at].get("you") or not seen[at]["you"]["dealt"]:
                        seen[at] = json.loads((await socket.receive(timeout=5)).data)
                for socket in sockets:
                    await socket.close()
                return seen[0], seen[1]

        en, de = asyncio.run(watch())
    assert en["state"]["inputs"] == de["state"]["inputs"] and en["you"]["dealt"] == de["you"]["dealt"]
    assert en["prompt"] != de["prompt"] and "Krippe" in de["prompt"], (en["prompt"], de["prompt"])
    assert en["voice"] == de["voice"] and en["voice"]["lang"] == "en"  # the board's words, said in its language
    assert en["oled"] == de["oled"]  # the OLED keeps the board's language
