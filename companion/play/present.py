"""The person's side of a game against the computer, for every view of it (the page's snapshot, the terminal
game): their cards and choices, the show waiting for their OK, and the prompt that speaks to them.

The computer players' cards stay hidden until the show: only how many they hold, and their hands once counted.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from typing_extensions import TypedDict

from companion.cribbage.facts import Phase, ScoreKind
from companion.cribbage.game import GameState, legal_moves
from companion.i18n import Language, current
from companion.words.contract import CardJSON, EventJSON, ShownJSON, SideJSON, StateJSON
from companion.words.projection import card_json

if TYPE_CHECKING:
    from companion.table import Table

    from .computer import ComputerGame


class YouJSON(TypedDict):
    """The person's side of a game against the computer (the page's `you`)."""

    person: str
    computers: list[str]
    levels: list[str]
    settings: dict[str, object]
    dealt: list[CardJSON]  # the six (or five) cards dealt, until laid away
    discard_size: int
    discarded: list[CardJSON]
    held: list[CardJSON]
    playable: list[str]  # the cards that fit now, as typed ("5H")
    can_go: bool
    must_claim: bool
    feedback: str
    said: str
    crib_in: int  # cards in the crib, face down until the show
    show: ShowJSON | None


def person_json(computer: ComputerGame | None, state: GameState, projected: StateJSON) -> YouJSON | None:
    """The person's own cards and choices in a game against the computer (`projected`: the state's projection,
    which the show is laid out from)."""
    if computer is None or computer.settings is None:
        return None
    settings = computer.settings
    person = settings.person
    dealt = state.hands.get(person, ())
    discard = state.discards.get(person)
    held = state.held(person) if discard is not None else None
    my_turn = state.phase is Phase.PLAY and state.turn == person
    legal = legal_moves(state)  # the engine's answer: the cards that fit, and whether go is allowed
    lang = current()  # the page's language: the snapshot is made once for each language a page speaks
    return {
        "person": person, "computers": list(settings.computers), "levels": list(settings.levels),
        "settings": settings.to_json(),
        "dealt": [card_json(c) for c in dealt] if discard is None and state.phase is Phase.DEAL else [],
        "discard_size": state.discard_size,
        "discarded": [card_json(c) for c in discard or ()],
        "held": [card_json(c) for c in held or ()],
        "playable": [str(c) for c in legal.plays or ()] if my_turn else [],
        "can_go": my_turn and legal.go,
        "must_claim": state.phase is Phase.CLAIM and state.counts[0][1] == person,
        "feedback": computer.feedback(lang), "said": computer.said(lang),
        "crib_in": sum(len(cards) for cards in state.discards.values()),  # face down until the show
        "show": show.to_json() if (show := person_show(computer, state, projected)) is not None else None,
    }


def person_prompt(table: Table, computer: ComputerGame | None, lang: Language) -> str:
    """The table's prompt in `lang` (which speaks to the person of a game against the computer), or, while the
    deck waits for the person to see the show, that."""
    if computer is not None and computer.settings is not None and computer.showing(table.state) is not None:
        return lang.gettext("The show: Continue (OK) deals the next hand")
    return table.prompt(lang)


# --- the show --------------------------------------------------------------------------------------------------

ShowNote = Literal["not_counted", "needed", "pegged"]
"""Why a hand's points pegged are not its count: the game ended before it was counted, the winning hand needed
fewer, or a claim pegged other points."""
ShowNext = Literal["ok", "new", "again"]
"""What goes on after the show: OK deals the next hand, new starts the match's next game, again plays again."""


class ShownHandJSON(TypedDict):
    """A hand or the crib of the show: the deal's record of it (cards, count as said) and why its pegged points
    differ from its count, if they do."""

    counted: ShownJSON
    note: ShowNote | None


class ShowJSON(TypedDict):
    """The show as the page receives it (`you.show`)."""

    deal: int
    waiting: bool
    over: bool
    starter: CardJSON | None
    dealer: str | None
    hands: list[ShownHandJSON]
    last: list[EventJSON]
    sides: list[SideJSON]
    target: int
    next: ShowNext


@dataclass(frozen=True, slots=True)
class ShownHand:
    counted: ShownJSON  # cards, count, each phrase as said, points pegged
    note: ShowNote | None

    @property
    def pegged(self) -> int | None:
        return self.counted["points"]


@dataclass(frozen=True, slots=True)
class Show:
    """The show of one deal as every view lays it out: the starter and the dealer, each hand in counting order
    (pone first, the crib last) with its cards and its count phrase by phrase, the last card, the scores, and
    what goes on after it. `waiting`: the deck waits for the person's OK; `over`: the game ended with it."""

    deal: int
    waiting: bool
    over: bool
    starter: CardJSON | None  # None when the game was won by pegs before the starter
    dealer: str | None
    hands: tuple[ShownHand, ...]
    last: tuple[EventJSON, ...]  # the last card's score of the deal
    sides: tuple[SideJSON, ...]
    target: int
    next: ShowNext

    def to_json(self) -> ShowJSON:
        return {"deal": self.deal, "waiting": self.waiting, "over": self.over, "starter": self.starter,
                "dealer": self.dealer, "hands": [{"counted": h.counted, "note": h.note} for h in self.hands],
                "last": list(self.last), "sides": list(self.sides), "target": self.target, "next": self.next}


def shown_deal(computer: ComputerGame, state: GameState) -> tuple[int, bool] | None:
    """The deal on show and whether the deck waits for the person's OK (at the game's end the show stays, not
    waiting), or None."""
    waiting = computer.showing(state)
    if waiting is not None:
        return waiting, True
    if state.winner is not None and state.deals:
        return state.deal_number, False
    return None


def show_view(state: StateJSON, deal: int, *, waiting: bool) -> Show:
    """The show of `deal` laid out from the game's projection (its words in the projection's language)."""
    record = state["deals"][deal - 1]
    over = not waiting
    last_event = len(state["events"]) - 1

    def note(item: ShownJSON) -> ShowNote | None:
        if item["points"] is None:
            return "not_counted"
        if item["points"] == item["total"]:
            return None
        return "needed" if over and item["event"] == last_event else "pegged"

    in_match = state["phase"] == Phase.GAME_OVER and bool(state["rules"]["match_target"]) \
        and state["match_winner"] is None
    return Show(
        deal=deal, waiting=waiting, over=over, starter=record["starter"], dealer=record["dealer"],
        hands=tuple(ShownHand(item, note(item)) for item in record["show"]),
        last=tuple(e for e in state["events"] if e["deal"] == deal and e["kind"] == ScoreKind.LAST_CARD),
        sides=tuple(state["sides"]), target=state["rules"]["target"],
        next="ok" if waiting else "new" if in_match else "again")


def person_show(computer: ComputerGame, state: GameState, projected: StateJSON) -> Show | None:
    """The show the person sees now in a game against the computer, or None."""
    shown = shown_deal(computer, state)
    return show_view(projected, shown[0], waiting=shown[1]) if shown is not None else None
