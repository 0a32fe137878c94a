"""The table inputs of RULES.md as frozen dataclasses, with a parse/render pair for their JSON Lines form.

One JSON object per line is both a game's on-disk log and the format of `crib replay`. Unknown types and
unknown fields are errors; every error names the field and shows an example of a good line.

Matches: `"match"` is the match points that win the match (a whole number, or `true` for the usual 7), and
`"match_scoring"` says what a game is worth (MATCH_SCORING): `"standard"` (the default, the seed description:
a win 1, a skunk 2, a double skunk 4) or `"acc"` (American Cribbage Congress tournaments: a win 2, a skunk 3;
the ACC does not recognise double skunks, so one scores 3 like a skunk).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, get_args

from .cards import Card
from .errors import CardSyntaxError, InputError
from .refusals import Refusal, Why
from .rules import MATCH_SCORING, VARIANTS, MatchScoringName, VariantName

InputKind = Literal["game", "cut", "hand", "discard", "starter", "play", "go", "crib", "claim", "muggins", "peg",
                    "undo"]


PARTNERS = " & "  # a peg input names partners so: "Ann & Cat"


@dataclass(frozen=True, slots=True)
class GameInput:
    """A new game (or the next game of a match). Without a dealer, cut inputs decide who deals first."""

    players: tuple[str, ...]
    dealer: str | None = None
    target: int | None = None  # 121, or 61 for five-card cribbage
    variant: VariantName | None = None  # from the number of players when absent
    muggins: bool = False
    match: int | bool | None = None  # match points to win the match (True: DEFAULT_MATCH); None for a single game
    match_scoring: MatchScoringName | None = None  # "standard" when absent


@dataclass(frozen=True, slots=True)
class CutInput:
    player: str
    card: Card


@dataclass(frozen=True, slots=True)
class HandInput:
    player: str
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class DiscardInput:
    player: str
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class StarterInput:
    card: Card


@dataclass(frozen=True, slots=True)
class PlayInput:
    card: Card
    player: str | None = None  # checked against whose turn it is when given
    claim: int | None = None  # muggins games: the points the player claims for the card (none: pegged as counted)


@dataclass(frozen=True, slots=True)
class GoInput:
    player: str | None = None  # checked against whose turn it is when given


@dataclass(frozen=True, slots=True)
class CribInput:
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class ClaimInput:
    points: int


@dataclass(frozen=True, slots=True)
class MugginsInput:
    player: str | None = None  # who calls it; by default the claimant's opponent on his left


@dataclass(frozen=True, slots=True)
class PegInput:
    player: str  # a player, or a partnership's side name ("Ann & Cat")
    points: int


@dataclass(frozen=True, slots=True)
class UndoInput:
    pass


Input = (
    GameInput | CutInput | HandInput | DiscardInput | StarterInput | PlayInput | GoInput | CribInput | ClaimInput
    | MugginsInput | PegInput | UndoInput
)

INPUT_TYPES: dict[InputKind, type[Any]] = {
    "game": GameInput, "cut": CutInput, "hand": HandInput, "discard": DiscardInput, "starter": StarterInput,
    "play": PlayInput, "go": GoInput, "crib": CribInput, "claim": ClaimInput, "muggins": MugginsInput,
    "peg": PegInput, "undo": UndoInput,
}
_TYPE_NAMES = {cls: name for name, cls in INPUT_TYPES.items()}
assert set(INPUT_TYPES) == set(get_args(InputKind))

EXAMPLES: dict[InputKind, str] = {
    "game": '{"type":"game","players":["Ann","Bob"],"dealer":"Ann","target":121}',
    "cut": '{"type":"cut","player":"Ann","card":"4H"}',
    "hand": '{"type":"hand","player":"Bob","cards":["5H","5D","JS","4C","9D","KH"]}',
    "discard": '{"type":"discard","player":"Bob","cards":["9D","KH"]}',
    "starter": '{"type":"starter","card":"JS"}',
    "play": '{"type":"play","card":"5H"}',
    "go": '{"type":"go"}',
    "crib": '{"type":"crib","cards":["9D","KH","2C","3S"]}',
    "claim": '{"type":"claim","points":7}',
    "muggins": '{"type":"muggins"}',
    "peg": '{"type":"peg","player":"Ann","points":5}',
    "undo": '{"type":"undo"}',
}

# What each field holds: "name", "names", "card", "cards", "int", "bool", "variant", "match", "match_scoring".
FIELD_KINDS: dict[str, str] = {
    "players": "names", "dealer": "name", "player": "name", "target": "int", "variant": "variant",
    "muggins": "bool", "match": "match", "match_scoring": "match_scoring", "card": "card", "cards": "cards",
    "points": "int", "claim": "int",
}


def parse_input(obj: str | Mapping[str, object]) -> Input:
    """One table input from a JSON line or an already decoded object."""
    if isinstance(obj, str):
        try:
            obj = json.loads(obj)
        except json.JSONDecodeError as error:
            raise InputError(Refusal(Why.NOT_JSON, text=error.msg)) from None
    if not isinstance(obj, Mapping):
        raise InputError(Refusal(Why.NOT_AN_OBJECT))
    kind = _input_kind(obj.get("type"))
    cls = INPUT_TYPES[kind]
    fields = {f.name: f for f in dataclasses.fields(cls)}
    values: dict[str, object] = {}
    for name, raw in obj.items():
        if name == "type":
            continue
        if name not in fields:
            raise InputError(Refusal(Why.UNKNOWN_FIELD, input=kind, field=name, names=tuple(fields)))
        # null stands for a field left out where that means None (no dealer, no player named)
        values[name] = None if raw is None and fields[name].default is None else _field_value(kind, name, raw)
    missing = [f.name for f in fields.values()
               if f.default is dataclasses.MISSING and f.name not in values]
    if missing:
        raise InputError(Refusal(Why.MISSING_FIELD, input=kind, field=missing[0]))
    result: Input = cls(**values)
    return result


def _input_kind(kind: object) -> InputKind:
    for known in INPUT_TYPES:
        if kind == known:
            return known
    raise InputError(Refusal(Why.UNKNOWN_TYPE, text=repr(kind), names=tuple(INPUT_TYPES)))


def _field_value(kind: InputKind, name: str, raw: object) -> object:
    field_kind = FIELD_KINDS[name]

    def wrong() -> InputError:
        return InputError(Refusal(Why.BAD_VALUE, input=kind, field=name, text=json.dumps(raw)))

    try:
        if field_kind == "name":
            if not isinstance(raw, str) or not raw.strip():
                raise wrong()
            return raw.strip()
        if field_kind == "names":
            if not isinstance(raw, list) or not all(isinstance(n, str) and n.strip() for n in raw):
                raise wrong()
            return tuple(n.strip() for n in raw)
        if field_kind == "int":
            if not isinstance(raw, int) or isinstance(raw, bool):
                raise wrong()
            return raw
        if field_kind == "bool":
            if not isinstance(raw, bool):
                raise wrong()
            return raw
        if field_kind == "variant":
            if not isinstance(raw, str) or raw not in VARIANTS:
                raise wrong()
            return raw
        if field_kind == "match":
            if raw is not True and (not isinstance(raw, int) or isinstance(raw, bool)):
                raise wrong()
            return raw
        if field_kind == "match_scoring":
            if not isinstance(raw, str) or raw not in MATCH_SCORING:
                raise wrong()
            return raw
        if field_kind == "card":
            if not isinstance(raw, str):
                raise wrong()
            return Card.parse(raw)
        if not isinstance(raw, list) or not all(isinstance(c, str) for c in raw):
            raise wrong()
        return tuple(Card.parse(c) for c in raw)
    except CardSyntaxError as error:
        assert isinstance(error.refusal, Refusal)  # the engine's own
        raise InputError(Refusal(Why.BAD_FIELD, input=kind, field=name, cause=error.refusal)) from None


def input_to_json(inp: Input) -> dict[str, object]:
    """The JSON object of an input (fields left at their defaults are omitted); parse_input reads it back."""
    out: dict[str, object] = {"type": _TYPE_NAMES[type(inp)]}
    for f in dataclasses.fields(inp):
        value = getattr(inp, f.name)
        if f.default is not dataclasses.MISSING and value == f.default:
            continue
        if isinstance(value, Card):
            out[f.name] = str(value)
        elif isinstance(value, tuple):
            out[f.name] = [str(v) for v in value]
        else:
            out[f.name] = value
    return out


def input_to_line(inp: Input) -> str:
    """One line of a transcript, compact, non-ASCII names kept readable."""
    return json.dumps(input_to_json(inp), ensure_ascii=False, separators=(",", ":"))


def read_transcript(lines: Iterable[str]) -> list[Input]:
    """The inputs of a JSON Lines transcript; blank lines are skipped and errors name the line number."""
    inputs = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            inputs.append(parse_input(line))
        except InputError as error:
            assert isinstance(error.refusal, Refusal)  # the engine's own
            raise InputError(Refusal(Why.BAD_LINE, count=number, cause=error.refusal)) from None
    return inputs
