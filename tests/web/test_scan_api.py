"""The phone scanner's side of the server: /api/scan answers with what the table made of the code, wrong tokens
are slowed per address and said on the OLED, the vendored decoder is served from the board itself."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import aiohttp
import pytest
from aiohttp.test_utils import TestClient

from companion.base.clock import ManualClock
from companion.cribbage.cards import Card
from companion.cribbage.facts import Place, Seen
from companion.devices.base import Entry
from companion.i18n import language, speaking
from companion.table import Outcome
from companion.web import server
from companion.web.guard import FREE_TRIES, TokenGuard
from companion.web.server import PHONE, TOKEN_HEADER, Hub
from companion.web.snapshot import snapshot
from companion.words.messages import Message, PageAddress, Say
from companion.words.phrases import message_words, page_words
from tests.table.tables import new_table
from tests.web.running import running_board, serve

TOKEN = "7f3a9c21"
VENDOR = Path(server.__file__).parent / "static" / "vendor" / "zxing-wasm"


def answering_hub(message: Message | None = None, *, error: bool = False) -> tuple[Hub, list[Entry]]:
    """A hub whose table answers each entry at once (as the daemon's loop does, from another thread)."""
    entries: list[Entry] = []

    def emit(entry: Entry) -> None:
        entries.append(entry)
        hub.answer(Outcome(entry, message=message, error=error))
    hub = Hub(emit=emit, token=TOKEN)
    return hub, entries


def test_a_scan_is_entered_as_the_scanners_and_answered_with_the_tables_words():
    hub, entries = answering_hub(Message(Say.PROGRESS, count=2, total=4))

    async def check(client: TestClient) -> None:
        hub.loop = asyncio.get_running_loop()
        response = await client.post("/api/scan", json={"text": "]d1c5h\r"}, headers={TOKEN_HEADER: TOKEN})
        assert response.status == 200
        assert await response.json() == {"entered": "5H", "error": False, "message": "Crib: 2 of 4"}
        response = await client.post("/api/scan", json={"text": "XG"}, headers={TOKEN_HEADER: TOKEN})
        assert (await response.json())["entered"] == "go"

    serve(hub, check)
    assert entries == [Entry("C5H", PHONE), Entry("XG", PHONE)]
    assert hub.waiting == {}


def test_a_refusal_comes_back_in_words_and_a_bad_body_changes_nothing():
    hub, entries = answering_hub(Message(Say.CARD_SEEN, seen=Seen(Card.parse("10S"), Place.PLAYED, "Bob")), error=True)

    async def check(client: TestClient) -> None:
        hub.loop = asyncio.get_running_loop()
        response = await client.post("/api/scan", json={"text": "CTS"}, headers={TOKEN_HEADER: TOKEN})
        assert await response.json() == {"entered": None, "error": True,
                                         "message": "10♠ was played by Bob: enter another card"}
        for body in ({"text": ""}, {"text": "\r\n"}, {"text": "x" * 41}, {"text": 5}, {"code": "C5H"}):
            response = await client.post("/api/scan", json=body, headers={TOKEN_HEADER: TOKEN})
            assert response.status == 400 and "code" in (await response.json())["error"]
        assert (await client.post("/api/scan", json={"text": "C5H"})).status == 401

    serve(hub, check)
    assert entries == [Entry("CTS", PHONE)]


def test_a_board_that_does_not_answer_in_time_says_so(monkeypatch):
    monkeypatch.setattr(server, "ANSWER_SECONDS", 0.05)
    entries: list[Entry] = []
    hub = Hub(emit=entries.append, token=None)

    async def check(client: TestClient) -> None:
        response = await client.post("/api/scan", json={"text": "C5H"})
        assert response.status == 202 and "look at the board" in (await response.json())["message"]

    serve(hub, check)
    assert entries == [Entry("C5H", PHONE)] and hub.waiting == {}


def test_wrong_tokens_are_slowed_per_address_and_the_right_one_waits_too():
    clock = ManualClock()
    hub = Hub(emit=lambda entry: None, token=TOKEN, guard=TokenGuard(clock))
    wrong = {TOKEN_HEADER: "00000000"}

    async def check(client: TestClient) -> None:
        for _ in range(3):  # a page without a token guesses nothing
            assert (await client.post("/api/token", json={})).status == 401
        for _ in range(FREE_TRIES + 1):
            assert (await client.post("/api/token", json={}, headers=wrong)).status == 401
        assert [message_words(notice) for notice in hub.notices] == [
            f"{FREE_TRIES + 1} wrong tokens from 127.0.0.1: next try in 1 s"]
        response = await client.post("/api/token", json={}, headers={TOKEN_HEADER: TOKEN})
        assert response.status == 429  # not even looked at while the address waits
        assert "wait 1 s" in (await response.json())["error"]
        clock.advance(1)
        assert (await client.post("/api/token", json={}, headers={TOKEN_HEADER: TOKEN})).status == 200
        assert (await client.post("/api/token", json={}, headers=wrong)).status == 401  # counted afresh: free

    serve(hub, check)


def test_the_decoder_is_served_by_the_board_with_its_licence_and_cached_by_etag():
    hub = Hub(emit=lambda entry: None, token=None, https="https://127.0.0.1:8443/", fingerprint="AB:CD")

    async def check(client: TestClient) -> None:
        response = await client.get("/static/vendor/zxing-wasm/zxing_reader.wasm")
        assert response.status == 200 and response.content_type == "application/wasm"
        assert await response.read() == (VENDOR / "zxing_reader.wasm").read_bytes()
        tag = response.headers["ETag"]
        again = await client.get("/static/vendor/zxing-wasm/zxing_reader.wasm", headers={"If-None-Match": tag})
        assert again.status == 304 and await again.read() == b""
        licence = await client.get("/static/vendor/zxing-wasm/LICENSE")
        assert licence.content_type == "text/plain" and "MIT License" in await licence.text()
        for path in ("/static/vendor/zxing-wasm/VERSION", "/static/../server.py"):
            assert (await client.get(path)).status == 404
        reader = await (await client.get("/static/vendor/zxing-wasm/zxing-reader.js")).text()
        assert "ZXingWASM" in reader
        assert await (await client.get("/api/https")).json() == {"https": "https://127.0.0.1:8443/",
                                                                 "fingerprint": "AB:CD"}
        page = await (await client.get("/scan")).text()
        assert '<script src="/static/vendor/zxing-wasm/zxing-reader.js"' in page

    serve(hub, check)


def test_the_vendored_files_are_the_pinned_release():
    version = (VENDOR / "VERSION").read_text()
    import hashlib

    assert f"sha256 {hashlib.sha256((VENDOR / 'zxing_reader.wasm').read_bytes()).hexdigest()}" in version
    reader = (VENDOR / "zxing-reader.js").read_text()
    assert version.split()[1] in reader  # the reader's own version string
    assert "jsdelivr" in reader  # its default CDN: scan.js overrides it (the browser test sees no other host)


@pytest.mark.parametrize("https", [False, True])
def test_wrong_tokens_are_said_on_the_oled_of_a_running_board(tmp_path, https):
    with running_board(tmp_path, token=TOKEN, https=https) as board:
        url = board.web.secure_address if https else board.url

        async def guess() -> list[int]:
            connector = aiohttp.TCPConnector(ssl=False)
            async with aiohttp.ClientSession(connector=connector) as session:
                statuses = []
                for _ in range(FREE_TRIES + 2):
                    async with session.post(url + "api/token", json={}, headers={TOKEN_HEADER: "deadbeef"}) as r:
                        statuses.append(r.status)
                return statuses
        presenter = board.table.presenter
        said: list[tuple[str, bool]] = []  # every message, however briefly shown on a loaded machine
        show = presenter.say
        presenter.say = lambda message, *, error: (said.append((message_words(message), error)),
                                                   show(message, error=error))[1]
        assert asyncio.run(guess()) == [401] * (FREE_TRIES + 1) + [429]
        deadline = time.monotonic() + 30
        while not any("wrong tokens" in message for message, _ in said) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert (f"{FREE_TRIES + 1} wrong tokens from 127.0.0.1: next try in 1 s", True) in said


def test_the_menu_says_the_phones_address_and_the_certificates_fingerprint(tmp_path):
    from companion.config import load_config
    from companion.daemon import open_game
    from companion.devices.base import SystemClock
    from companion.web.wiring import attach
    from tests.web.running import DEVICES

    config = load_config(overrides=[*DEVICES, "web.https=0.0.0.0:8443", f"web.token={TOKEN}"], system_path=None)
    clock = SystemClock()
    board, table = open_game(config, state_dir=tmp_path, clock=clock, simulate=False)
    attached = attach(config, board, table, state_dir=tmp_path, clock=clock, simulate=False)
    assert attached.web is not None and attached.web.https == ("0.0.0.0", 8443)
    short = attached.web.hub.fingerprint[:11]
    assert table.menu_note == PageAddress("127.0.0.1:8121", TOKEN, "https://cribbage.local:8443/scan", short)
    assert page_words(table.menu_note, language("en")) == (
        f"Page 127.0.0.1:8121 token {TOKEN} phones https://cribbage.local:8443/scan cert {short}")
    assert (tmp_path / "web-cert.pem").exists()
    board.close()


def test_a_bad_https_address_is_a_configuration_error_that_says_what_to_write():
    from companion.config import ConfigError, load_config

    assert load_config(overrides=["web.https="], system_path=None).web.https == ""
    with pytest.raises(ConfigError, match=r'must be "" \(off\) or "HOST:PORT" like "0.0.0.0:8443"'):
        load_config(overrides=["web.https=8443"], system_path=None)


def test_a_german_phone_on_an_english_board_hears_the_tables_words_in_german(tmp_path: Path) -> None:
    table = new_table(tmp_path)  # the board speaks English: its OLED

    def emit(entry: Entry) -> None:  # the table answers at once, as the daemon's loop does
        table.emit(entry)
        for outcome in table.drain():
            hub.answer(outcome)
    hub = Hub(emit=emit, token=TOKEN)

    async def check(client: TestClient) -> None:
        hub.loop = asyncio.get_running_loop()
        german = {TOKEN_HEADER: TOKEN, "Accept-Language": "de-DE,de;q=0.9"}
        await client.post("/api/scan", json={"text": "C5C"}, headers=german)
        response = await client.post("/api/scan", json={"text": "C5C"}, headers=german)
        assert await response.json() == {"entered": None, "error": True,
                                         "message": "5♣ ist die Startkarte: spiel eine Karte von der Hand von Bob"}

    serve(hub, check)
    assert table.shown().message == "5♣ is the starter: play a card from Bob's hand"  # the OLED's line
    with speaking("de"):  # the snapshot a German page gets: the same line, from its facts, in German
        assert snapshot(table)["message"] == "5♣ ist die Startkarte: spiel eine Karte von der Hand von Bob"
    table.emit(Entry("6C", "camera", sure=False))
    list(table.drain())
    with speaking("de"):
        shot = snapshot(table)
    assert shot["message"] == shot["prompt"] == "6♣? OK oder Karte eingeben"
    assert shot["asking"] == {"code": "6C", "pretty": "6♣", "suit": "C"}  # the open question, as a fact
    table.emit(Entry("ok", "keypad"))  # answered on the board: no question on any page
    list(table.drain())
    assert snapshot(table)["asking"] is None and str(table.state.played[-1][1]) == "6C"
