"""The club scoreboard: subscribes to the club's boards and serves the night as a page and a JSON API.

The broker's messages arrive on paho's thread; each is checked (`protocol.parse_message`), taken by the
`Night`, and when the page would change every open page is sent the new tables and standings over its
WebSocket. The scoreboard page only reads. The director's page (/director) lists what waits for a decision
and takes cards entered by hand; what changes the night there (`POST /api/enter`, `POST /api/decide`) needs
the director's token. The scoreboard keeps a persistent session at the broker (QoS 1, a fixed client id), so
events sent while it was down arrive when it is back, and the retained states bring every table up to date
after its own restart. At its start it tries the broker without a name: a broker that takes anonymous
boards is said on both pages (then only signed boards are to be trusted: `--credentials` with the club's
secret takes nothing else).
"""

from __future__ import annotations

import asyncio
import functools
import hmac
import json
import logging
import resource
import statistics
import threading
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeGuard

from aiohttp import WSCloseCode, WSMsgType, web

from companion.boards import BUILTIN_GAMES, BoardLayout, LayoutError, builtin_for, load_layout
from companion.club import export, protocol
from companion.club.night import Night
from companion.club.pairing import Seat
from companion.club.payloads import BrokerJSON, DirectorJSON, FiguresJSON, MiniBoardJSON, NightJSON, TableJSON
from companion.club.publisher import Broker
from companion.club.refused import Refused
from companion.i18n import N_, Language, accepted, current, journal, translate_html
from companion.view.board import board_svg, frame_colours
from companion.view.pegs import peg_frame
from companion.words.club import Why, decision_words, entry_words, refusal_words

log = logging.getLogger(__name__)
JOURNAL = {  # what the scoreboard says in its journal, in the system's language (the journal's reader's)
    "refused": N_("scoreboard: the broker refused us ({reason}): check --username and --password-file (crib club "
                  "credentials wrote them)"),
    "following": N_("scoreboard: following {topics}"),
    "ignored": N_("scoreboard: ignored a message: {error}"),
    "failed": N_("scoreboard: could not take a message on {topic}; the night goes on"),
    "anonymous": N_("scoreboard: the broker takes anonymous clients: anyone on its network can post as a board"),
}


STATIC = Path(__file__).with_name("static")
WEB_STATIC = Path(__file__).parents[1] / "web" / "static"  # the board page's style, for the same boards
NIGHT: web.AppKey[Night] = web.AppKey("night", Night)
SOCKETS = web.AppKey("sockets", weakref.WeakSet[web.WebSocketResponse])
DIRECTOR = web.AppKey("director", str)  # the director's token ("" = no director's actions here)
BROKER: web.AppKey[BrokerJSON] = web.AppKey("broker")  # what the scoreboard knows of its broker
PROBE = 5.0  # seconds the anonymous sign-in may take
ROUND_CHECK = 1.0  # seconds between looks at the night's file for what the director's commands wrote


class Listener:
    """The scoreboard's MQTT side: every message checked, bad ones logged once per board and reason."""

    def __init__(self, broker: Broker, club: str, night: Night, secret: bytes | None = None) -> None:
        self.club = protocol.check_name(club, "club")
        self.night = night
        self.secret = secret  # the club's signing secret: only messages signed by their board are taken
        self.refused: set[tuple[str, str]] = set()
        self.received = 0
        self.changed: list[Callable[[], None]] = []  # callbacks for "the page would change"
        self.client = broker.client(f"cribbage-scoreboard-{club}", clean=False)
        self.client.on_connect = self._on_connect
        self.client.on_message = self._on_message
        self.broker = broker

    def start(self) -> None:
        self.client.connect_async(self.broker.host, self.broker.port, keepalive=30)
        self.client.loop_start()

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()

    def publish_seats(self, number: int, seats: list[Seat], boards: set[str]) -> None:
        """Tell each board its seat in round `number` (retained, so a board that starts later hears it too);
        a board of the night without a seat this round is told it sits out."""
        seated = {seat.board: seat for seat in seats}
        for board in sorted(boards | set(seated)):
            seat = seated.get(board)
            message = protocol.TableSeat(number, seat.table if seat else 0, seat.players if seat else ())
            self.client.publish(protocol.seat_topic(self.club, board), message.payload(), qos=1, retain=True)

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        if reason.is_failure:
            log.warning("%s", journal(JOURNAL["refused"], reason=reason))
            return
        log.info("%s", journal(JOURNAL["following"], topics=protocol.club_filter(self.club)))
        client.subscribe(protocol.club_filter(self.club), qos=1)

    def _on_message(self, client: Any, userdata: Any, message: Any) -> None:
        self.received += 1
        try:
            checked = protocol.parse_message(message.topic, message.payload, self.secret)
        except protocol.BadMessage as error:
            reason = str(error).split(":", 1)[-1][:60]
            if (message.topic, reason) not in self.refused:
                self.refused.add((message.topic, reason))
                log.warning("%s", journal(JOURNAL["ignored"], error=error))
            return
        if checked.club != self.club:
            return
        try:
            changed = self.night.receive(checked)
        except Exception:  # the night must outlive any message: say what it was and go on
            log.exception("%s", journal(JOURNAL["failed"], topic=message.topic))
            return
        if changed:
            for callback in self.changed:
                callback()


def snapshot(night: Night, broker: BrokerJSON) -> NightJSON:
    return {"tables": [{**t, "mini": mini_board(t)} for t in night.table_list()],
            "standings": [s.to_json() for s in night.standings()], "pairings": night.pairings(),
            "scoring": {"name": night.scoring.name, "skunks_before_spread": night.scoring.skunks_before_spread},
            "bracket": night.bracket(), "broker": broker, "waiting": len(night.waiting())}


def director_view(night: Night, broker: BrokerJSON) -> DirectorJSON:
    """What the director's page shows: every game waiting, the tie at the qualifying line (as it stands, or
    as the playoff draw parted it), the rounds and the night's rules."""
    drawn = night.bracket()
    return {"waiting": night.waiting(), "tie": drawn["tie"] if drawn else night.line_tie(),
            "drawn": drawn is not None, "rounds": night.rounds(), "rules": night.rules(),
            "field": night.field(), "broker": broker}


def probe_anonymous(broker: Broker) -> bool | None:
    """Whether the broker lets a client in without a name (None: it could not be asked)."""
    anonymous = Broker(broker.host, broker.port, broker.tls, ca_file=broker.ca_file)
    client = anonymous.client("cribbage-scoreboard-probe")
    answer: list[bool] = []
    done = threading.Event()

    def connected(client: Any, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        answer.append(not reason.is_failure)
        done.set()

    client.on_connect = connected
    try:
        client.connect(broker.host, broker.port, keepalive=10)
    except OSError:
        return None
    client.loop_start()
    done.wait(PROBE)
    client.disconnect()
    client.loop_stop()
    return answer[0] if answer else None


def mini_board(table: TableJSON) -> MiniBoardJSON | None:
    """Which builtin board draws this table, and its lit holes (LED -> colour), as the board's own strip
    would show them: the board page's drawing (`/boards/NAME.svg`) recoloured by the page."""
    state = table["state"]
    if state is None:
        return None
    sides, target = state["sides"], state["rules"]["target"]
    try:
        name = builtin_for(len(sides), target)
    except LayoutError:
        return None
    pegs = [(side["score"], min(side["score"], side["back_peg"])) for side in sides]
    colours = frame_colours(peg_frame(_layout(name), pegs, target))
    return {"layout": name, "lit": {str(led): colour for led, colour in enumerate(colours) if colour}}


@functools.cache
def _layout(name: str) -> BoardLayout:
    """A builtin board's layout, read once: every push draws each table's pegs on it."""
    return load_layout(name)


@functools.cache
def _board_svg(name: str, target: int, lang: Language) -> str:
    return board_svg(_layout(name), (), target, title=lang.gettext("The board ({name})").format(name=name))


def figures(night: Night) -> FiguresJSON:
    """What the scoreboard has measured this run: arrivals and their delay, and its own memory."""
    delays = sorted(night.delays)
    quantile = (lambda q: round(delays[min(len(delays) - 1, int(q * len(delays)))] * 1000, 2)) if delays else None
    standing = sorted(night.standing_delays)
    return {"events": len(delays), "delay_ms_median": round(statistics.median(delays) * 1000, 2) if delays else None,
            "delay_ms_p99": quantile(0.99) if quantile else None, "games": night.games_finished(),
            "standings_updates": len(standing),
            "standings_ms_median": round(statistics.median(standing) * 1000, 1) if standing else None,
            "standings_ms_p99": round(standing[min(len(standing) - 1, int(0.99 * len(standing)))] * 1000, 1)
            if standing else None,
            "max_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)}


def make_app(night: Night, director: str = "", broker: BrokerJSON | None = None) -> web.Application:
    app = web.Application(client_max_size=4096)
    app[NIGHT] = night
    app[SOCKETS] = weakref.WeakSet()
    app[DIRECTOR] = director
    known: BrokerJSON = {"anonymous": None, "signed": False} if broker is None else broker
    app[BROKER] = known
    app.on_shutdown.append(_close_sockets)
    app.add_routes([
        web.get("/director", _director_page), web.get("/api/waiting", _waiting), web.post("/api/enter", _enter),
        web.post("/api/decide", _decide),
        web.get("/", _page), web.get("/api/tables", _tables), web.get("/api/standings", _standings),
        web.get("/api/figures", _figures), web.get("/ws", _socket), web.static("/static", STATIC),
        web.get("/api/round", _round), web.get("/api/bracket", _bracket), web.get("/api/scorecard", _scorecard),
        web.get("/standings.csv", _standings_csv), web.get("/games.csv", _games_csv),
        web.get("/boards/{name}.svg", _board), web.static("/web", WEB_STATIC),
    ])
    return app


def _language(request: web.Request) -> Language:
    """The language the browser (or `crib club enter`) asks for, else the command's."""
    return accepted(request.headers.get("Accept-Language"), current())


def _html(request: web.Request, name: str) -> web.Response:
    """A page in the browser's language, else the command's (its words, and the script's as window.WORDS)."""
    return web.Response(text=translate_html((STATIC / name).read_text(encoding="utf-8"), _language(request)),
                        content_type="text/html")


async def _page(request: web.Request) -> web.Response:
    return _html(request, "club.html")


async def _director_page(request: web.Request) -> web.Response:
    return _html(request, "director.html")


async def _waiting(request: web.Request) -> web.Response:
    return web.json_response(director_view(request.app[NIGHT], request.app[BROKER]))


def _refusal(request: web.Request, status: type[web.HTTPException], why: Why, **facts: object
             ) -> web.HTTPException:
    """A refusal as the client reads it: its code, its facts and its words in the client's language."""
    return status(text=json.dumps({"refusal": why.value, "facts": facts,
                                   "message": refusal_words(why, facts, _language(request))}),
                  content_type="application/json")


async def _director_asks(request: web.Request) -> dict[str, object]:
    """The request's JSON object, once its token is the director's (401 without it, 403 on a scoreboard
    started without one); its fields are any JSON until the handler checks them."""
    token = request.app[DIRECTOR]
    if not token:
        raise _refusal(request, web.HTTPForbidden, Why.NO_DIRECTOR)
    given = request.headers.get("Authorization", "").removeprefix("Bearer ").strip()
    if not hmac.compare_digest(given.encode(), token.encode()):
        raise _refusal(request, web.HTTPUnauthorized, Why.TOKEN)
    try:
        body = await request.json()
    except ValueError:
        body = None
    if not isinstance(body, dict):
        raise _refusal(request, web.HTTPBadRequest, Why.BODY, asked="object")
    return body


async def _enter(request: web.Request) -> web.Response:
    """A card entered by hand: {"round", "player", "opponent", "score", "against"} -> {"status", "message"}."""
    body = await _director_asks(request)
    number, player, opponent, score, against = (body.get(k) for k in ("round", "player", "opponent", "score",
                                                                        "against"))
    if not (_whole(number) and isinstance(player, str) and isinstance(opponent, str) and _whole(score)
            and _whole(against)):
        raise _refusal(request, web.HTTPBadRequest, Why.BODY, asked="card")
    night = request.app[NIGHT]
    try:
        entry = night.enter(number, player.strip(), opponent.strip(), score, against)
    except Refused as refused:
        raise _refusal(request, web.HTTPConflict, refused.why, **refused.facts) from None
    await push(request.app)
    return web.json_response(entry.to_json(entry_words(entry.status, entry.round, entry.card, entry.theirs,
                                                       _language(request))))


def _whole(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


async def _decide(request: web.Request) -> web.Response:
    """The director's decision on a waiting game: {"id", "approve": true|false, "card": whose card counts}."""
    body = await _director_asks(request)
    item, approve, card = body.get("id"), body.get("approve"), body.get("card")
    if not isinstance(item, str) or not isinstance(approve, bool) or not (card is None or isinstance(card, str)):
        raise _refusal(request, web.HTTPBadRequest, Why.BODY, asked="decision")
    try:
        decided = request.app[NIGHT].decide(item, approve, card)
    except Refused as refused:
        raise _refusal(request, web.HTTPConflict, refused.why, **refused.facts) from None
    await push(request.app)
    return web.json_response({"approved": decided.approved, "id": decided.item, "card": decided.card,
                              "message": decision_words(decided.approved, decided.item, decided.card,
                                                        _language(request))})


async def _tables(request: web.Request) -> web.Response:
    return web.json_response(request.app[NIGHT].table_list())


async def _standings(request: web.Request) -> web.Response:
    return web.json_response([s.to_json() for s in request.app[NIGHT].standings()])


async def _round(request: web.Request) -> web.Response:
    return web.json_response(request.app[NIGHT].pairings())


async def _bracket(request: web.Request) -> web.Response:
    return web.json_response(request.app[NIGHT].bracket())


async def _scorecard(request: web.Request) -> web.Response:
    """A player's card: /api/scorecard?player=Ann."""
    night = request.app[NIGHT]
    player = request.query.get("player", "")
    if player not in night.players():
        raise _refusal(request, web.HTTPNotFound, Why.NO_PLAYER, player=player)
    return web.json_response({"player": player, "lines": [line.to_json() for line in night.scorecard(player)]})


async def _standings_csv(request: web.Request) -> web.Response:
    return web.Response(text=export.standings_csv(request.app[NIGHT]), content_type="text/csv",
                        headers={"Content-Disposition": 'attachment; filename="standings.csv"'})


async def _games_csv(request: web.Request) -> web.Response:
    return web.Response(text=export.games_csv(request.app[NIGHT]), content_type="text/csv",
                        headers={"Content-Disposition": 'attachment; filename="games.csv"'})


async def _figures(request: web.Request) -> web.Response:
    return web.json_response(figures(request.app[NIGHT]))


async def _board(request: web.Request) -> web.Response:
    """A builtin board's drawing; only the builtin names are served (no request reaches the file system)."""
    name = request.match_info["name"]
    if name not in BUILTIN_GAMES:
        raise _refusal(request, web.HTTPNotFound, Why.NO_BOARD, board=name, boards=list(BUILTIN_GAMES))
    return web.Response(text=_board_svg(name, BUILTIN_GAMES[name][1], _language(request)),
                        content_type="image/svg+xml")


async def _socket(request: web.Request) -> web.WebSocketResponse:
    origin = request.headers.get("Origin")
    if origin is not None and origin.split("://", 1)[-1] != request.host:
        raise _refusal(request, web.HTTPForbidden, Why.OTHER_PAGE)
    socket = web.WebSocketResponse(heartbeat=20)
    await socket.prepare(request)
    request.app[SOCKETS].add(socket)
    await socket.send_str(json.dumps(snapshot(request.app[NIGHT], request.app[BROKER])))
    async for message in socket:  # the page sends nothing; this waits for it to close
        if message.type == WSMsgType.ERROR:
            break
    return socket


async def _close_sockets(app: web.Application) -> None:
    """Close every open page's live updates as the scoreboard stops (else it waits for each page to leave)."""
    sockets = app[SOCKETS]
    for socket in tuple(sockets):
        await socket.close(code=WSCloseCode.GOING_AWAY, message=b"the scoreboard stops")


async def push(app: web.Application) -> None:
    """Send every open page the night as it is now."""
    text = json.dumps(snapshot(app[NIGHT], app[BROKER]))
    sockets = app[SOCKETS]
    for socket in tuple(sockets):
        if not socket.closed:
            await socket.send_str(text)


async def serve(broker: Broker, club: str, night: Night, *, host: str, port: int,
                started: asyncio.Event | None = None, director: str = "", secret: bytes | None = None) -> None:
    """Follow the club and serve its pages until cancelled."""
    known: BrokerJSON = {"anonymous": None, "signed": secret is not None}
    app = make_app(night, director, known)
    loop = asyncio.get_running_loop()
    pending = asyncio.Event()
    heard = threading.Event()  # a board's message changed the page (set on paho's thread)

    def board_news() -> None:
        heard.set()
        loop.call_soon_threadsafe(pending.set)

    listener = Listener(broker, club, night, secret)
    listener.changed.append(board_news)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    await site.start()
    listener.start()
    if started is not None:
        started.set()
    watch = asyncio.create_task(_look_for_the_director(pending))

    async def probe() -> None:
        known["anonymous"] = await asyncio.to_thread(probe_anonymous, broker)
        if known["anonymous"]:
            log.warning("%s", journal(JOURNAL["anonymous"]))
        heard.set()
        pending.set()

    probing = asyncio.create_task(probe())
    seen: tuple[Any, ...] = ()
    told: tuple[Any, ...] = ()
    try:
        while True:
            await pending.wait()
            pending.clear()
            changed = heard.is_set()
            heard.clear()
            drawn = night.revision()  # a round, a card or the playoffs written by `crib club ...` meanwhile
            if drawn != seen:
                number, seats, _byes = night.current_seats()
                if number and (number, seats) != told:  # the round's seats, or the playoffs' open matches
                    listener.publish_seats(number, seats, set(night.tables))
                    told = (number, seats)
                seen, changed = drawn, True
            if changed:
                await push(app)
                await asyncio.sleep(0.05)  # at most 20 pushes a second, however busy the night
    finally:
        watch.cancel()
        probing.cancel()
        listener.close()
        await runner.cleanup()


async def _look_for_the_director(pending: asyncio.Event) -> None:
    """Wake the scoreboard every ROUND_CHECK seconds to read what the director's commands wrote."""
    while True:
        await asyncio.sleep(ROUND_CHECK)
        pending.set()
