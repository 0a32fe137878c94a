"""The JSON contract every client reads: the shapes of the game's one projection (projection.state_json) and of
the payloads that carry it, as TypedDicts. The projection and the endpoints are typed with them, and the JSON
Schemas in docs/schema/ are generated from them (`python3 dev.py schema`), so the prose, the emitter and the
validators cannot drift apart. Every payload nests the game the same way: under one key, `state`.

Values that name a side are its index in `sides`; codes are the engine's enums (`ScoreKind`, `Phase`, `Wanted`,
`NoteKind`: StrEnums, written as their values); `prompt`, `name`, `said`, `notes` and `lines` are words for people
in the language the projection was asked for, never meant to be parsed. The TypedDicts are typing_extensions' (as
pydantic reads them on Python 3.11)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, NotRequired, Required

from typing_extensions import TypedDict

from companion.cribbage.facts import NoteKind, Phase, Place, ScoreKind, Wanted
from companion.cribbage.refusals import Act, Why
from companion.cribbage.transcript import InputKind

from .messages import Say

if TYPE_CHECKING:
    from pydantic import GetJsonSchemaHandler
    from pydantic.json_schema import JsonSchemaValue
    from pydantic_core import CoreSchema

@dataclass(frozen=True, slots=True)
class Keywords:
    """JSON Schema keywords a value's schema adds (`Annotated[int, Keywords(minimum=0)]`): bounds and patterns
    the TypedDict cannot say. schemagen's pydantic reads them through its hook; nothing else does."""

    keywords: Mapping[str, object]

    def __init__(self, **keywords: object) -> None:
        object.__setattr__(self, "keywords", keywords)

    def __get_pydantic_json_schema__(self, core: CoreSchema, handler: GetJsonSchemaHandler) -> JsonSchemaValue:
        return {**handler(core), **self.keywords}


SkunkName = Literal["skunk", "double skunk"]
SuitLetter = Literal["C", "D", "H", "S"]


class InputJSON(TypedDict):
    """A table input in the game log's form (RULES.md, cribbage/transcript.py): `{"type":"play","card":"5H"}`.
    Which fields each type takes, and their values, the engine checks (`parse_input`); null stands for a field
    left out."""

    type: InputKind
    players: NotRequired[list[str]]
    dealer: NotRequired[str | None]
    target: NotRequired[int | None]
    variant: NotRequired[str | None]
    muggins: NotRequired[bool]
    match: NotRequired[int | bool | None]
    match_scoring: NotRequired[str | None]
    player: NotRequired[str | None]
    card: NotRequired[str]
    cards: NotRequired[list[str]]
    points: NotRequired[int]
    claim: NotRequired[int | None]


class SeenJSON(TypedDict):
    """A card already seen this deal, and where (facts.Seen)."""

    card: str
    place: Place
    player: str | None


class RefusalJSON(TypedDict, total=False):
    """An input refused (cribbage/refusals.py `Refusal.to_json`): its code and the facts that code names (`Why`
    lists them), cards as codes, the prompt by what it waits for. Never words: a client says it."""

    why: Required[Why]
    card: str
    cards: list[str]
    player: str
    other: str
    players: list[str]
    count: int
    total: int
    points: int
    size: int
    prompt: Wanted
    seen: SeenJSON
    act: Act
    counting: ScoreKind
    side: list[str]  # the side's players
    text: str
    input: InputKind
    field: str
    names: list[str]
    cause: RefusalJSON  # the refusal inside (a field's card, a transcript's line)


class CardJSON(TypedDict):
    code: str  # as a player types it: "10H", "QS"
    pretty: str  # with the suit's symbol: "10♥"
    suit: SuitLetter


class AwaitedJSON(TypedDict):
    """What the table waits for and from whom (facts.Prompt)."""

    wanted: Wanted
    players: list[str]
    count: int | None
    dealer: str | None
    counting: ScoreKind | None  # a claim's count: the hand or the crib
    again: bool
    winner: int | None
    won: int
    others: list[int]
    skunk: SkunkName | None


class TakenJSON(TypedDict):
    """An input an undo took back, and who had made it."""

    input: InputJSON
    player: str | None


class MessageJSON(TypedDict, total=False):
    """A message of the table (words/messages.py `Message`): its kind and the facts that kind names (`Say` lists
    them), cards as codes. Never words: the snapshot's `message` beside it holds them, in the page's language."""

    kind: Required[Say]
    card: str
    asked: str
    player: str
    other: str
    players: list[str]
    count: int
    total: int
    prompt: AwaitedJSON
    then: MessageJSON  # the message inside: the table's prompt, the cards' progress, a key's problem
    refusal: RefusalJSON
    seen: SeenJSON
    taken: list[TakenJSON]
    keys: list[str]
    names: list[str]
    voice: bool
    text: str
    note: str


class SideJSON(TypedDict):
    players: list[str]
    name: str
    score: int
    back_peg: int
    match_points: int


class RulesJSON(TypedDict):
    variant: Literal["two", "three", "four", "five-card"]
    players: int
    target: int
    muggins: bool
    match_target: int | None
    match_scoring: Literal["standard", "acc"]
    skunk_lines: list[int]
    dealt: int
    laid_away: int
    kept: int


class ItemJSON(TypedDict):
    """One item of a count: "fifteen" with its cards for 2."""

    kind: str
    cards: list[str]
    points: int


class NoteJSON(TypedDict):
    """A typed fact about a score that its points alone do not say (facts.Note)."""

    kind: NoteKind
    player: str | None
    points: int
    claimed: int | None
    over: bool
    caller: str | None
    counting: ScoreKind | None
    wanted: int | None
    side: list[str] | None
    target: int | None


class EventJSON(TypedDict):
    """A score pegged (facts.ScoreEvent)."""

    kind: ScoreKind
    side: int | None
    player: str | None
    points: int
    deal: int
    claimed: int | None
    noted: list[NoteJSON]
    notes: list[str]
    name: str
    said: str
    items: list[ItemJSON]
    lines: list[str]
    total: int


class ShownJSON(TypedDict):
    """A hand or the crib in the show, in counting order."""

    kind: Literal["hand", "crib"]
    player: str
    name: str
    cards: list[CardJSON]
    total: int
    points: int | None  # what was pegged for it (less at the target); None when the game ended first
    event: int | None  # the index of its score event
    said: list[str]
    lines: list[str]


class DealJSON(TypedDict):
    deal: int
    dealer: str | None
    starter: CardJSON | None
    hands: dict[str, list[CardJSON]]
    discards: dict[str, list[CardJSON]]
    show: list[ShownJSON]
    pegging: dict[str, int]


class PlayedJSON(TypedDict):
    player: str
    card: CardJSON


class StateJSON(TypedDict):
    """The game as every watcher may see it: `crib replay --json` and `crib state --json` print it, the page, the
    club and the statistics carry it under `state`."""

    schema: int
    players: list[str]
    sides: list[SideJSON]
    rules: RulesJSON
    phase: Phase
    awaited: AwaitedJSON
    prompt: str
    dealer: str | None
    turn: str | None
    count: int
    show_order: list[str]
    pile: list[CardJSON]
    played: list[PlayedJSON]
    starter: CardJSON | None
    crib: list[CardJSON] | None
    hands_shown: dict[str, list[CardJSON]]
    cards_left: dict[str, int]
    winner: int | None
    skunk: SkunkName | None
    match_winner: int | None
    game: int
    deal: int
    inputs: int
    deals: list[DealJSON]
    events: list[EventJSON]


class DeviceProblemJSON(TypedDict):
    """A device's problem (words/devices.py `DeviceProblem.to_json`): its code, its facts, the problem inside it."""

    kind: str
    facts: dict[str, str | int | list[str]]
    cause: NotRequired[DeviceProblemJSON]


class BoardStateJSON(TypedDict):
    """`crib state --json`: the board's current game, where its log is, and its devices when it runs."""

    log: str
    state: StateJSON
    devices: NotRequired[dict[str, DeviceProblemJSON | None]]  # what each device lacks (its code), null: there


class GameJSON(TypedDict):
    """`/api/games/LOG/N`: one game of the board's history, at its end, with its score race."""

    log: str
    game: int  # the game's number in its log
    state: StateJSON
    race: list[list[int]]  # each side's score (in the order of `sides`) at the start and after each deal
    name: NotRequired[str]  # the game's name for people: day and minute, players, final scores, skunk
    played: NotRequired[str]  # the day it was played (ISO 8601)
    time: NotRequired[str]  # and the minute
    levels: NotRequired[dict[str, str]]  # the computer players' levels, by name


# --- the statistics: `crib stats --json` and the statistics page (/api/stats) -----------------------------------

class PlayerStatsJSON(TypedDict):
    """A player's figures over the games chosen (averages are None where nothing was counted)."""

    player: str
    games: int  # finished games
    wins: int
    skunks_given: int
    skunks_taken: int
    match_points: int
    deals: int
    pegging: float | None
    hands: int
    hand: float | None
    cribs: int
    crib: float | None
    best_hand: int | None
    coached: int
    discard_loss: float | None


class StatsGameJSON(TypedDict):
    """A game as `crib stats` lists it: its sides as the projection's (`sides`, each with its final score), the
    winner by its index in them."""

    number: int  # from 1 over every log in order (`crib stats --game N`)
    log: str
    game: int  # its number in its log
    sides: list[SideJSON]
    winner: int | None
    skunk: SkunkName | None
    finished: bool
    played: str  # the day (ISO 8601), "" when not known
    time: str  # and the minute
    levels: dict[str, str]  # the computer players' levels, by name
    name: str  # the game for people: day and minute, players, final scores, how it ended


class RaceJSON(TypedDict):
    """The latest game: each side's score at the start and after each deal (`race`, in the order of `sides`)."""

    log: str
    game: int
    target: int
    sides: list[SideJSON]
    winner: int | None
    skunk: SkunkName | None
    name: str
    finished: bool
    race: list[list[int]]


class StatsJSON(TypedDict):
    """`crib stats --json`: the chosen games' figures per player, the latest game's race, the games listed."""

    logs: int
    games: int  # finished games
    unfinished: int
    players: dict[str, PlayerStatsJSON]  # by player
    latest: RaceJSON | None
    problems: list[str]  # logs left out or repaired while reading
    chosen: list[StatsGameJSON]
    hand_counts: dict[str, list[int]]  # per player: hands counted with 0 to 29 points


class OverviewGameJSON(TypedDict):
    """A game on the statistics page, with its race and skunk lines to draw it."""

    log: str
    game: int
    sides: list[SideJSON]
    target: int
    skunk_lines: list[int]
    finished: bool
    winner: int | None
    skunk: SkunkName | None
    race: list[list[int]]
    name: NotRequired[str]
    played: NotRequired[str]
    time: NotRequired[str]
    levels: NotRequired[dict[str, str]]


class BestHandJSON(TypedDict):
    player: str
    hand: int
    log: str
    game: int
    deal: int
    name: str


class DrawnCardJSON(TypedDict):
    code: str
    suit: SuitLetter


class CostlyDiscardJSON(TypedDict):
    player: str
    loss: float  # points given away against the best discard
    laid: list[DrawnCardJSON]
    best: list[DrawnCardJSON]
    log: str
    game: int
    deal: int


class OverviewJSON(StatsJSON):
    """/api/stats: `crib stats --json` with every game's race, the best hands and the costliest discards."""

    games_list: list[OverviewGameJSON]
    best_hands: list[BestHandJSON]
    costly_discards: list[CostlyDiscardJSON]


class HandScoresJSON(TypedDict):
    """/api/hands: how often a player's hands scored 0 to 29, beside the share of all hands with each score."""

    player: str
    hands: int
    counts: list[int]
    all: list[float]
