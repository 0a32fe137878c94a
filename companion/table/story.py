"""The story of the table: each thing that happened at it, as a typed fact, in the order it happened.

`told(before, input, after)` is what one accepted input told: a card played (by whom, the count it made), a go
(who said it), a score (who, what kind, how many, the running total; 31 and the last card are scores of the play,
his heels a score of the starter), a cut for deal, a deal begun (its dealer), cards laid away, the starter, an
undo (what it took back: one input, or at a virtual table the person's move with the computer's replies). The
table adds what no input says: a refusal (why, as a code) and whose turn it is now.
The OLED, the terminal, the page (as JSON: `story_json`) and the voice each render this one sequence; none of them
works the story out again from the state. Words are made at the edge, never here.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from typing_extensions import TypedDict

from companion.cribbage import transcript as t
from companion.cribbage.cards import Card
from companion.cribbage.facts import Prompt, ScoreEvent, ScoreKind, Side
from companion.cribbage.game import GameState
from companion.cribbage.refusals import Refusal
from companion.words.contract import AwaitedJSON, CardJSON, InputJSON, ItemJSON, RefusalJSON
from companion.words.projection import card_json, input_json, item_json, prompt_json, refusal_json

KEPT = 60  # facts the page can catch up on (a computer's moves may come between two of its snapshots)


@dataclass(frozen=True, slots=True)
class GameStarted:
    players: tuple[str, ...]
    game: int  # the game's number in its match, from 1


@dataclass(frozen=True, slots=True)
class CutForDeal:
    player: str
    card: Card


@dataclass(frozen=True, slots=True)
class DealBegun:
    deal: int
    dealer: str


@dataclass(frozen=True, slots=True)
class LaidAway:
    player: str
    cards: int  # how many (the cards stay face down)


@dataclass(frozen=True, slots=True)
class StarterTurned:
    card: Card
    dealer: str


@dataclass(frozen=True, slots=True)
class Played:
    player: str
    card: Card
    count: int  # the count the card made (31 ends the series)


@dataclass(frozen=True, slots=True)
class Go:
    player: str  # who said go


@dataclass(frozen=True, slots=True)
class Scored:
    event: ScoreEvent  # who, what kind, how many, and the itemised reason
    total: int  # the side's score after it


@dataclass(frozen=True, slots=True)
class TakenBack:
    input: t.Input
    player: str | None  # who had made it


@dataclass(frozen=True, slots=True)
class Undone:
    taken_back: tuple[TakenBack, ...]  # in the order they were made (the person's move, then the replies to it)


@dataclass(frozen=True, slots=True)
class Refused:
    code: str  # what refused it: "rule", "input", "entry" (the engine), "command" (the table), "save", "table"
    refusal: Refusal | None = None  # the engine's reason, a code with its facts (cribbage/refusals.py)
    error: Exception | None = None  # the error raised, when one was


@dataclass(frozen=True, slots=True)
class Turn:
    prompt: Prompt  # what the table waits for now, and from whom


Fact = GameStarted | CutForDeal | DealBegun | LaidAway | StarterTurned | Played | Go | Scored | Undone | Refused | Turn


def told(before: GameState, inp: t.Input, after: GameState) -> tuple[Fact, ...]:
    """What one input the engine accepted told, taking the game from `before` to `after`."""
    if isinstance(inp, t.UndoInput):
        taken = before.inputs[-1]
        waiting = after.awaited().players  # who made it, when the input does not say: the play, go, claim
        return (Undone((TakenBack(taken, getattr(taken, "player", None) or (waiting[0] if waiting else None)),)),)
    facts: list[Fact] = []
    if isinstance(inp, t.GameInput):
        facts.append(GameStarted(after.players, after.game_number))
    elif isinstance(inp, t.CutInput):
        facts.append(CutForDeal(inp.player, inp.card))
    elif isinstance(inp, t.DiscardInput):
        facts.append(LaidAway(inp.player, len(inp.cards)))
    elif isinstance(inp, t.StarterInput) and before.dealer is not None:
        facts.append(StarterTurned(inp.card, before.dealer))
    elif isinstance(inp, t.PlayInput):
        facts.append(Played(inp.player or before.turn or "", inp.card, before.count + inp.card.value))
    elif isinstance(inp, t.GoInput):
        facts.append(Go(inp.player or before.turn or ""))
    same_game = after.game_number == before.game_number and after.events[: len(before.events)] == before.events
    totals: dict[Side, int] = dict(before.scores) if same_game else {}
    for event in after.events[len(before.events):] if same_game else after.events:
        totals[event.side] = totals.get(event.side, 0) + event.points
        facts.append(Scored(event, totals[event.side]))
    if after.dealer is not None and (after.deal_number, after.game_number) != (before.deal_number, before.game_number):
        facts.append(DealBegun(after.deal_number, after.dealer))
    return tuple(facts)


@dataclass(frozen=True, slots=True)
class Story:
    """The latest facts of the table, numbered from 1 (`count` is the number of the newest)."""

    facts: tuple[tuple[int, Fact], ...] = ()
    count: int = 0

    def add(self, facts: tuple[Fact, ...]) -> Story:
        numbered = tuple(enumerate(facts, self.count + 1))
        return replace(self, facts=(*self.facts, *numbered)[-KEPT:], count=self.count + len(facts))

    def since(self, count: int) -> tuple[Fact, ...]:
        """The facts told after fact number `count` (as many as are kept)."""
        return tuple(fact for n, fact in self.facts if n > count)


class GameFactJSON(TypedDict):
    n: int  # the fact's number in the story
    type: Literal["game"]
    players: list[str]
    game: int


class CutFactJSON(TypedDict):
    n: int
    type: Literal["cut"]
    player: str
    card: CardJSON


class DealFactJSON(TypedDict):
    n: int
    type: Literal["deal"]
    deal: int
    dealer: str


class LaidAwayFactJSON(TypedDict):
    n: int
    type: Literal["laid_away"]
    player: str
    cards: int  # how many (they stay face down)


class StarterFactJSON(TypedDict):
    n: int
    type: Literal["starter"]
    card: CardJSON
    dealer: str


class PlayedFactJSON(TypedDict):
    n: int
    type: Literal["played"]
    player: str
    card: CardJSON
    count: int


class GoFactJSON(TypedDict):
    n: int
    type: Literal["go"]
    player: str


class ScoredFactJSON(TypedDict):
    n: int
    type: Literal["scored"]
    kind: ScoreKind
    side: int | None  # its index in the state's `sides`
    player: str | None
    points: int
    total: int  # the side's score after it
    claimed: int | None
    items: list[ItemJSON]


class TakenBackJSON(TypedDict):
    input: InputJSON
    player: str | None


class UndoneFactJSON(TypedDict):
    n: int
    type: Literal["undone"]
    taken_back: list[TakenBackJSON]


class RefusedFactJSON(TypedDict):
    n: int
    type: Literal["refused"]
    code: str  # what refused it: "rule", "input", "entry", "command", "save", "table"
    refusal: RefusalJSON | None  # the engine's code and its facts


class TurnFactJSON(TypedDict):
    n: int
    type: Literal["turn"]
    awaited: AwaitedJSON


FactJSON = (GameFactJSON | CutFactJSON | DealFactJSON | LaidAwayFactJSON | StarterFactJSON | PlayedFactJSON
            | GoFactJSON | ScoredFactJSON | UndoneFactJSON | RefusedFactJSON | TurnFactJSON)


def fact_json(n: int, fact: Fact, sides: tuple[Side, ...]) -> FactJSON:
    """Fact number `n` as JSON: its `type` and its values; players by name, a side by its index in the state's
    `sides`, cards as the projection writes them. No words: a client says it in its own language."""
    if isinstance(fact, GameStarted):
        return {"n": n, "type": "game", "players": list(fact.players), "game": fact.game}
    if isinstance(fact, CutForDeal):
        return {"n": n, "type": "cut", "player": fact.player, "card": card_json(fact.card)}
    if isinstance(fact, DealBegun):
        return {"n": n, "type": "deal", "deal": fact.deal, "dealer": fact.dealer}
    if isinstance(fact, LaidAway):
        return {"n": n, "type": "laid_away", "player": fact.player, "cards": fact.cards}
    if isinstance(fact, StarterTurned):
        return {"n": n, "type": "starter", "card": card_json(fact.card), "dealer": fact.dealer}
    if isinstance(fact, Played):
        return {"n": n, "type": "played", "player": fact.player, "card": card_json(fact.card), "count": fact.count}
    if isinstance(fact, Go):
        return {"n": n, "type": "go", "player": fact.player}
    if isinstance(fact, Scored):
        event = fact.event
        return {"n": n, "type": "scored", "kind": event.kind, "side": sides.index(event.side)
                if event.side in sides else None, "player": event.player, "points": event.points,
                "total": fact.total, "claimed": event.claimed, "items": [item_json(i) for i in event.score.items]}
    if isinstance(fact, Undone):
        return {"n": n, "type": "undone", "taken_back": [{"input": input_json(taken.input), "player": taken.player}
                                                         for taken in fact.taken_back]}
    if isinstance(fact, Refused):
        return {"n": n, "type": "refused", "code": fact.code,
                "refusal": refusal_json(fact.refusal) if fact.refusal is not None else None}
    return {"n": n, "type": "turn", "awaited": prompt_json(fact.prompt, sides)}


class StoryJSON(TypedDict):
    """The latest facts of the story, each with its number `n` and its `type`, and the newest number."""

    count: int
    facts: list[FactJSON]


def story_json(story: Story, sides: tuple[Side, ...]) -> StoryJSON:
    """The story for the page: the latest facts, each with its number `n`, and the newest number."""
    return {"count": story.count, "facts": [fact_json(n, fact, sides) for n, fact in story.facts]}
