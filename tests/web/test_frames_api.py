"""The board's side of the phone's plain-cards mode (companion/web/frames.py): frames read by the real recognizer, a
card held in view entered once and answered with the table's words, a doubtful card asked about, teaching the
board a deck from a photo of each card; every request a control, every bad one refused in words."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient
from PIL import Image

from companion.cribbage.cards import Card
from companion.cribbage.facts import Prompt, Wanted
from companion.cribbage.transcript import StarterInput
from companion.devices.base import Entry
from companion.devices.camera import DECK
from companion.table import Outcome
from companion.web.frames import CODES, PHONE_CAMERA, PHOTOS
from companion.web.server import TOKEN_HEADER, Hub
from companion.words.messages import Message, Say
from tests.devices.card_photos import needs_cards, photo, table
from tests.table.tables import new_table
from tests.web.running import serve

TOKEN = "7f3a9c21"


def answering_hub() -> tuple[Hub, list[Entry]]:
    """A hub whose table answers each entry at once (as the daemon's loop does, from another thread)."""
    entries: list[Entry] = []

    def emit(entry: Entry) -> None:
        entries.append(entry)
        hub.answer(Outcome(entry))
    hub = Hub(emit=emit, token=TOKEN)
    return hub, entries


def jpeg(picture: Image.Image) -> bytes:
    out = io.BytesIO()
    picture.save(out, "JPEG", quality=85)
    return out.getvalue()


def headers(at_ms: float, phone: str = "p1") -> dict[str, str]:
    return {TOKEN_HEADER: TOKEN, "Content-Type": "image/jpeg", "X-Crib-Phone": phone,
            "X-Crib-Frame-Time": str(at_ms)}


def test_frames_and_photos_are_controls_and_bad_ones_are_refused_in_words(tmp_path: Path) -> None:
    hub, entries = answering_hub()
    hub.state_dir = tmp_path

    async def check(client: TestClient) -> None:
        hub.loop = asyncio.get_running_loop()
        said = {}
        for name, path, body, sent in (
                ("no token", "/api/cards/frame", b"x", {"Content-Type": "image/jpeg"}),
                ("json", "/api/cards/frame", b"{}", {**headers(0), "Content-Type": "application/json"}),
                ("no phone", "/api/cards/frame", b"x", {TOKEN_HEADER: TOKEN, "Content-Type": "image/jpeg"}),
                ("empty", "/api/cards/frame", b"", headers(0)),
                ("huge", "/api/cards/frame", b"x" * 2_000_001, headers(0)),
                ("not a card", "/api/cards/deck/1Z", b"x", headers(0)),
                ("learn too soon", "/api/cards/learn", b"{}", {TOKEN_HEADER: TOKEN,
                                                               "Content-Type": "application/json"})):
            response = await client.post(path, data=body, headers=sent)
            said[name] = (response.status, (await response.json())["error"])
        assert said["no token"][0] == 401 and "control token" in said["no token"][1]
        assert said["json"] == (415, "send the picture as image/jpeg or image/png")
        assert said["no phone"][0] == 400 and "X-Crib-Phone" in said["no phone"][1]
        assert said["empty"] == (400, "the picture is empty")
        assert said["huge"] == (413, "the picture is too large: at most 2000 kB")
        assert said["not a card"] == (400, "'1Z' is not a card: name it as crib writes cards, like AS, 10H, QD")
        status, words = said["learn too soon"]
        assert status == 409 and "52 missing (AC, AD, AH, AS, 2C, 2D ...)" in words
        deck = await (await client.get("/api/cards/deck")).json()
        assert deck == {"codes": list(CODES), "taken": [], "taught": False}

    serve(hub, check)
    assert entries == []


@needs_cards
def test_a_card_held_up_to_the_phone_is_entered_once_and_a_doubtful_one_is_asked_about(tmp_path: Path) -> None:
    hub, entries = answering_hub()

    def answer(entry: Entry) -> None:  # the table's words: the play, or its question
        entries.append(entry)
        card = Card.parse(entry.text)
        said = Message(Say.WAITING, prompt=Prompt(Wanted.PLAY, ("Bob",), count=0)) if entry.sure \
            else Message(Say.QUESTION, card=card)
        hub.answer(Outcome(entry, message=said))
    hub.emit = answer
    hub.state_dir = tmp_path
    card, blurred = jpeg(photo("10S", 2)), jpeg(photo("8C", 2, blur=5.5))

    async def check(client: TestClient) -> None:
        hub.loop = asyncio.get_running_loop()
        answers = []
        for at, picture in enumerate([card, card, card, card, blurred, blurred]):
            response = await client.post("/api/cards/frame", data=picture, headers=headers(at * 250))
            assert response.status == 200
            answers.append(await response.json())
        read = answers[0]["cards"][0]["code"]  # the recognizer's reading of the card
        assert answers[0]["card"] is None  # one frame: not yet
        sure = all(answer["cards"][0]["sure"] for answer in answers[:2])  # entered at once, or asked about
        assert {k: answers[1][k] for k in ("card", "entered", "asking", "error", "message")} == {
            "card": read, "entered": read if sure else None, "asking": None if sure else read, "error": False,
            "message": "Bob to play, count 0" if sure else f"{Card.parse(read).pretty}? OK, or enter the card"}
        assert answers[2]["card"] is None and answers[3]["card"] is None  # still in view: once
        blurred_read = answers[5]["cards"][0]["code"]
        assert [card["sure"] for card in answers[5]["cards"]] == [False]  # out of focus
        assert answers[5]["asking"] == blurred_read and answers[5]["entered"] is None
        picture = await client.post("/api/cards/frame", data=b"not a picture", headers=headers(2000))
        assert picture.status == 400 and "cannot read this picture" in (await picture.json())["error"]

    serve(hub, check)
    assert [e.source for e in entries] == [PHONE_CAMERA, PHONE_CAMERA]
    assert not entries[1].sure


@pytest.mark.slow
@needs_cards
def test_the_board_learns_a_deck_from_a_photo_of_each_card_into_the_folder_camera_deck_names(tmp_path: Path) -> None:
    (tmp_path / "decks").mkdir()
    deck = tmp_path / "decks" / "ours"
    hub = Hub(emit=lambda entry: None, token=TOKEN, state_dir=tmp_path, deck=deck)

    async def check(client: TestClient) -> None:
        for index, code in enumerate(CODES):
            response = await client.post(f"/api/cards/deck/{code.lower()}", data=jpeg(photo(code, index)),
                                         headers=headers(0))
            assert await response.json() == {"taken": index + 1, "of": 52, "confirmed": True, "looks": None}
        retake = await client.post("/api/cards/deck/AS", data=jpeg(photo("AS", 99)), headers=headers(0))
        assert (await retake.json())["taken"] == 52
        assert (await (await client.get("/api/cards/deck")).json())["taken"] == list(CODES)
        learned = await client.post("/api/cards/learn", json={}, headers={TOKEN_HEADER: TOKEN})
        assert learned.status == 200 and await learned.json() == {"taught": 52}
        assert (await (await client.get("/api/cards/deck")).json())["taught"] is True

    serve(hub, check)
    assert sorted(p.name for p in (tmp_path / PHOTOS).iterdir())[:2] == ["10C.jpg", "10D.jpg"]
    assert deck.is_dir() and not (tmp_path / "decks" / "ours.new").exists() and not (tmp_path / DECK).exists()


@needs_cards
def test_a_teaching_photo_with_no_card_is_refused_and_one_of_another_card_is_kept_and_said(tmp_path: Path) -> None:
    hub = Hub(emit=lambda entry: None, token=TOKEN, state_dir=tmp_path)
    kept = tmp_path / PHOTOS / "AS.jpg"

    async def check(client: TestClient) -> None:
        empty = await client.post("/api/cards/deck/AS", data=jpeg(table(0)), headers=headers(0))
        assert (empty.status, (await empty.json())["error"]) == (
            422, "no card in that photo: hold A♠ whole, alone, on a plain table")
        german = await client.post("/api/cards/deck/AS", data=jpeg(table(0)),
                                   headers={**headers(0), "Accept-Language": "de"})
        assert (await german.json())["error"] == ("keine Karte auf diesem Foto: lege A♠ ganz und allein auf einen "
                                                  "einfarbigen Tisch")
        assert not kept.exists()  # nothing kept: the walk asks for A♠ again
        other = await client.post("/api/cards/deck/AS", data=jpeg(photo("3C", 1)), headers=headers(0))
        assert await other.json() == {"taken": 1, "of": 52, "confirmed": False, "looks": "3C"}
        first = kept.read_bytes()  # kept (a deck whose index the board misreads is taught so), and asked about
        retake = await client.post("/api/cards/deck/AS", data=jpeg(photo("AS", 2)), headers=headers(0))
        assert await retake.json() == {"taken": 1, "of": 52, "confirmed": True, "looks": None}
        assert kept.read_bytes() not in (first, b"")  # the retake replaced it
        assert (await (await client.get("/api/cards/deck")).json())["taken"] == ["AS"]

    serve(hub, check)


def test_a_tap_on_ok_on_the_boards_page_enters_the_card_asked_about(tmp_path: Path) -> None:
    table = new_table(tmp_path)
    hub = Hub(emit=table.emit, token=TOKEN)
    table.emit(Entry("5C", "camera", sure=False))
    list(table.drain())
    assert table.shown().screen.prompt == "5♣? OK, or enter the card"  # on the page's OLED and prompt too

    async def check(client: TestClient) -> None:
        response = await client.post("/api/entry", json={"text": "ok"}, headers={TOKEN_HEADER: TOKEN})
        assert response.status == 202  # the page's OK button

    serve(hub, check)
    (outcome,) = table.drain()
    assert outcome.accepted == StarterInput(Card.parse("5C"))


@needs_cards
def test_a_german_phone_is_asked_in_german_on_an_english_board(tmp_path: Path) -> None:
    table = new_table(tmp_path)

    def emit(entry: Entry) -> None:  # the table answers at once, as the daemon's loop does
        table.emit(entry)
        for outcome in table.drain():
            hub.answer(outcome)
    hub = Hub(emit=emit, token=TOKEN, state_dir=tmp_path)
    blurred = jpeg(photo("8C", 2, blur=5.5))

    async def check(client: TestClient) -> None:
        hub.loop = asyncio.get_running_loop()
        german = {**headers(0), "Accept-Language": "de"}
        await client.post("/api/cards/frame", data=blurred, headers=german)
        answer = await (await client.post("/api/cards/frame", data=blurred,
                                          headers={**german, "X-Crib-Frame-Time": "250"})).json()
        asked = Card.parse(answer["asking"]).pretty
        assert answer["message"] == f"{asked}? OK oder Karte eingeben"

    serve(hub, check)
    assert table.doubt.card is not None
    assert table.shown().message == f"{table.doubt.card.pretty}? OK, or enter the card"  # the OLED's: English


@needs_cards
def test_the_next_card_shown_before_the_question_is_answered_is_refused_on_the_phone_and_the_board(
        tmp_path: Path) -> None:
    table = new_table(tmp_path)

    def emit(entry: Entry) -> None:
        table.emit(entry)
        for outcome in table.drain():
            hub.answer(outcome)
    hub = Hub(emit=emit, token=TOKEN, state_dir=tmp_path)
    blurred, card = jpeg(photo("8C", 2, blur=5.5)), jpeg(photo("10S", 2))

    async def check(client: TestClient) -> None:
        hub.loop = asyncio.get_running_loop()
        answers = []
        for at, picture in enumerate([blurred, blurred, card, card]):
            answers.append(await (await client.post("/api/cards/frame", data=picture,
                                                    headers=headers(at * 250))).json())
        asked, shown = Card.parse(answers[1]["asking"]), Card.parse(answers[3]["card"])
        assert shown != asked
        assert {k: answers[3][k] for k in ("entered", "asking", "error", "message")} == {
            "entered": None, "asking": None, "error": True,
            "message": f"{shown.pretty} not entered: first answer about {asked.pretty} (OK, or enter the card), "
                       f"then show {shown.pretty} again"}
        assert table.doubt.card == asked and len(table.log.inputs) == 1  # still asked about, nothing entered
        assert table.shown().message == answers[3]["message"] and table.shown().error  # the board says it too
        assert table.shown().screen.prompt == f"{asked.pretty}? OK, or enter the card"

    serve(hub, check)
