"""The legality query: what the player to play may do now, and the go rule it enforces (docs/rules.md, "The play")."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cribbage.cards import Card, parse_cards
from companion.cribbage.errors import RuleError
from companion.cribbage.facts import ScoreKind
from companion.cribbage.game import GameState, apply, fitting, initial_state, legal_moves
from companion.cribbage.transcript import (
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
from companion.i18n import ENGLISH
from companion.words.phrases import refusal
from tests.facts import by_name, label, refused, refused_words

from .dealer import play_game


def run(inputs: list[Input]) -> GameState:
    state = initial_state()
    for inp in inputs:
        state = apply(state, inp)
    return state


def plays(text: str) -> list[Input]:
    return [GoInput() if word == "go" else PlayInput(parse_cards(word)[0]) for word in text.split()]


START = [GameInput(("Ann", "Bob"), dealer="Ann"), StarterInput(parse_cards("5S")[0])]


def test_a_go_at_five_with_hidden_hands_is_refused_and_changes_nothing():
    state = run([*START, *plays("5C")])
    with pytest.raises(RuleError) as refused:
        apply(state, GoInput())
    assert refused_words(refused.value) == "No go at 5: every card fits. Play a card."
    assert by_name(state.scores) == {"Ann": 0, "Bob": 0} and state.turn == "Ann" and state.count == 5


def test_with_hidden_hands_go_is_possible_from_a_count_of_twenty_two():
    at_21 = run([*START, *plays("KC QD AC")])
    assert (at_21.count, legal_moves(at_21).go, legal_moves(at_21).plays) == (21, False, None)
    at_22 = run([*START, *plays("KC QD 2C")])
    assert (at_22.count, legal_moves(at_22).go) == (22, True)
    state = run([*at_22.inputs, GoInput(), *plays("go")])  # Ann says go, then Bob: the go point is Bob's
    assert [(label(e), e.player, e.points) for e in state.events] == [("go", "Bob", 1)]


def test_with_the_hand_known_go_is_refused_while_a_card_fits_and_allowed_when_none_does():
    state = run([GameInput(("Ann", "Bob"), dealer="Ann"), HandInput("Bob", parse_cards("KC KD 9S AS 2C 3D")),
                 DiscardInput("Bob", parse_cards("2C 3D")), StarterInput(parse_cards("5S")[0]),
                 *plays("KC QH 9S go")])  # Bob leads KC, Ann QH 20, Bob 9S 29, Ann says go
    now = legal_moves(state)
    assert (now.player, now.count, now.plays, now.go, now.must_go) == ("Bob", 29, parse_cards("AS"), False, False)
    assert refusal(now.no_go, ENGLISH) == "No go at 29: Bob holds AS, which fits. Play a card."
    state = run([*state.inputs, *plays("AS")])  # 30: Bob plays on and holds only KD
    now = legal_moves(state)
    assert (now.player, now.plays, now.go, now.must_go) == ("Bob", (), True, True)


def test_with_the_hand_known_but_not_the_discard_go_is_allowed_when_the_cards_that_fit_may_be_laid_away():
    state = run([GameInput(("Ann", "Bob"), dealer="Ann"), HandInput("Bob", parse_cards("KC KD QH 9S 2C 3D")),
                 StarterInput(parse_cards("5S")[0]), *plays("KC KH")])  # 20: five cards fit, two are laid away
    now = legal_moves(state)
    assert (now.plays, now.go) == (parse_cards("KD QH 9S 2C 3D"), False)
    assert refusal(now.no_go, ENGLISH) == ("No go at 20: Bob still holds a card that fits (of KD QH 9S 2C 3D). "
                                           "Play a card.")
    state = run([*state.inputs, *plays("9S go")])  # 29: of KD QH 2C 3D only 2C fits, and it may be laid away
    now = legal_moves(state)
    assert (state.count, now.plays, now.go, now.must_go) == (29, parse_cards("2C"), True, False)


def test_a_player_out_of_cards_is_passed_by_without_saying_go():
    # Bob leads KC, Ann KD 20, Bob 9C 29, Ann go, Bob AC 30 and go (his point); Ann leads 5H, Bob 5C: his last
    state = run([*START, *plays("KC KD 9C go AC go 5H 5C")])
    assert (state.cards_left("Bob"), state.turn, state.count) == (0, "Ann", 10)
    with refused(RuleError, "Bob has played all four cards: Ann to play"):
        apply(state, GoInput("Bob"))
    state = apply(state, PlayInput(parse_cards("2H")[0]))
    assert (state.turn, state.count, legal_moves(state).player) == ("Ann", 12, "Ann")  # Ann again, no go between
    state = apply(state, PlayInput(parse_cards("3H")[0]))
    assert ("last card", "Ann") in [(label(e), e.player) for e in state.events]
    assert [e.player for e in state.events if e.kind is ScoreKind.GO] == ["Bob"]


def test_outside_the_play_nothing_is_legal():
    state = run(START[:1])
    now = legal_moves(state)
    assert (now.player, now.plays, now.go) == (None, (), False)
    assert refusal(now.no_go, ENGLISH) == "No go now: Ann deals. Enter the starter"
    with refused(RuleError, "enter the starter first"):
        apply(state, GoInput())


def test_fitting_keeps_the_cards_that_do_not_pass_thirty_one():
    assert fitting(25, parse_cards("6H 7H AC KD")) == parse_cards("6H AC")
    assert fitting(0, ()) == ()


# --- properties over random legal deals -------------------------------------------------------------------

def _crib_of(state: GameState, deal: int) -> CribInput:
    record = state.deals[deal - 1]
    return CribInput(tuple(c for p in state.players for c in record.discards.get(p, ())))


def _walk(variant: str, seed: int, muggins: bool):
    """Each state of the play of a random game, as the engine sees it with the hands and discards known, with
    the hands known but not the discards, and with neither: (known, partial, hidden)."""
    inputs, _ = play_game(random.Random(seed), variant, muggins=muggins, enter_hands=True, target=61)
    known, partial, hidden = initial_state(), initial_state(), initial_state()
    for inp in inputs:
        if known.phase == "play":
            yield known, partial, hidden
        if not isinstance(inp, CribInput | MugginsInput):
            # without the discards entered the crib is scanned
            if partial.phase == "crib":
                partial = apply(partial, _crib_of(known, partial.deal_number))
            if hidden.phase == "crib":
                hidden = apply(hidden, _crib_of(known, hidden.deal_number))
        known = apply(known, inp)
        if not isinstance(inp, DiscardInput):
            partial = apply(partial, inp)
        if not isinstance(inp, DiscardInput | HandInput):
            hidden = apply(hidden, inp)


def _held(state: GameState) -> tuple[Card, ...]:
    assert state.turn is not None
    held = state.held(state.turn)
    assert held is not None
    return held


def _snapshot(state: GameState) -> tuple[object, ...]:
    return (state.phase, state.turn, state.count, state.pile, state.gone, by_name(state.scores),
            by_name(state.back_pegs), state.events, state.inputs)


def _refused_without_change(state: GameState) -> None:
    before = _snapshot(state)
    with pytest.raises(RuleError) as refused:
        apply(state, GoInput())
    assert refused_words(refused.value).startswith(f"No go at {state.count}: ")
    assert refused_words(refused.value).endswith(" Play a card.")
    assert _snapshot(state) == before


variants = st.sampled_from(["two", "three", "four", "five-card"])


@settings(max_examples=30, deadline=None)
@given(variants, st.integers(0, 2**32), st.booleans())
def test_a_random_legal_deal_never_offers_an_impossible_go(variant, seed, muggins):
    for known, partial, hidden in _walk(variant, seed, muggins):
        held = _held(known)
        truly_stuck = fitting(known.count, held) == ()
        now = legal_moves(known)
        assert now.plays == fitting(known.count, held) and now.go == truly_stuck
        assert now.must_go == truly_stuck
        hidden_now = legal_moves(hidden)
        assert (hidden_now.player, hidden_now.count) == (known.turn, known.count)
        assert hidden_now.plays is None and hidden_now.go == (known.count >= 22)
        partial_now = legal_moves(partial)
        assert set(fitting(known.count, held)) <= set(partial_now.plays or ())
        # a player who truly cannot play is never refused a go, however little the engine knows
        assert not truly_stuck or (hidden_now.go and partial_now.go)


@settings(max_examples=30, deadline=None)
@given(variants, st.integers(0, 2**32), st.booleans())
def test_every_impossible_go_is_refused_with_the_state_unchanged(variant, seed, muggins):
    refused = 0
    for known, partial, hidden in _walk(variant, seed, muggins):
        for state in (known, partial, hidden):
            if not legal_moves(state).go:
                _refused_without_change(state)
                refused += 1
    assert refused > 0  # every game has a play at a count of 21 or less
