"""The web server inside the daemon: the board, the scoreboard, the statistics and the controls.

`create_app(hub)` is the aiohttp application (the club scoreboard builds on it); `WebServer` is the entry
device that runs it on an asyncio loop in a thread of its own beside the main loop. Only the main loop
touches the table: it polls `WebServer`, which then publishes a snapshot of the table to the loop when
anything changed; the loop pushes it to every open WebSocket. What the page asks for (a card, a key, go,
undo, a discard, a new game against the computer) goes to the table's `emit`, the entry path of the keypad
and the scanner, and its outcome comes back as the next snapshot.

Security: reading needs nothing; changing the game needs the control token in the X-Crib-Token header
(compared in constant time) unless the server was made without one (simulation). Wrong tokens are slowed per
address (companion/web/guard.py) and said on the OLED. Requests that change
something must be JSON and same-origin when a browser says where it comes from; WebSocket upgrades must come
from this origin; bodies are limited to MAX_BODY bytes and validated; the only files served are the package's
own, read at start-up; every error is a 4xx with a message (an unexpected one a 500 without details).

The page is served over HTTPS too when asked (`https`, with the board's own certificate, companion/web/tls.py):
phones open their camera only for a secure page, and the phone's scanner (/scan) posts each code it reads to
/api/scan, which enters it as the USB scanner does and answers with what the table made of it.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import hashlib
import hmac
import json
import logging
import math
import re
import threading
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit

from aiohttp import WSMsgType, web

from companion import i18n
from companion.boards import misfit
from companion.cribbage import transcript as t
from companion.cribbage.cards import Card
from companion.cribbage.errors import CribbageError
from companion.cribbage.game import GameState, rules_of
from companion.devices.base import Clock, DeviceError, Emit, Entry, EntryDevice, Fault
from companion.devices.keypad import KeypadEntry
from companion.entry.barcodes import decode_payload
from companion.entry.keymap import KEYS
from companion.entry.scans import normalise_scan
from companion.play.computer import ComputerGame, Settings, SettingsError, dealer_entry
from companion.table import Outcome, Table
from companion.view.board import board_svg
from companion.words.messages import Message, Say
from companion.words.webapi import NOT_ANSWERED, Asked, asked_words

from . import archive, frames
from .guard import TokenGuard
from .language import page_language, translate_page
from .snapshot import snapshot
from .tls import Certificate

log = logging.getLogger(__name__)

TOKEN_HEADER = "X-Crib-Token"
MAX_BODY = 4096
MAX_TEXT = 40
PAGES = {"/": "board.html", "/scoreboard": "scoreboard.html", "/stats": "stats.html", "/scan": "scan.html"}
PHONE = "scanner:phone"  # the source of the phone's scans: decoded as the USB scanner's (companion.entry)
ANSWER_SECONDS = 5.0  # how long /api/scan waits for the table's answer
_LOG_NAME = re.compile(r"^\d{4}\.jsonl$")


class WebKeypad(KeypadEntry):
    """The page's keypad: the same key sequences as the physical one (companion.entry.keymap)."""

    name = "web keypad"

    def press(self, label: str) -> None:
        """A key pressed and let go on the page (from the server's thread); the main loop's poll decodes it."""
        row, column = next((r, c) for r, keys in enumerate(self.layout) for c, key in enumerate(keys) if key == label)
        self.pressed(row, column)
        self.released(row, column)

    def close(self) -> None:
        self._emit = None


@dataclass
class Hub:
    """What the server knows of the table: the latest snapshot (made on the main loop) and where entries go."""

    emit: Emit
    token: str | None  # None: controls need no token (simulation)
    state_dir: Path | None = None
    deck: Path | None = None  # the taught deck's folder (camera.deck), when not the state directory's deck/
    keypad: WebKeypad | None = None
    table: Table | None = None  # read-only from the server's thread: the layout and the person's name
    computer: ComputerGame | None = None  # the virtual table: a new game against the computer is asked of it
    latest: str = "{}"  # in the board's language
    spoken: str = ""  # the board's language, latest's ("": not published yet)
    translated: dict[str, str] = field(default_factory=dict)  # the same in each other language a page speaks
    version: int = 0
    sockets: set[web.WebSocketResponse] = field(default_factory=set)
    tongues: dict[web.WebSocketResponse, str] = field(default_factory=dict)  # each page's language
    languages: tuple[str, ...] = ()  # the languages of the open pages (replaced whole: read by the main loop)
    loop: asyncio.AbstractEventLoop | None = None
    guard: TokenGuard | None = None  # wrong tokens slowed per address (None: not counted)
    https: str = ""  # the page's HTTPS address, when it has one
    fingerprint: str = ""  # and its certificate's SHA-256
    notices: deque[Message] = field(default_factory=deque)  # for the OLED, said by the main loop
    waiting: dict[int, tuple[Entry, asyncio.Future[Outcome]]] = field(default_factory=dict)

    def allowed(self, request: web.Request) -> bool:
        if self.token is None:
            return True
        given = request.headers.get(TOKEN_HEADER, "")
        return bool(self.token) and hmac.compare_digest(given.encode(), self.token.encode())  # never a blank token

    def answer(self, outcome: Outcome) -> None:
        """From the main loop: the outcome of an entry a request waits for goes to that request."""
        waiting = self.waiting.get(id(outcome.entry))
        if waiting is not None and waiting[0] is outcome.entry and self.loop is not None:
            future = waiting[1]

            def settle() -> None:
                if not future.done():  # not given up on meanwhile
                    future.set_result(outcome)
            self.loop.call_soon_threadsafe(settle)

    def publish(self, text: str, spoken: str, translated: dict[str, str] | None = None) -> None:
        """From the main loop: the new snapshot (in the board's language, `spoken`) goes to every page, in the
        page's language when it has one."""
        if self.loop is not None:
            self.loop.call_soon_threadsafe(self._broadcast, text, spoken, translated or {})

    def text_for(self, code: str) -> str | None:
        """The latest snapshot in the language `code`; None while it is not made in it yet (a page just opened in a
        language no other page speaks: the main loop makes it at its next turn, since the pages' languages changed)."""
        if code in self.translated:
            return self.translated[code]
        return self.latest if code == self.spoken or not self.spoken else None

    def listen(self, socket: web.WebSocketResponse, code: str | None) -> None:
        """A page opened (`code`: its language) or closed (None)."""
        if code is None:
            self.sockets.discard(socket)
            self.tongues.pop(socket, None)
        else:
            self.sockets.add(socket)
            self.tongues[socket] = code
        self.languages = tuple(sorted(set(self.tongues.values())))

    def _broadcast(self, text: str, spoken: str, translated: dict[str, str]) -> None:
        self.latest, self.spoken = text, spoken
        self.translated = translated
        self.version += 1
        for socket in list(self.sockets):
            if socket.closed:
                self.listen(socket, None)
                continue
            said = self.text_for(self.tongues.get(socket, spoken))
            if said is None:  # its own words come with the next publish
                continue
            task = asyncio.ensure_future(socket.send_str(said))
            task.add_done_callback(lambda done: done.exception())  # a socket closing meanwhile is not an error


def _problem(request: web.Request, status: int, why: Asked, **facts: object) -> web.Response:
    """A refusal as the page reads it: the HTTP status and the code to act on (401: ask for the control token),
    and the words to show, in the asker's language."""
    return web.json_response({"error": asked_words(why, facts, page_language(request)), "code": why.value},
                             status=status)


HUB = web.AppKey("hub", Hub)


class Refused(Exception):
    """A request refused: its HTTP status, why (`Asked`, the code the page reads) and the facts its words need."""

    def __init__(self, status: int, why: Asked, **facts: object) -> None:
        super().__init__(why.value, facts)
        self.status, self.why, self.facts = status, why, facts


_BY_STATUS = {404: Asked.NO_PAGE, 405: Asked.METHOD, 413: Asked.TOO_LARGE}  # aiohttp's own refusals


@web.middleware
async def _errors(request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
                  ) -> web.StreamResponse:
    try:
        return await handler(request)
    except Refused as error:
        return _problem(request, error.status, error.why, **error.facts)
    except web.HTTPException as error:
        if error.status < 400:
            raise
        why = _BY_STATUS.get(error.status, Asked.REFUSED)
        return _problem(request, error.status, why, most=MAX_BODY, text=error.reason)
    except Exception:
        log.exception("web request %s %s", request.method, request.path)
        return _problem(request, 500, Asked.SERVER)


def _same_origin(request: web.Request) -> bool:
    origin = request.headers.get("Origin")
    if origin is None:
        return True  # not a browser page (curl, a test client): the token still applies
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and parts.netloc == request.host


def _authorise(request: web.Request) -> None:
    """The control token, with wrong guesses slowed per address: refused (429) while the address must wait."""
    hub: Hub = request.app[HUB]
    guessed = bool(request.headers.get(TOKEN_HEADER))
    guard, address = hub.guard, request.remote
    if guard is not None and guessed and (wait := guard.wait(address)) > 0:
        raise Refused(429, Asked.WAIT, seconds=math.ceil(wait))
    if hub.allowed(request):
        if guard is not None and guessed:
            guard.right(address)
        return
    if guard is not None and guessed:
        wrong, delay = guard.wrong(address)
        if delay > 0:
            hub.notices.append(Message(Say.WRONG_TOKENS, count=wrong, text=str(address), total=round(delay)))
            log.warning("web: %d wrong control tokens from %s; the next is looked at in %.0f s", wrong, address, delay)
    raise Refused(401, Asked.TOKEN, header=TOKEN_HEADER)


async def _body(request: web.Request) -> dict[str, object]:
    """A control request's JSON object, after the origin and the token are checked (its fields are any JSON
    until each handler checks the ones it reads)."""
    if not _same_origin(request):
        raise Refused(403, Asked.ORIGIN)
    _authorise(request)
    if request.content_type != "application/json":
        raise Refused(415, Asked.NOT_JSON)
    raw = await request.read()
    if len(raw) > MAX_BODY:
        raise Refused(413, Asked.TOO_LARGE, most=MAX_BODY)
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise Refused(400, Asked.BODY_NOT_JSON) from None
    if not isinstance(data, dict):
        raise Refused(400, Asked.BODY_NOT_OBJECT)
    return data


_Kind = TypeVar("_Kind", str, int, bool)


def _field(data: dict[str, object], name: str, kind: type[_Kind], example: str) -> _Kind:
    """The field `name` of the kind wanted; else refused, saying what it must be (`example`: a key of FIELDS)."""
    value = data.get(name)
    if not isinstance(value, kind) or isinstance(value, bool) != (kind is bool):
        raise Refused(400, Asked.FIELD, name=name, example=example)
    return value


async def _entry(request: web.Request) -> web.Response:
    data = await _body(request)
    text = _field(data, "text", str, "entry")
    if not text.strip() or len(text) > MAX_TEXT or not text.isprintable():
        raise Refused(400, Asked.ENTRY, most=MAX_TEXT)
    request.app[HUB].emit(Entry(text.strip(), "web"))
    return web.json_response({"queued": text.strip()}, status=202)


async def _scan(request: web.Request) -> web.Response:
    """A code the phone's camera read: entered as the USB scanner's, answered with what the table made of it."""
    data = await _body(request)
    code = normalise_scan(_field(data, "text", str, "scan")[:MAX_BODY])
    if not code or len(code) > MAX_TEXT or not code.isprintable():
        raise Refused(400, Asked.SCAN, most=MAX_TEXT)
    hub: Hub = request.app[HUB]
    entry = Entry(code, PHONE)  # what the USB scanner delivers: the code cleaned of a scanner's decorations
    future: asyncio.Future[Outcome] = asyncio.get_running_loop().create_future()
    hub.waiting[id(entry)] = (entry, future)
    try:
        hub.emit(entry)
        outcome = await asyncio.wait_for(future, ANSWER_SECONDS)
    except TimeoutError:
        return web.json_response({"queued": code, "message": page_language(request).gettext(NOT_ANSWERED)},
                                 status=202)
    finally:
        del hub.waiting[id(entry)]
    decoded = decode_payload(code)
    message = outcome.words(page_language(request))  # the table's words in the phone's language
    return web.json_response({"entered": None if decoded is None or outcome.error else str(decoded),
                              "error": outcome.error, "message": message})


async def _secure(request: web.Request) -> web.Response:
    hub: Hub = request.app[HUB]
    return web.json_response({"https": hub.https, "fingerprint": hub.fingerprint})


async def _key(request: web.Request) -> web.Response:
    data = await _body(request)
    key = _field(data, "key", str, "key")
    hub: Hub = request.app[HUB]
    if key not in KEYS:
        raise Refused(400, Asked.NOT_A_KEY, key=key[:8], keys=sorted(KEYS))
    if hub.keypad is None:
        raise Refused(409, Asked.NO_KEYPAD)
    hub.keypad.press(key)
    return web.json_response({"pressed": key}, status=202)


async def _discard(request: web.Request) -> web.Response:
    data = await _body(request)
    cards = data.get("cards")
    if not isinstance(cards, list) or not 1 <= len(cards) <= 2 or not all(isinstance(c, str) for c in cards):
        raise Refused(400, Asked.DISCARD)
    hub: Hub = request.app[HUB]
    person = _person(hub)
    try:
        chosen = tuple(Card.parse(c) for c in cards)
    except CribbageError as error:  # Card.parse refuses with a refusal
        raise Refused(400, Asked.CARD, refusal=error.refusal, text=str(error)) from None
    hub.emit(dealer_entry(t.DiscardInput(person, chosen)))
    return web.json_response({"queued": [str(c) for c in chosen]}, status=202)


def _person(hub: Hub) -> str:
    latest = json.loads(hub.latest)
    you = latest.get("you")
    if not you:
        raise Refused(409, Asked.NOT_AGAINST_COMPUTER)
    return str(you["person"])


async def _computer_game(request: web.Request) -> web.Response:
    data = await _body(request)
    try:
        settings = Settings.from_json(data)
    except SettingsError as error:
        raise Refused(400, Asked.SETTINGS, refusal=error.refusal) from None
    if not settings.names:  # the computer players are named in the language of the person who starts the game
        settings = settings.named(page_language(request))
    hub: Hub = request.app[HUB]
    if hub.table is not None:
        layout = hub.table.layout
        problem = misfit(layout, rules_of(settings.game_input()).sides, settings.target)
        if problem is not None:
            raise Refused(409, Asked.CANNOT_HOST, layout=layout.name, tracks=layout.tracks, holes=layout.target)
    if hub.computer is None:
        raise Refused(409, Asked.NO_COMPUTER)
    hub.emit(hub.computer.new_game(settings))
    return web.json_response({"queued": settings.to_json()}, status=202)


async def _token_check(request: web.Request) -> web.Response:
    await _body(request)  # 401 without the right token
    return web.json_response({"controls": True})


async def _state(request: web.Request) -> web.Response:
    hub: Hub = request.app[HUB]
    return web.Response(text=hub.latest, content_type="application/json",
                        headers={"X-Controls": "open" if hub.token is None else "token"})


async def _board(request: web.Request) -> web.Response:
    hub: Hub = request.app[HUB]
    if hub.table is None:
        raise Refused(404, Asked.NO_BOARD)
    latest = json.loads(hub.latest)
    target = latest.get("state", {}).get("rules", {}).get("target")
    return web.Response(text=board_svg(hub.table.layout, (), target), content_type="image/svg+xml")


async def _socket(request: web.Request) -> web.StreamResponse:
    if not _same_origin(request):
        raise Refused(403, Asked.SOCKET_ORIGIN)
    hub: Hub = request.app[HUB]
    socket = web.WebSocketResponse(heartbeat=20, max_msg_size=MAX_BODY)
    code = page_language(request).code  # the page's words (prompt, scores as said) in its own language
    await socket.prepare(request)
    hub.listen(socket, code)
    try:
        said = hub.text_for(code)
        if said is not None:  # else the page's own words come with the next publish, a moment later
            await socket.send_str(said)
        async for message in socket:  # the page only listens; anything it sends is ignored
            if message.type == WSMsgType.ERROR:
                break
    finally:
        hub.listen(socket, None)
    return socket


def _state_dir(request: web.Request) -> Path:
    hub: Hub = request.app[HUB]
    if hub.state_dir is None:
        raise Refused(404, Asked.NO_HISTORY)
    return hub.state_dir


async def _stats(request: web.Request) -> web.Response:
    state_dir = _state_dir(request)
    report = await asyncio.get_running_loop().run_in_executor(None, archive.overview, state_dir,
                                                              page_language(request))
    return web.json_response(report)


async def _hands(request: web.Request) -> web.Response:
    state_dir = _state_dir(request)
    player = request.query.get("player", "")
    if not player or len(player) > 40:
        raise Refused(400, Asked.HANDS_PLAYER)
    found = await asyncio.get_running_loop().run_in_executor(None, archive.hand_scores, state_dir, player)
    return web.json_response(found)


async def _game(request: web.Request) -> web.Response:
    state_dir = _state_dir(request)
    name, number = request.match_info["log"], request.match_info["game"]
    if not _LOG_NAME.match(name) or not number.isdigit() or len(number) > 4:
        raise Refused(400, Asked.GAME_NAME)
    found = await asyncio.get_running_loop().run_in_executor(None, archive.game, state_dir, name, int(number),
                                                             page_language(request))
    if found is None:
        raise Refused(404, Asked.NO_GAME, game=number, log=name)
    return web.json_response(found)


_TYPES = {".css": "text/css", ".js": "text/javascript", ".html": "text/html", ".txt": "text/plain",
          ".wasm": "application/wasm"}


def _files(package: str) -> dict[str, tuple[bytes, str]]:
    """The package's own files, read once, by their path below it ("vendor/zxing-wasm/zxing-reader.js"):
    nothing a request names ever reaches the file system. Licences are served as text."""
    out = {}
    folders: list[tuple[str, Any]] = [("", resources.files(package))]
    while folders:
        prefix, folder = folders.pop()
        for item in folder.iterdir():
            kind = _TYPES.get(Path(item.name).suffix, "text/plain" if item.name == "LICENSE" else "")
            if item.is_dir() and not item.name.startswith(("_", ".")):
                folders.append((f"{prefix}{item.name}/", item))
            elif item.is_file() and kind:
                out[prefix + item.name] = (item.read_bytes(), kind)
    return out


def create_app(hub: Hub) -> web.Application:
    """The web application around `hub`; other views (the club scoreboard) add their routes to it."""
    app = web.Application(middlewares=[_errors], client_max_size=MAX_BODY)
    app[HUB] = hub
    static = _files("companion.web.static")
    pages = _files("companion.web.templates")

    tags = {name: f'"{hashlib.sha256(body).hexdigest()[:16]}"' for name, (body, _kind) in static.items()}

    async def static_file(request: web.Request) -> web.Response:
        name = request.match_info["name"]
        found = static.get(name)
        if found is None:
            raise Refused(404, Asked.NO_FILE)
        headers = {"Cache-Control": "no-cache", "ETag": tags[name]}  # the 1 MB decoder is fetched once per phone
        if request.headers.get("If-None-Match") == tags[name]:
            return web.Response(status=304, headers=headers)
        return web.Response(body=found[0], content_type=found[1], headers=headers)

    def page(name: str) -> Callable[[web.Request], Awaitable[web.Response]]:
        async def handler(request: web.Request) -> web.Response:
            text = translate_page(pages[name][0].decode("utf-8"), page_language(request))
            return web.Response(text=text, content_type="text/html", headers={"Vary": "Accept-Language, Cookie"})
        return handler

    for path, name in PAGES.items():
        app.router.add_get(path, page(name))
    app.router.add_get("/games/{log}/{game}", page("game.html"))
    app.router.add_get("/static/{name:.+}", static_file)
    app.router.add_get("/ws", _socket)
    app.router.add_get("/api/state", _state)
    app.router.add_get("/api/board.svg", _board)
    app.router.add_get("/api/stats", _stats)
    app.router.add_get("/api/hands", _hands)
    app.router.add_get("/api/games/{log}/{game}", _game)
    app.router.add_get("/api/https", _secure)
    app.router.add_post("/api/entry", _entry)
    app.router.add_post("/api/scan", _scan)
    app.router.add_post("/api/key", _key)
    app.router.add_post("/api/discard", _discard)
    app.router.add_post("/api/computer-game", _computer_game)
    app.router.add_post("/api/token", _token_check)
    frames.add_routes(app)  # the phone's camera reading plain cards, and teaching the board a deck
    return app


def _url(scheme: str, address: Any) -> str:
    host, port = address[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"{scheme}://{shown}:{port}/"


def parse_listen(text: str) -> tuple[str, int]:
    """'127.0.0.1:8121' or '[::1]:8121' or '0.0.0.0:80', as config.listen_address checked it -> (host, port)."""
    host, _, port = text.rpartition(":")
    return host.strip("[]"), int(port)


class WebServer(EntryDevice):
    """The page's server as an entry device: started with the table's emit, polled by the main loop."""

    name = "web"

    def __init__(self, table: Table, *, listen: tuple[str, int], token: str | None, clock: Clock,
                 state_dir: Path | None = None, computer: ComputerGame | None = None,
                 key_timeout: float = 4.0, any_port: bool = False,
                 on_ready: Callable[[str], None] | None = None,
                 https: tuple[str, int] | None = None, certificate: Certificate | None = None,
                 deck: Path | None = None) -> None:
        self.table = table
        self.listen = listen
        self.https = https if certificate is not None else None  # served with `certificate` beside `listen`
        self.any_port = any_port  # when the port is taken, take a free one (crib sim: several may run)
        self.on_ready = on_ready
        self.computer = computer
        self.keypad = WebKeypad(clock=clock, timeout=key_timeout)
        self.hub = Hub(emit=lambda entry: None, token=token, state_dir=state_dir, deck=deck, keypad=self.keypad,
                       table=table,
                       computer=computer, guard=TokenGuard(clock),
                       fingerprint=certificate.fingerprint if certificate else "")
        self.certificate = certificate
        self.address = ""
        self.secure_address = ""
        self._seen: tuple[object, ...] = ()
        self._before: GameState | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._stop: asyncio.Event | None = None
        self._problem: BaseException | None = None

    def start(self, emit: Emit) -> None:
        """Start serving; raises OSError when the address cannot be used."""
        self.hub.emit = emit
        self.keypad.start(emit)
        self.poll(0.0)
        self._thread = threading.Thread(target=contextvars.copy_context().run, args=(self._serve,), name="web",
                                        daemon=True)  # in the language of who starts it
        self._thread.start()
        self._ready.wait(10)
        if isinstance(self._problem, OSError) and self.any_port and (self.listen[1] != 0 or self.https):
            log.info("web: %s; taking free ports", self._problem)
            self.listen, self._problem = (self.listen[0], 0), None
            self.https = (self.https[0], 0) if self.https else None
            self._ready.clear()
            self._thread = threading.Thread(target=contextvars.copy_context().run, args=(self._serve,), name="web",
                                            daemon=True)
            self._thread.start()
            self._ready.wait(10)
        if self._problem is not None:
            secure = f"{self.https[0]}:{self.https[1]}" if self.https else ""
            raise DeviceError(Fault.LISTEN_BUSY, address=f"{self.listen[0]}:{self.listen[1]}", secure=secure,
                              error=str(self._problem)) from self._problem
        if self.on_ready is not None:
            self.on_ready(self.address)

    def _serve(self) -> None:
        loop = asyncio.new_event_loop()
        self.hub.loop = loop
        try:
            loop.run_until_complete(self._main())
        except BaseException as error:  # the address in use, most often: said to the thread that started us
            self._problem = error
            self._ready.set()
        finally:
            loop.close()

    async def _main(self) -> None:
        self._stop = asyncio.Event()
        runner = web.AppRunner(create_app(self.hub), access_log=None, shutdown_timeout=1)
        await runner.setup()
        site = web.TCPSite(runner, *self.listen)
        try:
            await site.start()
            self.address = _url("http", runner.addresses[0])
            if self.https is not None and self.certificate is not None:
                plain = len(runner.addresses)
                await web.TCPSite(runner, *self.https, ssl_context=self.certificate.context()).start()
                self.secure_address = self.hub.https = _url("https", runner.addresses[plain])
                log.info("web: the page over HTTPS at %s, certificate SHA-256 %s", self.secure_address,
                         self.certificate.fingerprint)
            self._ready.set()
            await self._stop.wait()
        finally:
            for socket in list(self.hub.sockets):
                await socket.close()
            await runner.cleanup()

    def outcome(self, outcome: Outcome) -> None:
        """On the main loop, after each entry: a phone waiting for its scan's outcome gets it."""
        self.hub.answer(outcome)

    def poll(self, now: float) -> None:
        """On the main loop: say the server's notices (wrong tokens) on the OLED; publish the table when anything
        on show changed."""
        while self.hub.notices:
            self.table.announce(self.hub.notices.popleft(), error=True)
        self.keypad.poll(now)
        table = self.table
        computer = self.computer
        seen = (table.state, table.picture.image, table.message, len(table.cards), table.doubt.card,
                computer.review if computer else None, computer.muggins if computer else None,
                computer.settings if computer else None, table.spoken, self.hub.languages)
        if len(seen) == len(self._seen) and all(a is b or a == b for a, b in zip(seen, self._seen, strict=True)):
            return
        before = self._before if self._before is not table.state else None
        self._seen = seen
        self._before = table.state
        display = self.table.presenter.display
        image = getattr(getattr(display, "device", None), "image", None)  # luma's dummy device: what it shows
        image = image if image is not None and image.size == (128, 64) else None
        board = i18n.current().code  # the OLED's and the voice's language: the board's, whatever a page speaks
        shot = snapshot(table, computer, before, image)
        shot["voice"]["lang"] = board
        text = json.dumps(shot)
        translated: dict[str, str] = {}
        for code in self.hub.languages:  # the same for each page in another language: its own words
            if code != board:
                with i18n.speaking(code):
                    other = snapshot(table, computer, before, image)
                translated[code] = json.dumps({**other, "voice": shot["voice"], "oled": shot["oled"]})
        if self.hub.loop is None:  # not serving yet: the first page gets it
            self.hub.latest, self.hub.spoken = text, board
        else:
            self.hub.publish(text, board, translated)

    def close(self) -> None:
        loop, stop = self.hub.loop, self._stop
        if loop is not None and stop is not None:
            with contextlib.suppress(RuntimeError):  # the loop has ended already
                loop.call_soon_threadsafe(stop.set)
        if self._thread is not None:
            self._thread.join(5)
