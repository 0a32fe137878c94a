"""Self-play: complete games agree with the engine's fold, and a seed fixes everything."""

from __future__ import annotations

import re

import pytest

from companion.advice.coach import review_discard
from companion.advice.selfplay import play_game, report, run, wilson
from companion.cribbage.game import replay
from companion.cribbage.transcript import parse_input
from companion.i18n import language
from companion.words.review import review_words
from tests.facts import name


@pytest.mark.parametrize(("levels", "seed"), [(("standard", "easy"), "1:0"), (("pro", "standard"), "7:1")])
def test_a_selfplay_game_replays_through_the_engine_to_the_same_scores(levels: tuple[str, str], seed: str) -> None:
    game = play_game(levels, int(seed[-1]), seed, record=True)
    state = replay(parse_input(line) for line in game.inputs)
    assert state.phase == "game over"
    assert name(state.winner) == "AB"[game.winner]
    assert [state.score("A"), state.score("B")] == game.scores
    # Pegging, hands and cribs per player agree with the engine's events too.
    pegged = sum(e.points for e in state.events if e.player == "A" and e.kind.in_play)
    assert pegged == game.sides[0].pegging
    # ... and so do the points pegged as dealer (a swap of dealer and pone would show here).
    dealer_of = {record.number: record.dealer for record in state.deals} | {state.deal_number: state.dealer}
    for i, player in enumerate("AB"):
        as_dealer = sum(e.points for e in state.events if e.player == player and dealer_of[e.deal] == player
                        and e.kind.in_play)
        assert as_dealer == game.sides[i].pegging_dealer
    first = int(seed[-1])
    assert (game.sides[first].first_deals, game.sides[1 - first].first_deals) == (1, 0)
    assert game.sides[first].first_deal_wins == (game.winner == first)


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
    assert set(a["per_deal"]) == {"pegging", "pegging_as_dealer", "pegging_as_pone", "hand", "crib", "heels"}
    assert run("standard", "easy", 6, seed=3)[0] == sides[0]


def test_the_table_figures_are_consistent() -> None:
    sides = run("standard", "standard", 10, seed=4)
    figures = report(sides, 4)
    table, a, b = figures["table"], figures["a"], figures["b"]
    assert isinstance(table, dict) and isinstance(a, dict) and isinstance(b, dict)
    per = table["per_deal"]
    # One dealer and one pone a deal: their pegging adds up to all the pegging in a deal.
    assert per["pegging_as_dealer"] + per["pegging_as_pone"] == pytest.approx(per["pegging"], abs=0.002)
    assert per["pegging_as_dealer"] > 0 and per["pegging_as_pone"] > 0
    # A side's pegging splits into its deals as dealer and as pone.
    for side, mine in zip(sides, (a, b), strict=True):
        assert mine["deals"] == table["deals"] and 0 < side.dealt < side.deals
        assert 0 < side.pegging_dealer < side.pegging
        assert mine["per_deal"]["pegging_as_dealer"] == round(side.pegging_dealer / side.dealt, 3)
        assert mine["per_deal"]["pegging_as_pone"] == round((side.pegging - side.pegging_dealer)
                                                             / (side.deals - side.dealt), 3)
    assert table["deals_per_game"] == pytest.approx(table["deals"] / 10, abs=0.001) and table["deals_per_game"] > 5
    # The first dealer alternates: each side dealt first in half the games.
    assert a["first_deals"] == b["first_deals"] == 5
    assert table["first_dealer_wins"] == a["first_deal_wins"] + b["first_deal_wins"] <= 10
    assert table["first_dealer_win_rate"] == table["first_dealer_wins"] / 10
    low, high = table["first_dealer_win_rate_95ci"]
    assert low <= table["first_dealer_win_rate"] <= high
    # A game can end before its last show, so a show averages at least what a deal does.
    assert table["per_show"]["hand"] >= per["hand"] and table["per_show"]["crib"] >= per["crib"]


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
    assert review_words(review_b, language("en")).startswith("Best discard: Keep")
    assert review_a.loss >= 0
    if not review_a.optimal:
        assert review_words(review_a, language("en")).startswith(
            "That is not the optimal discard: your discard averages")
    assert review_discard(replay(parse_input(line) for line in first_deal[:2]), "A") is None


def test_skunks_in_a_61_point_game_are_counted_by_its_own_skunk_lines() -> None:
    games = [play_game(("standard", "easy"), n % 2, f"61:{n}", target=61, record=True) for n in range(6)]
    for game in games:
        state = replay(parse_input(line) for line in game.inputs)
        side = game.sides[game.winner]
        assert (side.skunks, side.double_skunks) == (
            int(state.skunk in ("skunk", "double skunk")), int(state.skunk == "double skunk"))
    assert not all(game.sides[game.winner].skunks for game in games)  # below 91 is no skunk in a 61-point game


def test_a_deal_pair_deals_the_same_cards_both_ways_round() -> None:
    from companion.advice.selfplay import deal_pair, duplicate

    # The same player on both sides of the same cards nets nothing; swapping the levels swaps the sign.
    assert [deal_pair(("standard", "standard"), f"d:{n}") for n in range(5)] == [0] * 5
    nets = duplicate("standard", "easy", 12, 3)
    assert nets == [-deal_pair(("easy", "standard"), f"3:{n}") for n in range(12)]
    assert sum(nets) > 0  # the better player nets points over a dozen deals


def test_a_review_writes_its_figures_the_way_the_language_does() -> None:
    game = play_game(("easy", "standard"), 0, "5:0", record=True)
    state = replay(parse_input(line) for line in game.inputs[:6])
    review = review_discard(state, "A")
    assert review is not None
    english, german = review_words(review, language("en")), review_words(review, language("de"))
    figures = re.findall(r"\d+[.,]\d", english)
    assert figures and all("." in f for f in figures)
    assert re.findall(r"\d+[.,]\d", german) == [f.replace(".", ",") for f in figures]
