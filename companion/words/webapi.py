"""Why the board's page API refuses a request, as values, and their words in the asker's language.

companion/web/server.py refuses with an HTTP status, a code (`Asked`) and its facts; the page decides what to do
from the code and the status (401: ask for the control token) and shows these words, made in the language of
the person asking (`web.language.page_language`):

    asked_words(Asked.NO_GAME, {"game": 3, "log": "0001.jsonl"}, language("de"))
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from companion.i18n import N_, Language

from .devices import device_words


class Asked(StrEnum):
    """Why a request is refused (the value is the code the page reads); the facts each one fills are listed."""

    TOKEN = "token"  # header: the control token's HTTP header
    WAIT = "wait"  # seconds: how long this address must wait after wrong tokens
    ORIGIN = "origin"  # a control request from another site's page
    SOCKET_ORIGIN = "socket_origin"  # a WebSocket from another site's page
    NOT_JSON = "not_json"  # a body sent as something else than JSON
    TOO_LARGE = "too_large"  # most: bytes
    BODY_NOT_JSON = "body_not_json"
    BODY_NOT_OBJECT = "body_not_object"
    FIELD = "field"  # name: the field, example: what it must be (a message of FIELDS)
    ENTRY = "entry"  # most: characters
    SCAN = "scan"  # most: characters
    NOT_A_KEY = "not_a_key"  # key: what was given, keys: the keys there are
    NO_KEYPAD = "no_keypad"
    DISCARD = "discard"  # the cards to lay away are no list of one or two
    CARD = "card"  # refusal: the engine's refusal of a card (None: text, an error's own words)
    SETTINGS = "settings"  # refusal: the computer game's settings' refusal (words/opponents.py)
    NOT_AGAINST_COMPUTER = "not_against_computer"
    CANNOT_HOST = "cannot_host"  # layout: the board's name, tracks: its tracks, holes: its game hole
    NO_COMPUTER = "no_computer"
    NO_BOARD = "no_board"
    NO_HISTORY = "no_history"
    HANDS_PLAYER = "hands_player"
    GAME_NAME = "game_name"
    NO_GAME = "no_game"  # game: the number asked for, log: the log's name
    NO_FILE = "no_file"
    NO_PAGE = "no_page"
    METHOD = "method"
    # the phone's camera: plain cards read from its frames, a deck taught from its photos (web/frames.py)
    PICTURE_TYPE = "picture_type"
    PICTURE_TOO_LARGE = "picture_too_large"  # most: kB
    PICTURE_EMPTY = "picture_empty"
    UNREADABLE_PICTURE = "unreadable_picture"  # error: the image decoder's words
    PHONE_HEADERS = "phone_headers"
    NO_PLAIN_CARDS = "no_plain_cards"  # problem: why the board cannot read plain cards (a DeviceProblem)
    NO_DECK_FOLDER = "no_deck_folder"
    NOT_A_CARD = "not_a_card"  # code: what was given
    NO_CARD_IN_PHOTO = "no_card_in_photo"  # card: the card to hold up (as the page shows it: J♣)
    PHOTOS_MISSING = "photos_missing"  # missing: the cards not photographed yet
    LEARNING = "learning"
    UNLEARNABLE = "unlearnable"  # text: the vision's words (naming the photo to take again), said as they are
    REFUSED = "refused"  # text: the HTTP reason of another refusal (aiohttp's own, in English)
    SERVER = "server"  # an unexpected error: said in the daemon's log, not here


SAID: dict[Asked, str] = {
    Asked.TOKEN: N_("controls need the control token: choose MENU on the board to see it, and type it on the page "
                    "(sent as the {header} header)"),
    Asked.WAIT: N_("too many wrong control tokens from this address: wait {seconds} s, then type the token MENU "
                   "shows on the board"),
    Asked.ORIGIN: N_("this request comes from another site's page: controls only work on this board's page"),
    Asked.SOCKET_ORIGIN: N_("WebSocket connections are only taken from this board's own pages"),
    Asked.NOT_JSON: N_("send the request as JSON (Content-Type: application/json)"),
    Asked.TOO_LARGE: N_("the request is too large: at most {most} bytes"),
    Asked.BODY_NOT_JSON: N_('the body is not JSON: send an object like {{"text": "5H"}}'),
    Asked.BODY_NOT_OBJECT: N_('the body is a JSON object like {{"text": "5H"}}'),
    Asked.FIELD: N_("{name!r} is missing or not {example}"),
    Asked.ENTRY: N_("an entry is 1 to {most} printable characters: a card like 5H, or go, undo, ok"),
    Asked.SCAN: N_("a code is 1 to {most} printable characters, like C5H"),
    Asked.NOT_A_KEY: N_("{key!r} is not a key: the keys are {keys}"),
    Asked.NO_KEYPAD: N_("this board has no page keypad"),
    Asked.DISCARD: N_("'cards' is a list of the one or two cards laid away, like [\"5H\", \"KD\"]"),
    Asked.NOT_AGAINST_COMPUTER: N_('this is not a game against the computer: start one with "New game against the '
                                   'computer"'),
    Asked.NO_COMPUTER: N_("this board plays no games against the computer"),
    Asked.NO_BOARD: N_("no board is running"),
    Asked.NO_HISTORY: N_("this board keeps no history"),
    Asked.HANDS_PLAYER: N_("say whose hands: /api/hands?player=Ann"),
    Asked.GAME_NAME: N_("a game is named by its log and number, like /api/games/0001.jsonl/1"),
    Asked.NO_GAME: N_("no game {game} in {log}: pick one from /stats"),
    Asked.NO_FILE: N_("no such file"),
    Asked.NO_PAGE: N_("no such page: try / (the board), /scoreboard or /stats"),
    Asked.METHOD: N_("this address does not take that method"),
    Asked.PICTURE_TYPE: N_("send the picture as image/jpeg or image/png"),
    Asked.PICTURE_TOO_LARGE: N_("the picture is too large: at most {most} kB"),
    Asked.PICTURE_EMPTY: N_("the picture is empty"),
    Asked.UNREADABLE_PICTURE: N_("the board cannot read this picture ({error}): send a JPEG or PNG"),
    Asked.PHONE_HEADERS: N_("say which phone and when: the headers X-Crib-Phone (an id) and X-Crib-Frame-Time (ms)"),
    Asked.NO_PLAIN_CARDS: N_("this board cannot read plain cards: {problem}"),
    Asked.NO_DECK_FOLDER: N_("this board has no state directory to keep a taught deck in"),
    Asked.NOT_A_CARD: N_("{code!r} is not a card: name it as crib writes cards, like AS, 10H, QD"),
    Asked.NO_CARD_IN_PHOTO: N_("no card in that photo: hold {card} whole, alone, on a plain table"),
    Asked.PHOTOS_MISSING: N_("the deck is taught from a photo of each card: {count} missing ({missing})"),
    Asked.LEARNING: N_("the board is learning the deck already: wait for it"),
    Asked.SERVER: N_("the server could not answer this request; the game is unchanged"),
}
FIELDS = {  # what a field of a request must be (Asked.FIELD's example)
    "entry": N_('a text like "5H", "go" or "undo"'),
    "scan": N_('the text of the code read, like "C5H"'),
    "key": N_('a keypad key like "5" or "A"'),
}
NOT_ANSWERED = N_("the board has not answered yet: look at the board")
"""A scan queued whose answer did not come in time (a message, not a refusal)."""


def asked_words(why: Asked, facts: Mapping[str, Any], lang: Language) -> str:
    """Why a request is refused, and what to send instead, in `lang`."""
    if why in (Asked.REFUSED, Asked.UNLEARNABLE):
        return str(facts["text"])
    if why in (Asked.CARD, Asked.SETTINGS):  # an error's refusal, said as every one is (None: its own words)
        from .saying import refusal_words  # every layer's renderers: only when one is refused

        said = facts["refusal"]
        return str(facts["text"]) if said is None else refusal_words(said, lang)
    if why is Asked.CANNOT_HOST:  # its words follow its count of tracks
        return lang.ngettext("this board ({layout}) has {tracks} track, one for each player or team, and holes to "
                             "{holes}: choose fewer computer players, or a game to {holes}",
                             "this board ({layout}) has {tracks} tracks, one for each player or team, and holes to "
                             "{holes}: choose fewer computer players, or a game to {holes}",
                             facts["tracks"]).format(**facts)
    shown = dict(facts)
    if why is Asked.FIELD:
        shown["example"] = lang.gettext(FIELDS[facts["example"]])
    elif why is Asked.NOT_A_KEY:
        shown["keys"] = " ".join(facts["keys"])
    elif why is Asked.NO_PLAIN_CARDS:
        shown["problem"] = device_words(facts["problem"], lang)
    elif why is Asked.PHOTOS_MISSING:
        missing = facts["missing"]
        shown.update(count=len(missing), missing=", ".join(missing[:6]) + (" ..." if len(missing) > 6 else ""))
    return lang.gettext(SAID[why]).format(**shown)
