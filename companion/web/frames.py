"""The phone's camera reading plain cards, and teaching the board a deck (/scan's "Plain cards" mode).

The page posts a frame (a JPEG) now and then to /api/cards/frame; the board reads it with the card recognizer
(companion/vision) and `CardsInView` decides, per phone, when a card has been held in view long enough: it is
entered once, as the phone's scanned code is, and the answer says what the table made of it (entered, refused in
words, or asked about: a card the recognizer is not sure of waits for OK or another card, companion/entry/doubt.py;
the next card held up meanwhile is refused in words that say to answer first, never entered or dropped unsaid).
"Teach the board your deck" posts one photo of each of the 52 cards to /api/cards/deck/CODE, which refuses a photo
in which it finds no card and says whether the card's index reads as another (the page then offers to take it
again, or to keep it: a deck whose index the network misreads is taught all the same); /api/cards/learn then
teaches the recognizer that deck and keeps it in the taught deck's folder (`camera.deck`, else the state
directory's deck/), where the board's own camera finds it too. Like every control these need the control token;
frames are read one at a time. The question about a doubtful card is the board's (the snapshot's `asking`), so
every page follows it whoever answers.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import shutil
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aiohttp import web

from companion.cribbage.cards import DECK, Card
from companion.devices.base import Entry
from companion.devices.camera import CardsInView, Reading, TaughtDeck, opencv_problem, taught_folder
from companion.words.webapi import Asked

from .language import page_language

if TYPE_CHECKING:
    from companion.devices.camera import Frame
    from companion.table import Outcome
    from companion.vision.index import IndexNet
    from companion.vision.reader import TeachingPhoto

    from .server import Hub

MAX_FRAME = 2_000_000
"""Bytes of one picture: a 1280x960 JPEG is about 200 kB."""
PHONE_CAMERA = "camera:phone"
PHOTOS = "deck-photos"
"""The photos of a deck being taught, in the state directory, one a card (AS.jpg, 10H.jpg ...)."""
CODES = tuple(str(card) for card in DECK)
PHONES = 8
"""Phones followed at once (the oldest forgotten first)."""


@dataclass
class PlainCards:
    """The board's side of the phones' cameras: the recognizer (loaded at the first frame), each phone's cards in
    view, and the deck being taught."""

    deck: TaughtDeck | None = None
    net: IndexNet | None = None
    """The shipped index network, which reads each teaching photo (loaded at the first)."""
    phones: OrderedDict[str, CardsInView] = field(default_factory=OrderedDict)
    reading: asyncio.Lock = field(default_factory=asyncio.Lock)
    learning: bool = False

    def in_view(self, phone: str) -> CardsInView:
        found = self.phones.pop(phone, None) or CardsInView()
        self.phones[phone] = found
        while len(self.phones) > PHONES:
            self.phones.popitem(last=False)
        return found


CARDS = web.AppKey("plain cards", PlainCards)


def add_routes(app: web.Application) -> None:
    app[CARDS] = PlainCards()
    app.router.add_post("/api/cards/frame", _frame)
    app.router.add_get("/api/cards/deck", _deck)
    app.router.add_post("/api/cards/deck/{code}", _photo)
    app.router.add_post("/api/cards/learn", _learn)


def _hub(request: web.Request) -> Hub:
    from .server import HUB, Refused, _authorise, _same_origin

    if not _same_origin(request):
        raise Refused(403, Asked.ORIGIN)
    _authorise(request)
    return request.app[HUB]


async def _picture(request: web.Request) -> bytes:
    """The posted picture's bytes (a JPEG or PNG, at most MAX_FRAME)."""
    from .server import Refused

    if request.content_type not in ("image/jpeg", "image/png"):
        raise Refused(415, Asked.PICTURE_TYPE)
    if (request.content_length or 0) > MAX_FRAME:
        raise Refused(413, Asked.PICTURE_TOO_LARGE, most=MAX_FRAME // 1000)
    data = bytearray()
    async for chunk in request.content.iter_chunked(64 * 1024):
        data += chunk
        if len(data) > MAX_FRAME:
            raise Refused(413, Asked.PICTURE_TOO_LARGE, most=MAX_FRAME // 1000)
    if not data:
        raise Refused(400, Asked.PICTURE_EMPTY)
    return bytes(data)


def _state_dir(hub: Hub) -> Path:
    from .server import Refused

    if hub.state_dir is None:
        raise Refused(409, Asked.NO_DECK_FOLDER)
    return hub.state_dir


def _can_read_plain_cards() -> None:
    """Refused (503) when this board cannot read plain cards: OpenCV is not installed or does not load."""
    from .server import Refused

    problem = opencv_problem()
    if problem is not None:
        raise Refused(503, Asked.NO_PLAIN_CARDS, problem=problem)


def _taught(cards: PlainCards, hub: Hub) -> TaughtDeck:
    _can_read_plain_cards()
    if cards.deck is None:
        from companion.vision import Recognizer

        cards.deck = TaughtDeck(Recognizer.load, _deck_folder(hub))
    return cards.deck


def _deck_folder(hub: Hub) -> Path:
    """Where the taught deck is kept (`camera.deck`, else the state directory's deck/)."""
    return hub.deck or taught_folder("", _state_dir(hub))


def _decoded(data: bytes) -> Frame:
    """A picture's bytes as a frame; refused (400) when they are no JPEG or PNG."""
    from companion.vision import UnreadableImage, decode

    from .server import Refused

    try:
        return decode(data)
    except UnreadableImage as error:
        raise Refused(400, Asked.UNREADABLE_PICTURE, error=str(error)) from None


def _read(deck: TaughtDeck, data: bytes) -> Sequence[Reading]:
    return deck.read(_decoded(data))


async def _frame(request: web.Request) -> web.Response:
    """A frame from a phone: its cards, and what the table made of a card that came into view."""
    from .server import Refused

    hub = _hub(request)
    data = await _picture(request)
    phone = request.headers.get("X-Crib-Phone", "")[:40]
    try:
        seconds = float(request.headers.get("X-Crib-Frame-Time", "")) / 1000
    except ValueError:
        seconds = math.nan
    if not phone or not math.isfinite(seconds):
        raise Refused(400, Asked.PHONE_HEADERS)
    cards = request.app[CARDS]
    deck = _taught(cards, hub)
    async with cards.reading:  # one frame at a time: the board's budget
        readings = await asyncio.get_running_loop().run_in_executor(None, _read, deck, data)
    answer: dict[str, Any] = {"cards": [{"code": r.code, "confidence": round(r.confidence, 3), "sure": r.sure}
                                        for r in readings],
                              "card": None, "entered": None, "asking": None, "error": False, "message": ""}
    for sighting in cards.in_view(phone).see(readings, seconds):
        entry = Entry(sighting.code, PHONE_CAMERA, sure=sighting.sure)
        outcome = await _answered(hub, entry)
        answer["card"] = sighting.code
        if outcome is None:
            answer.update(message="the board has not answered yet: look at the board")
            continue
        asking = not sighting.sure and not outcome.error and outcome.accepted is None
        message = outcome.words(page_language(request))  # the table's words in the phone's language
        answer.update(entered=None if outcome.error or asking else sighting.code,
                      asking=sighting.code if asking else None, error=outcome.error, message=message)
    return web.json_response(answer)


async def _answered(hub: Hub, entry: Entry) -> Outcome | None:
    """The table's outcome of `entry` (None when it is slow to come)."""
    from .server import ANSWER_SECONDS

    future: asyncio.Future[Outcome] = asyncio.get_running_loop().create_future()
    hub.waiting[id(entry)] = (entry, future)
    try:
        hub.emit(entry)
        return await asyncio.wait_for(future, ANSWER_SECONDS)
    except TimeoutError:
        return None
    finally:
        del hub.waiting[id(entry)]


def _photos(state_dir: Path) -> dict[str, Path]:
    folder = state_dir / PHOTOS
    return {code: folder / f"{code}.jpg" for code in CODES if (folder / f"{code}.jpg").is_file()}


async def _deck(request: web.Request) -> web.Response:
    """The photos taken so far of the deck being taught, and whether the board knows a taught deck."""
    from .server import HUB

    hub = request.app[HUB]
    state_dir = _state_dir(hub)
    return web.json_response({"codes": list(CODES), "taken": list(_photos(state_dir)),
                              "taught": _deck_folder(hub).is_dir()})


async def _photo(request: web.Request) -> web.Response:
    """One card's photo for teaching the deck, kept (a retake replaces it) when a card is found in it; the answer
    says whether the card's index reads as the card (`confirmed`), and the other card it reads confidently
    (`looks`, or null)."""
    from .server import Refused

    hub = _hub(request)
    code = request.match_info["code"].upper()
    if code not in CODES:
        raise Refused(400, Asked.NOT_A_CARD, code=code[:8])
    data = await _picture(request)
    cards = request.app[CARDS]
    _can_read_plain_cards()
    async with cards.reading:
        found = await asyncio.get_running_loop().run_in_executor(None, _teaching, cards, data)
    if found is None:
        raise Refused(422, Asked.NO_CARD_IN_PHOTO, card=Card.parse(code).pretty)
    folder = _state_dir(hub) / PHOTOS
    folder.mkdir(parents=True, exist_ok=True)
    temporary = folder / f"{code}.part"
    temporary.write_bytes(data)
    temporary.replace(folder / f"{code}.jpg")
    return web.json_response({"taken": len(_photos(_state_dir(hub))), "of": len(CODES),
                              "confirmed": found.confirms(code), "looks": found.looks_like(code)})


def _teaching(cards: PlainCards, data: bytes) -> TeachingPhoto | None:
    """The card a teaching photo would teach, read by the shipped network alone (None: no card found in it)."""
    from companion.vision.index import IndexNet
    from companion.vision.reader import teaching_photo

    frame = _decoded(data)
    cards.net = cards.net or IndexNet.load()
    return teaching_photo(cards.net, frame)


async def _learn(request: web.Request) -> web.Response:
    """The deck learned from its 52 photos, and kept where the board's recognizers load it."""
    from .server import Refused

    hub = _hub(request)
    state_dir = _state_dir(hub)
    photos = _photos(state_dir)
    missing = [code for code in CODES if code not in photos]
    if missing:
        raise Refused(409, Asked.PHOTOS_MISSING, missing=missing)
    cards = request.app[CARDS]
    if cards.learning:
        raise Refused(409, Asked.LEARNING)
    cards.learning = True
    loop = asyncio.get_running_loop()
    try:
        await loop.run_in_executor(None, _keep_learned, photos, _deck_folder(hub))
        async with cards.reading:  # the new deck loaded while the page says it is learning, not at the next frame
            await loop.run_in_executor(None, _taught(cards, hub).current)
    except ValueError as error:  # UnreadableImage names the photo to take again
        raise Refused(422, Asked.UNLEARNABLE, text=str(error)) from None
    finally:
        cards.learning = False
    return web.json_response({"taught": len(photos)})


def _keep_learned(photos: dict[str, Path], deck: Path) -> None:
    """Learn into a new folder beside `deck`, then put it in the old one's place at once (a reader never sees half
    a deck)."""
    from companion.vision import learn

    new, old = (deck.with_name(deck.name + suffix) for suffix in (".new", ".old"))
    shutil.rmtree(new, ignore_errors=True)
    learn(photos, new)
    shutil.rmtree(old, ignore_errors=True)
    with contextlib.suppress(FileNotFoundError):
        deck.rename(old)
    new.rename(deck)
    shutil.rmtree(old, ignore_errors=True)
