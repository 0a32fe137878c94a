"""Game state values cannot be changed in place: each mapping is a read-only copy of its own."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

import pytest

from companion.cribbage.cards import parse_cards
from companion.cribbage.errors import InputError
from companion.cribbage.facts import Phase, Side
from companion.cribbage.game import DealRecord, GameState, apply, initial_state, rules_of
from companion.cribbage.rules import Rules
from companion.cribbage.transcript import GameInput, HandInput
from tests.facts import by_name, refused


def _new_game() -> GameState:
    return apply(initial_state(), GameInput(("Ann", "Bob"), dealer="Ann", match=True))


def test_scores_back_pegs_and_match_points_cannot_be_changed_in_place():
    state = _new_game()
    for name in ("scores", "back_pegs", "match_points", "side_of", "hands", "discards"):
        with pytest.raises(TypeError):
            key = state.side_of["Ann"] if name in ("scores", "back_pegs", "match_points") else "Ann"
            getattr(state, name)[key] = 5  # the old shared dict let this change scores and match points at once
    assert by_name(state.scores) == by_name(state.back_pegs) == by_name(state.match_points) == {"Ann": 0, "Bob": 0}


def test_every_mapping_of_a_state_and_its_deals_is_read_only():
    state = apply(_new_game(), HandInput("Bob", parse_cards("KC KD 9S AS 2C 3D")))
    values = [state, *state.deals]
    mappings = [(type(v).__name__, f.name, getattr(v, f.name)) for v in values for f in dataclasses.fields(v)
                if isinstance(getattr(v, f.name), Mapping)]
    assert {(kind, name) for kind, name, _ in mappings} >= {("GameState", "scores"), ("DealRecord", "hands")}
    for kind, name, mapping in mappings:
        with pytest.raises(TypeError):
            mapping["Ann"] = 1  # type: ignore[index]
        assert (kind, name, mapping.get("Ann")) != (kind, name, 1)


def test_a_dictionary_given_to_a_state_is_copied_not_shared():
    ann, bob = Side(("Ann",)), Side(("Bob",))
    zero = {ann: 0, bob: 0}
    state = GameState(players=("Ann", "Bob"), sides=(ann, bob), scores=zero, back_pegs=zero, match_points=zero,
                      side_of={"Ann": ann, "Bob": bob})
    record = DealRecord(1, "Ann", hands={"Ann": ()})
    zero[ann] = 7
    assert state.score("Ann") == state.match_points[ann] == 0 and record.hands == {"Ann": ()}


def test_the_phases_are_the_enum_s_values():
    assert [p.value for p in Phase] == ["new", "cut", "deal", "play", "crib", "claim", "game over", "match over"]


def test_a_game_s_rules_are_one_value_checked_once():
    state = _new_game()
    assert state.rules == Rules("two", 121, False, 7, "standard")
    assert (state.target, state.variant, state.match_target, state.hand_size) == (121, "two", 7, 4)
    five = rules_of(GameInput(("Ann", "Bob"), variant="five-card"))
    assert (five.target, five.players, five.sides, five.dealt_size, five.discard_size, five.hand_size) == (
        61, 2, 2, 5, 2, 3)
    four = rules_of(GameInput(("Ann", "Bob", "Cat", "Dan"), muggins=True, match=3, match_scoring="acc"))
    assert (four.variant, four.sides, four.hand_size, four.muggins, four.match_points("skunk")) == ("four", 2, 4,
                                                                                                   True, 3)
    assert Rules().skunk_lines == (91, 61) and five.skunk_lines == (31, 16)
    with refused(InputError, "the three game is for three players, not 2"):
        rules_of(GameInput(("Ann", "Bob"), variant="three"))
