"""The club's payloads as TypedDicts: the messages over MQTT (a board's event, state and status, the
scoreboard's seat: docs/club.md) and what the scoreboard serves its pages (the night, the director's view, the
tables, standings, scorecards, bracket). The MQTT messages' JSON Schemas are generated from them
(`python3 dev.py schema`: docs/schema/club-*.schema.json) and every message the scoreboard or a board receives
is checked against its schema (protocol.py). A board's game is the projection (words/contract.py `StateJSON`),
always under `state`."""

from __future__ import annotations

from typing import Annotated, Final, Literal, NotRequired

from typing_extensions import TypedDict

from companion.words.contract import InputJSON, Keywords, StateJSON

VERSION: Final = 2
ID = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$"  # a club or board id: safe in a topic and a URL
LOG = r"^[0-9]{1,8}$"  # a game log's number: "0003"
MAX_SEQ = 10**7
MAX_ROUND = 10**4

Version = Literal[2]
BoardId = Annotated[str, Keywords(pattern=ID)]
LogNumber = Annotated[str, Keywords(pattern=LOG)]
Sequence = Annotated[int, Keywords(minimum=0, maximum=MAX_SEQ)]
Signature = Annotated[str, Keywords(pattern=r"^[0-9a-f]{64}$")]
Name = Annotated[str, Keywords(minLength=1, maxLength=80)]


# --- over MQTT ------------------------------------------------------------------------------------------------

class EventMessageJSON(TypedDict):
    """cribbage/CLUB/boards/BOARD/events: an accepted input and the state after it."""

    v: Version
    board: BoardId
    log: LogNumber
    seq: Sequence  # the input's number in its log, from 1 (0: the log's start)
    at: float  # the board's clock (Unix seconds) when the publisher took the input
    input: InputJSON
    state: StateJSON
    sig: NotRequired[Signature]  # a signed board's HMAC (protocol.sign), read only by a scoreboard that checks it


class StateMessageJSON(TypedDict):
    """cribbage/CLUB/boards/BOARD/state (retained): the board's current state."""

    v: Version
    board: BoardId
    log: LogNumber
    seq: Sequence
    at: float
    state: StateJSON
    sig: NotRequired[Signature]


class StatusMessageJSON(TypedDict):
    """cribbage/CLUB/boards/BOARD/status (retained; the broker's will says offline)."""

    v: Version
    online: bool
    sig: NotRequired[Signature]


class SeatMessageJSON(TypedDict):
    """cribbage/CLUB/seats/BOARD (retained), from the scoreboard: the board's seat in the latest round; no
    players when the board sits the round out."""

    v: Version
    round: Annotated[int, Keywords(minimum=0, maximum=MAX_ROUND)]
    table: Annotated[int, Keywords(minimum=0, maximum=MAX_ROUND)]
    players: Annotated[list[Name], Keywords(maxItems=2, uniqueItems=True)]  # two, or none


# --- the scoreboard's pages -----------------------------------------------------------------------------------

Stage = Literal["qualifying", "playoffs"]
Why = Literal["stranger", "late", "disagreement", "unfollowed"]  # why a game waits for the director


class SeatJSON(TypedDict):
    """A table of a round: its number (from 1), its board and its two players."""

    table: int
    board: str
    players: list[str]


class MiniBoardJSON(TypedDict):
    """The builtin board that draws a table, and its lit holes: LED (as a string, JSON's keys) -> colour."""

    layout: str
    lit: dict[str, str]


class TableJSON(TypedDict):
    """A board as the scoreboard last heard of it (`/api/tables`); its game under `state`, none before its
    first state arrives."""

    board: str
    log: str
    seq: int
    online: bool | None
    state: StateJSON | None
    seat: NotRequired[SeatJSON]  # its seat now: the latest round's, or the playoffs' once drawn
    wrong_players: NotRequired[bool]  # its game is not between the players seated there
    uncounted: NotRequired[Literal["unfollowed", "waiting"]]  # why its finished game does not count (yet)
    mini: NotRequired[MiniBoardJSON | None]  # on the page's snapshot: its board's drawing


class StandingJSON(TypedDict):
    player: str
    points: int  # game points (ACC) or match points, as the night scores
    wins: int
    games: int
    spread: int
    skunks: int
    rank: int
    skunked: int
    match_points: int
    byes: int


class CardLineJSON(TypedDict):
    """A line of a player's scorecard: one game (or a bye) with the running totals."""

    round: int | None
    board: str
    opponent: str | None  # null: a bye
    won: bool
    score: int
    against: int
    points: int
    spread: int
    total: int
    total_spread: int


class ScorecardJSON(TypedDict):
    player: str
    lines: list[CardLineJSON]


class MatchJSON(TypedDict):
    """A playoff match: its two seeds and players (null: a bye, or not known yet) and the games each won."""

    seeds: list[int | None]
    players: list[str | None]
    wins: list[int]
    winner: str | None
    board: str


class LineTieJSON(TypedDict):
    """Players tied across the qualifying line: how many of them go through, at which rank; once the playoffs
    are drawn, the order the night's rule parted them in, and how."""

    players: list[str]
    places: int
    rank: int
    order: NotRequired[list[str]]
    by: NotRequired[list[Literal["head-to-head", "lot"]]]
    rule: NotRequired[str]


class BracketJSON(TypedDict):
    best_of: int
    seeds: list[str]
    rounds: list[list[MatchJSON]]
    tie: LineTieJSON | None


class PairingsJSON(TypedDict):
    """The seats now: the round's number, when it was drawn, and its tables and byes."""

    round: int
    drawn: float
    stage: Stage
    tables: list[SeatJSON]
    byes: list[str]


class ScoringJSON(TypedDict):
    name: str
    skunks_before_spread: bool


class BrokerJSON(TypedDict):
    """What the scoreboard knows of its broker: whether it lets anyone in (None: not asked yet), and whether
    the scoreboard takes only signed boards."""

    anonymous: bool | None
    signed: bool


class NightJSON(TypedDict):
    """The scoreboard page's snapshot (its WebSocket): the tables, the standings, the round, the bracket."""

    tables: list[TableJSON]
    standings: list[StandingJSON]
    pairings: PairingsJSON | None
    scoring: ScoringJSON
    bracket: BracketJSON | None
    broker: BrokerJSON
    waiting: int  # the games waiting for the director


class HandCardJSON(TypedDict):
    """A player's card of a game played without a board."""

    player: str
    opponent: str
    score: int
    against: int


class DetailJSON(TypedDict, total=False):
    """Why a game waits: a result that does not follow the rules (referee.py's Problem: `code` and its facts),
    the players seated at its board, or the two cards of a game played by hand."""

    code: Literal["missing", "refused", "not_over", "differs"]
    have: int
    need: int
    seq: int
    scores: list[int]
    what: str
    claimed: object  # what the board said of `what`, and what its inputs give: any of the state's values
    replayed: object
    claim: StateJSON  # the board's finished state, judged again as its inputs arrive (never shown)
    seated: list[str]
    round: int | None
    cards: list[HandCardJSON]
    was: str | None
    chosen: str


class WaitingJSON(TypedDict):
    """A game the director must decide."""

    id: str  # BOARD/LOG/GAME
    reason: Why
    board: str
    round: int | None
    stage: Stage
    sides: list[list[str]]
    names: list[str]
    scores: list[int]
    winner: int
    detail: DetailJSON
    approvable: bool


class NightRulesJSON(TypedDict):
    """The rules kept with the night (None: not set)."""

    scoring: str | None
    skunks_before_spread: bool | None
    movement: str | None
    move: int | None
    best_of: int | None
    tie_break: str


class DirectorJSON(TypedDict):
    """The director's page: every game waiting, the tie at the qualifying line, the rounds and the rules."""

    waiting: list[WaitingJSON]
    tie: LineTieJSON | None
    drawn: bool
    rounds: list[int]
    rules: NightRulesJSON
    field: list[str]
    broker: BrokerJSON


class EntryJSON(TypedDict):
    """What a card entered by hand did (its status, round and card, and the opponent's card when they differ),
    and its words in the reader's language."""

    status: Literal["first", "counts", "late", "disagreement"]
    round: int
    card: HandCardJSON
    theirs: HandCardJSON | None
    message: str


class FiguresJSON(TypedDict):
    """What the scoreboard measured this run (`/api/figures`, `crib bench --only club`)."""

    events: int
    delay_ms_median: float | None
    delay_ms_p99: float | None
    games: int
    standings_updates: int
    standings_ms_median: float | None
    standings_ms_p99: float | None
    max_rss_mb: float
