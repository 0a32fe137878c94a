"""Properties that hold for every hand and every game (hypothesis)."""

from __future__ import annotations

import contextlib
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cribbage.cards import DECK, Card, Suit
from companion.cribbage.errors import CribbageError
from companion.cribbage.game import apply, initial_state, replay
from companion.cribbage.scoring import score_show, show_total
from companion.cribbage.transcript import (
    ClaimInput,
    CribInput,
    CutInput,
    DiscardInput,
    GameInput,
    GoInput,
    HandInput,
    MugginsInput,
    PegInput,
    PlayInput,
    StarterInput,
    UndoInput,
    input_to_json,
    parse_input,
)
from companion.words.phrases import prompt_words
from companion.words.projection import state_json

from .dealer import play_game

five_cards = st.lists(st.sampled_from(DECK), min_size=5, max_size=5, unique=True)


@settings(deadline=None)  # the machine is shared: a slow moment is not a failure
@given(five_cards, st.randoms(use_true_random=False), st.booleans())
def test_the_order_of_hand_cards_never_matters(cards, rng, crib):
    hand, starter = cards[:4], cards[4]
    shuffled = list(hand)
    rng.shuffle(shuffled)
    before, after = score_show(hand, starter, crib=crib), score_show(shuffled, starter, crib=crib)
    assert after.total == before.total == show_total(shuffled, starter, crib=crib)
    assert sorted((i.kind, i.points, sorted(i.cards)) for i in after.items) == sorted(
        (i.kind, i.points, sorted(i.cards)) for i in before.items)


@settings(deadline=None)
@given(five_cards, st.permutations(list(Suit)), st.booleans())
def test_renaming_suits_never_changes_a_score(cards, suits, crib):
    rename = dict(zip(Suit, suits, strict=True))
    renamed = [Card(c.rank, rename[c.suit]) for c in cards]
    assert score_show(renamed[:4], renamed[4], crib=crib).total == score_show(cards[:4], cards[4], crib=crib).total


variants = st.sampled_from(["two", "three", "four", "five-card"])


@settings(max_examples=25, deadline=None)
@given(variants, st.booleans(), st.booleans(), st.integers(0, 2**32), st.data())
def test_a_replay_with_an_undo_equals_the_replay_without_the_undone_input(variant, muggins, hands, seed, data):
    inputs, final = play_game(random.Random(seed), variant, muggins=muggins, enter_hands=hands, target=61)
    assert replay(inputs) == final
    k = data.draw(st.integers(1, len(inputs) - 1))
    assert replay([*inputs[:k], UndoInput(), *inputs[k - 1:]]) == final  # undo the k-th input, enter it again
    assert replay([*inputs, UndoInput(), UndoInput()]) == replay(inputs[:-2])
    assert sum(e.points for e in final.events) == sum(final.scores.values())
    assert max(final.scores.values()) == 61


cards = st.sampled_from(DECK)
names = st.sampled_from(["Ann", "Bob", "Cat", "Dan", "Eve", "Ann & Cat"])
card_lists = st.lists(cards, max_size=7)
any_input = st.one_of(
    st.builds(GameInput, st.lists(names, min_size=0, max_size=5).map(tuple), st.none() | names,
              st.none() | st.integers(-5, 200), st.none() | st.sampled_from(["two", "three", "four", "five-card"]),
              st.booleans(), st.none() | st.integers(-1, 3)),
    st.builds(CutInput, names, cards), st.builds(HandInput, names, card_lists.map(tuple)),
    st.builds(DiscardInput, names, card_lists.map(tuple)), st.builds(StarterInput, cards),
    st.builds(PlayInput, cards, st.none() | names), st.builds(GoInput, st.none() | names),
    st.builds(CribInput, card_lists.map(tuple)), st.builds(ClaimInput, st.integers(-3, 40)),
    st.builds(MugginsInput, st.none() | names), st.builds(PegInput, names, st.integers(-130, 130)),
    st.just(UndoInput()),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(any_input, max_size=60))
def test_random_inputs_raise_only_the_engines_own_errors(inputs):
    state = initial_state()
    for inp in inputs:
        assert parse_input(input_to_json(inp)) == inp
        before = state_json(state)
        try:
            state = apply(state, inp)
        except CribbageError:
            assert state_json(state) == before  # a refused input changed nothing, not even in place
            assert replay(state.inputs) == state
        prompt_words(state.awaited())
        state_json(state)
        assert all(0 <= score <= max(state.target, 0) for score in state.scores.values())


@settings(max_examples=60, deadline=None)
@given(variants, st.booleans(), st.integers(0, 2**32), st.data(), st.lists(any_input, min_size=1, max_size=12))
def test_random_inputs_in_the_middle_of_a_game_raise_only_the_engines_own_errors(variant, muggins, seed, data,
                                                                                 extra):
    inputs, _ = play_game(random.Random(seed), variant, muggins=muggins, enter_hands=seed % 2 == 0, target=61)
    state = replay(inputs[:data.draw(st.integers(1, len(inputs)))])
    for inp in extra:
        with contextlib.suppress(CribbageError):
            state = apply(state, inp)
        prompt_words(state.awaited())
        assert replay(state.inputs) == state
