"""The sample deal many tests play (tests/golden/deal.txt): Ann deals to Bob, the starter, every card of the play
and the crib, as the table's entries (`DEAL`) and as the engine's inputs up to a given entry (`deal`)."""

from __future__ import annotations

from companion.cribbage.cards import parse_cards
from companion.cribbage.transcript import CribInput, GameInput, GoInput, Input, PlayInput, StarterInput
from tests.golden import GOLDEN

GAME = GameInput(("Ann", "Bob"), dealer="Ann", target=121)
DEAL = [line for line in (GOLDEN / "deal.txt").read_text().splitlines() if line and not line.startswith("#")]


def deal(upto: str) -> list[Input]:
    """The inputs of the sample deal up to and including the entry `upto` (all of them for an entry it lacks)."""
    starter, plays, crib = DEAL[0], DEAL[1:-4], DEAL[-4:]
    inputs: list[Input] = [GAME, StarterInput(parse_cards(starter)[0])]
    for text in plays:
        inputs.append(GoInput() if text == "go" else PlayInput(parse_cards(text)[0]))
        if text == upto:
            return inputs
    inputs.append(CribInput(parse_cards(crib)))
    return inputs
