"""The person's side of a game against the computer, for every view of it (the page's snapshot, the terminal
game): their cards and choices, the show waiting for their OK, and the prompt that speaks to them.

The computer players' cards stay hidden until the show: only how many they hold, and their hands once counted.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.cribbage.game import GameState, legal_moves
from companion.i18n import _
from companion.words.projection import card_json

if TYPE_CHECKING:
    from companion.table import Table

    from .computer import ComputerGame


def person_json(computer: ComputerGame | None, state: GameState) -> dict[str, Any] | None:
    """The person's own cards and choices in a game against the computer."""
    if computer is None or computer.settings is None:
        return None
    settings = computer.settings
    person = settings.person
    dealt = state.hands.get(person, ())
    discard = state.discards.get(person)
    held = state.held(person) if discard is not None else None
    my_turn = state.phase == "play" and state.turn == person
    legal = legal_moves(state)  # the engine's answer: the cards that fit, and whether go is allowed
    return {
        "person": person, "computers": list(settings.computers), "levels": list(settings.levels),
        "settings": settings.to_json(),
        "dealt": [card_json(c) for c in dealt] if discard is None and state.phase == "deal" else [],
        "discard_size": state.discard_size,
        "discarded": [card_json(c) for c in discard or ()],
        "held": [card_json(c) for c in held or ()],
        "playable": [str(c) for c in legal.plays or ()] if my_turn else [],
        "can_go": my_turn and legal.go,
        "must_claim": state.phase == "claim" and state.counts[0][1] == person,
        "feedback": computer.feedback, "said": computer.said,
        "crib_in": sum(len(cards) for cards in state.discards.values()),  # face down until the show
        "show": show_json(computer, state),
    }


def show_json(computer: ComputerGame, state: GameState) -> dict[str, Any] | None:
    """The show on screen: the deal (its cards and counts are that deal's `show` in the state's `deals`), whether
    the deck waits for the person's OK, and whether the game is over (then the show stays, with Play again)."""
    waiting = computer.showing(state)
    if waiting is not None:
        return {"deal": waiting, "waiting": True, "over": False}
    if state.winner is not None and state.deals:
        return {"deal": state.deal_number, "waiting": False, "over": True}
    return None


def person_prompt(table: Table, computer: ComputerGame | None) -> str:
    """The table's prompt (which speaks to the person of a game against the computer), or, while the deck waits
    for the person to see the show, that."""
    if computer is not None and computer.settings is not None and computer.showing(table.state) is not None:
        return _("The show: Continue (OK) deals the next hand")
    return table.prompt()
