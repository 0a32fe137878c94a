"""A whole game as a person enters it at the table, generated from a seed.

`game_script(seed)` deals and plays a legal two-player game to 121 with the random table of
tests/cribbage/dealer.py, then writes each input the way a player would enter it: some cards scanned (deck
payloads, C5H), some typed (5h, 10D), some pressed on the keypad (key:53, key:*24), go and undo as words,
barcodes or keys, and now and then an undo followed by the same entry again. The crib's four cards are four
entries. The entries are exactly the lines `crib sim --script` reads.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from companion.cribbage.cards import Card
from companion.cribbage.game import GameState
from companion.cribbage.transcript import CribInput, GameInput, GoInput, Input, PlayInput, StarterInput
from tests.cribbage.dealer import play_game

SUIT_KEYS = {"C": "1", "D": "2", "H": "3", "S": "4"}
FACE_KEYS = {11: "*1", 12: "*2", 13: "*3"}
GO = ("go", "XG", "key:A")
UNDO = ("undo", "XU", "key:B")


@dataclass(frozen=True)
class GameScript:
    setup: GameInput
    inputs: list[Input]  # the generated transcript
    final: GameState  # its replay
    entries: list[str]


def keys_for(card: Card) -> str:
    rank = FACE_KEYS.get(card.rank) or ("0" if card.rank == 10 else str(card.rank))
    return "key:" + rank + SUIT_KEYS[card.suit.value]


def card_entry(card: Card, rng: random.Random, keypad_share: float) -> str:
    roll = rng.random()
    if roll < keypad_share:
        return keys_for(card)
    if roll < keypad_share + (1 - keypad_share) / 2:
        return card.payload  # scanned: C5H, CTD
    text = str(card)
    return text.lower() if rng.random() < 0.5 else text  # typed: 5h, 10D


def game_script(seed: int, *, keypad_share: float = 0.3, undo_share: float = 0.06) -> GameScript:
    """A whole game and the entries that play it. `keypad_share=0` keeps the keypad out (faster in real time)."""
    rng = random.Random(seed)
    inputs, final = play_game(rng, "two", target=121)
    assert final.winner is not None
    entries: list[str] = []
    for inp in inputs[1:]:
        if isinstance(inp, (StarterInput, PlayInput)):
            group = [card_entry(inp.card, rng, keypad_share)]
        elif isinstance(inp, GoInput):
            group = [rng.choice(GO if keypad_share else GO[:2])]
        elif isinstance(inp, CribInput):
            group = [card_entry(card, rng, keypad_share) for card in inp.cards]
        else:
            raise AssertionError(f"the dealer made an input a two-player game does not need: {inp}")
        for index, entry in enumerate(group):
            entries.append(entry)
            last_crib_card = isinstance(inp, CribInput) and index == len(group) - 1  # its undo wants all four again
            if not last_crib_card and rng.random() < undo_share:
                entries.extend([rng.choice(UNDO if keypad_share else UNDO[:2]), entry])
    setup = inputs[0]
    assert isinstance(setup, GameInput)
    return GameScript(setup, inputs, final, entries)
