"""The page API refuses with an HTTP status and a code (the page acts on them) and words in the asker's language:
the same refusal in English and in German from one process."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient

from companion.cribbage.cards import Card
from companion.cribbage.errors import CribbageError
from companion.i18n import language
from companion.web.language import COOKIE
from companion.web.server import TOKEN_HEADER, Hub
from companion.words.devices import DeviceProblem, Fault
from companion.words.opponents import SettingsRefusal, Unset
from companion.words.webapi import FIELDS, SAID, Asked, asked_words
from tests.web.running import serve
from tests.words.bilingual import PLACEHOLDER

EN, DE = language("en"), language("de")
JSON = {"Content-Type": "application/json"}


def card_refusal() -> CribbageError:
    with pytest.raises(CribbageError) as caught:
        Card.parse("ZZ")
    return caught.value


FACTS: dict[Asked, dict[str, object]] = {  # the facts of the kinds that have any
    Asked.TOKEN: {"header": TOKEN_HEADER}, Asked.WAIT: {"seconds": 30}, Asked.TOO_LARGE: {"most": 65536},
    Asked.FIELD: {"name": "text", "example": "entry"}, Asked.ENTRY: {"most": 40}, Asked.SCAN: {"most": 40},
    Asked.NOT_A_KEY: {"key": "Z", "keys": ["1", "2"]},
    Asked.CARD: {"refusal": card_refusal().refusal, "text": ""},
    Asked.SETTINGS: {"refusal": SettingsRefusal(Unset.TARGET, count=99)},
    Asked.CANNOT_HOST: {"layout": "two-track-61", "tracks": 2, "holes": 61}, Asked.NO_GAME: {"game": 3, "log": "x"},
    Asked.PICTURE_TOO_LARGE: {"most": 4000}, Asked.UNREADABLE_PICTURE: {"error": "truncated"},
    Asked.NO_PLAIN_CARDS: {"problem": DeviceProblem(Fault.CARDS_NEED_OPENCV)}, Asked.NOT_A_CARD: {"code": "ZZ"},
    Asked.NO_CARD_IN_PHOTO: {"card": "J♣"},
    Asked.PHOTOS_MISSING: {"missing": ["AS", "2S", "3S", "4S", "5S", "6S", "7S"]},
}
PASSED_ON = {Asked.REFUSED, Asked.UNLEARNABLE}  # words another part made (aiohttp's, the vision's), as they are


@pytest.mark.parametrize("why", list(Asked))
def test_every_refusal_is_said_in_english_and_in_german(why: Asked):
    facts = FACTS.get(why, {"text": "Bad Request"})
    english, german = asked_words(why, facts, EN), asked_words(why, facts, DE)
    assert english and not PLACEHOLDER.search(english + german)
    assert (english == german) == (why in PASSED_ON), (english, german)
    assert set(SAID) | PASSED_ON | {Asked.CARD, Asked.SETTINGS, Asked.CANNOT_HOST} == set(Asked)
    assert set(FIELDS) == {"entry", "scan", "key"}


def test_a_board_of_one_track_is_said_with_one_track():
    one = {"layout": "solo", "tracks": 1, "holes": 61}
    assert asked_words(Asked.CANNOT_HOST, one, EN).startswith("this board (solo) has 1 track, one for each player")
    assert asked_words(Asked.CANNOT_HOST, one, DE).startswith("dieses Brett (solo) hat 1 Bahn, eine für jeden")
    assert asked_words(Asked.CANNOT_HOST, FACTS[Asked.CANNOT_HOST], DE).startswith(
        "dieses Brett (two-track-61) hat 2 Bahnen, eine für jeden")


def test_the_words_are_those_the_page_had():
    assert asked_words(Asked.PHOTOS_MISSING, FACTS[Asked.PHOTOS_MISSING], EN) == (
        "the deck is taught from a photo of each card: 7 missing (AS, 2S, 3S, 4S, 5S, 6S ...)")
    assert asked_words(Asked.FIELD, FACTS[Asked.FIELD], EN) == (
        "'text' is missing or not a text like \"5H\", \"go\" or \"undo\"")
    assert asked_words(Asked.BODY_NOT_JSON, {}, EN) == 'the body is not JSON: send an object like {"text": "5H"}'
    assert asked_words(Asked.NOT_A_KEY, FACTS[Asked.NOT_A_KEY], EN) == "'Z' is not a key: the keys are 1 2"


def test_one_refusal_in_each_askers_language_with_the_same_code_and_status():
    hub = Hub(emit=lambda entry: None, token="7f3a9c21")
    hub.latest = json.dumps({"state": {"phase": "play"}, "you": None})
    answers: list[tuple[int, dict[str, str]]] = []

    async def check(client: TestClient) -> None:
        for headers in ({"Accept-Language": "en"}, {"Cookie": f"{COOKIE}=de"}, {"Accept-Language": "de-DE,de"}):
            response = await client.post("/api/entry", json={"text": "5H"}, headers=headers)
            answers.append((response.status, await response.json()))
        response = await client.post("/api/key", data=b'{"key": 5}', headers={**JSON, TOKEN_HEADER: "7f3a9c21",
                                                                                "Accept-Language": "de"})
        answers.append((response.status, await response.json()))
        response = await client.get("/api/games/0001.jsonl/1", headers={"Accept-Language": "de"})
        answers.append((response.status, await response.json()))

    serve(hub, check)
    english, german, browser, field, history = answers
    assert english == (401, {"code": "token", "error": "controls need the control token: choose MENU on the board to "
                             "see it, and type it on the page (sent as the X-Crib-Token header)"})
    assert german == browser == (401, {"code": "token", "error": "die Steuerung braucht das Steuer-Token: wähle MENU "
                                       "am Brett, um es zu sehen, und tippe es auf der Seite ein (gesendet als "
                                       "Header X-Crib-Token)"})
    assert field == (400, {"code": "field", "error": """'key' fehlt oder ist nicht eine Taste wie "5" oder "A\""""})
    assert history == (404, {"code": "no_history", "error": "dieses Brett führt keine Chronik"})


def worded(source: str) -> list[str]:
    """Each refusal made with a string or f-string of its own."""
    return [ast.unparse(node) for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Call)
            and ast.unparse(node.func) in ("Refused", "_problem")
            and any(isinstance(a, ast.JoinedStr) or (isinstance(a, ast.Constant) and isinstance(a.value, str))
                    for a in node.args)]


@pytest.mark.parametrize("module", ["server.py", "frames.py"])
def test_the_api_refuses_with_codes_not_words(module: str):
    assert worded((Path(__file__).parents[2] / "companion" / "web" / module).read_text(encoding="utf-8")) == []
    assert worded('raise Refused(404, f"no game {n}")\nRefused(409, Asked.LEARNING)') == [
        "Refused(404, f'no game {n}')"]
