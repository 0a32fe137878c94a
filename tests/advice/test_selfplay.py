"""Self-play: complete games agree with the engine's fold, and a seed fixes everything."""

from __future__ import annotations

import pytest

from companion.advice.coach import review_discard
from companion.advice.selfplay import play_game, report, run, wilson
from companion.cribbage.game import replay
from companion.cribbage.transcript import parse_input


@pytest.mark.parametrize(("levels", "seed"), [(("standard", "easy"), "1:0"), (("pro", "standard"), "7:1")])
def test_a_selfplay_game_replays_through_the_engine_to_the_same_scores(levels: tuple[str, str], seed: str) -> None:
    game = play_game(levels, int(seed[-1]), seed, record=True)
    state = replay(parse_input(line) for line in game.inputs)
    assert state.phase == "game over"
    assert state.winner == "AB"[game.winner]
    assert [state.scores["A"], state.scores["B"]] == game.scores
    # Pegging, hands and cribs per player agree with the engine's events too.
    pegged = sum(e.points for e in state.events if e.player == "A" and e.label in ("pegging", "go", "last card"))
    assert pegged == game.sides[0].pegging


def test_selfplay_is_deterministic_for_a_seed() -> None:
    first = play_game(("standard", "easy"), 0, "42:0", record=True)
    again = play_game(("standard", "easy"), 0, "42:0", record=True)
    other = play_game(("standard", "easy"), 0, "43:0", record=True)
    assert first.inputs == again.inputs and first.scores == again.scores
    assert first.inputs != other.inputs


def test_a_small_run_reports_wins_skunks_and_per_deal_points() -> None:
    sides = run("standard", "easy", 6, seed=3)
    figures = report(sides, 3)
    assert figures["games"] == 6
    a, b = figures["a"], figures["b"]
    assert isinstance(a, dict) and isinstance(b, dict)
    assert a["wins"] + b["wins"] == 6
    assert set(a["per_deal"]) == {"pegging", "hand", "crib", "heels"}
    assert run("standard", "easy", 6, seed=3)[0] == sides[0]


def test_wilson_interval() -> None:
    low, high = wilson(1300, 2000)
    assert low == pytest.approx(0.629, abs=0.001) and high == pytest.approx(0.671, abs=0.001)


def test_the_game_reviews_a_discard_from_the_hand_and_discard_inputs() -> None:
    game = play_game(("easy", "standard"), 0, "5:0", record=True)
    first_deal = game.inputs[:6]  # game, then hand and discard for A and B
    state = replay(parse_input(line) for line in first_deal)
    review_a = review_discard(state, "A")
    review_b = review_discard(state, "B")
    assert review_a is not None and review_b is not None
    assert review_b.optimal  # the standard player lays away the analysis' best
    assert review_b.say().startswith("Best discard: Keep")
    assert review_a.loss >= 0
    if not review_a.optimal:
        assert review_a.say().startswith("That is not the optimal discard: your discard averages")
    assert review_discard(replay(parse_input(line) for line in first_deal[:2]), "A") is None
