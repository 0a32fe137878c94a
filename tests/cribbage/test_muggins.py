"""Muggins as the product description defines it (docs/rules.md, "Muggins"): points missed or overcalled, in the
show and in the play, taken by the opponent who calls it; what each side takes is said in words."""

from __future__ import annotations

from companion.cribbage.cards import parse_cards
from companion.cribbage.errors import RuleError
from companion.cribbage.facts import ScoreKind
from companion.cribbage.game import GameState, apply, initial_state
from companion.cribbage.transcript import (
    ClaimInput,
    CribInput,
    GameInput,
    GoInput,
    Input,
    MugginsInput,
    PegInput,
    PlayInput,
    StarterInput,
    parse_input,
)
from companion.i18n import ENGLISH
from companion.words.phrases import notes
from companion.words.projection import state_json
from tests.facts import by_name, label, refused, said


def run(inputs: list[Input]) -> GameState:
    state = initial_state()
    for inp in inputs:
        state = apply(state, inp)
    return state


def card(text: str):
    return parse_cards(text)[0]


def plays(text: str) -> list[Input]:
    return [GoInput() if word == "go" else PlayInput(card(word)) for word in text.split()]


GAME = GameInput(("Ann", "Bob"), dealer="Ann", muggins=True)
# The deal of test_sample_games: Bob's hand 29, Ann's 24, the crib AH 3D 8C 8H with 5S: 2
DEAL = [StarterInput(card("5S")), *plays("JS 4C 5C 6C 5D go go 4D 5H 6H")]


def test_an_overcall_in_the_show_pegs_the_true_points_and_muggins_takes_the_difference():
    state = run([GAME, *DEAL, ClaimInput(28), ClaimInput(24), CribInput(parse_cards("AH 3D 8C 8H")),
                 ClaimInput(3)])  # the crib holds 2, claimed 3
    crib = state.events[-1]
    assert (label(crib), crib.claimed, crib.points) == ("Ann's crib", 3, 2)
    assert said(crib) == "a pair is two; claimed three, Ann pegs two; Ann overcalled by one: muggins for 1"
    before = by_name(state.scores)
    state = apply(state, MugginsInput())
    taken = state.events[-1]
    assert (label(taken), taken.player, taken.points) == ("muggins", "Bob", 1)
    assert said(taken) == "Bob takes one that Ann overcalled on Ann's crib"
    assert by_name(state.scores) == {"Ann": before["Ann"], "Bob": before["Bob"] + 1}


def test_a_crib_muggins_belongs_to_the_deal_of_the_crib():
    state = run([GAME, *DEAL, ClaimInput(29), ClaimInput(24), CribInput(parse_cards("AH 3D 8C 8H")),
                 ClaimInput(0), MugginsInput()])  # the crib's 2 missed; muggins is called once deal 2 has begun
    assert state.deal_number == 2
    assert (label(state.events[-1]), state.events[-1].deal) == ("muggins", 1)
    events = state_json(state)["events"]
    assert [(e["kind"], e["player"], e["deal"], e["points"]) for e in events[-2:]] == [
        ("crib", "Ann", 1, 0), ("muggins", "Bob", 1, 2)]


def test_a_short_claim_for_a_play_leaves_the_rest_to_muggins_and_an_overcall_pegs_only_the_true_points():
    start = [GAME, StarterInput(card("KS"))]
    state = run([*start, PlayInput(card("7C")), PlayInput(card("8C"), claim=0)])  # Ann's fifteen two, unclaimed
    assert by_name(state.scores) == {"Ann": 0, "Bob": 0} and state.missed is not None
    state = apply(state, MugginsInput())
    assert by_name(state.scores) == {"Ann": 0, "Bob": 2}
    assert said(state.events[-1]) == "Bob takes two that Ann missed on the play"
    over = run([*start, PlayInput(card("7C")), PlayInput(card("8C"), claim=4)])
    assert by_name(over.scores) == {"Ann": 2, "Bob": 0}
    assert said(over.events[-1]) == "fifteen two; claimed four; Ann overcalled by two: muggins for 2"
    assert by_name(apply(over, MugginsInput()).scores) == {"Ann": 2, "Bob": 2}
    right = run([*start, PlayInput(card("7C")), PlayInput(card("8C"), claim=2)])
    assert by_name(right.scores) == {"Ann": 2, "Bob": 0} and right.missed is None and right.events[-1].notes == ()


def test_the_go_point_is_always_scored_automatically():
    # Bob KC, Ann QD 20 (claims nothing, a right claim), Bob 9C 29 claimed 0; Ann go, Bob go: the go point is his
    state = run([GAME, StarterInput(card("2S")), PlayInput(card("KC")), PlayInput(card("QD"), claim=0),
                 PlayInput(card("9C"), claim=0), GoInput(), GoInput()])
    assert [(label(e), e.player, e.points) for e in state.events] == [("go", "Bob", 1)]


def test_a_claim_for_a_play_only_in_muggins_games_and_within_what_one_card_can_peg():
    with refused(RuleError, "without muggins"):
        run([GameInput(("Ann", "Bob"), dealer="Ann"), StarterInput(card("KS")), PlayInput(card("7C"), claim=0)])
    with refused(RuleError, "one card pegs 0 to 14 points, not 15"):
        run([GAME, StarterInput(card("KS")), PlayInput(card("7C"), claim=15)])
    assert parse_input('{"type":"play","card":"8C","claim":2}') == PlayInput(card("8C"), claim=2)


def test_muggins_with_nothing_off_the_count_is_refused():
    state = run([GAME, *DEAL, ClaimInput(29)])
    with refused(RuleError, "too low or too high"):
        apply(state, MugginsInput())


def test_a_hand_that_passes_the_target_pegs_up_to_it_and_says_what_it_held():
    # Bob pegs 50 by hand, 1 for the go: his hand of 29 would make 80 in a game to 61
    state = run([GameInput(("Ann", "Bob"), dealer="Ann", target=61), PegInput("Bob", 50), *DEAL])
    hand = next(e for e in state.events if e.kind is ScoreKind.HAND and e.player == "Bob")
    assert (hand.score.total, hand.points, state.score("Bob"), state.phase) == (29, 10, 61, "game over")
    assert said(hand).endswith("; twenty-nine held, ten pegged: Bob reaches 61 and the game is over")
    assert notes(hand, ENGLISH) == ["twenty-nine held, ten pegged: Bob reaches 61 and the game is over"]
