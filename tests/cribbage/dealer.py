"""A random but legal table for tests: shuffles, deals and plays whole games through the engine.

Each decision is random among the legal ones, so the inputs are what real players could enter.
"""

from __future__ import annotations

import random

from companion.cribbage.cards import DECK
from companion.cribbage.game import GameState, apply, initial_state
from companion.cribbage.transcript import (
    ClaimInput,
    CribInput,
    DiscardInput,
    GameInput,
    GoInput,
    HandInput,
    Input,
    MugginsInput,
    PlayInput,
    StarterInput,
)

PLAYERS = {"two": ("Ann", "Bob"), "five-card": ("Ann", "Bob"), "three": ("Ann", "Bob", "Cat"),
           "four": ("Ann", "Bob", "Cat", "Dan")}


def play_game(rng: random.Random, variant: str = "two", *, target: int | None = None, muggins: bool = False,
              enter_hands: bool = False, max_deals: int = 60) -> tuple[list[Input], GameState]:
    """A whole game: its effective inputs and the final state."""
    state = apply(initial_state(), GameInput(PLAYERS[variant], dealer=rng.choice(PLAYERS[variant]),
                                             target=target, variant=variant, muggins=muggins))
    inputs: list[Input] = [state.inputs[0]]

    def do(inp: Input) -> None:
        nonlocal state
        state = apply(state, inp)
        inputs.append(inp)

    while state.winner is None and state.deal_number <= max_deals:
        deck = list(DECK)
        rng.shuffle(deck)
        hands = {p: deck[i * state.dealt_size:(i + 1) * state.dealt_size] for i, p in enumerate(state.players)}
        pack = deck[len(state.players) * state.dealt_size:]
        discards = {p: rng.sample(hand, state.discard_size) for p, hand in hands.items()}
        crib = [c for p in state.players for c in discards[p]]
        if len(crib) < 4:
            crib.append(pack.pop())
        held = {p: [c for c in hands[p] if c not in discards[p]] for p in state.players}
        if enter_hands:
            for p in state.players:
                do(HandInput(p, tuple(hands[p])))
                do(DiscardInput(p, tuple(discards[p])))
        do(StarterInput(pack.pop()))
        while state.phase == "play":
            player = state.turn
            assert player is not None
            fits = [c for c in held[player] if state.count + c.value <= 31]
            if fits:
                card = rng.choice(fits)
                held[player].remove(card)
                claim = rng.choice((None, None, 0, 2, 3)) if state.muggins else None  # short, right or over
                do(PlayInput(card, player=rng.choice((None, player)), claim=claim))
                if state.missed is not None and rng.random() < 0.5:
                    do(MugginsInput())
            else:
                do(GoInput())
        while state.phase in ("crib", "claim"):
            if state.phase == "crib":
                do(CribInput(tuple(crib)))
            else:
                do(ClaimInput(rng.choice((0, 2, 4, 6, 8, 12, 29))))
                if state.missed is not None and rng.random() < 0.5:
                    do(MugginsInput())
    return inputs, state
