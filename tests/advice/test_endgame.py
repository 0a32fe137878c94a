"""Playing to the score: the chance of winning solved from what a deal brings in self-play."""

from __future__ import annotations

import random

import pytest

from companion.advice import endgame
from companion.advice.discard import analyse
from companion.advice.players import Pro, Seat
from companion.advice.selfplay import deal_points
from companion.cribbage.cards import parse_cards
from companion.cribbage.errors import InputError
from companion.i18n import language
from companion.words.saying import error_words


def test_the_first_dealer_wins_as_often_as_published() -> None:
    table = endgame.chances(121)
    # About 55.5% for the first dealer (RULES.md); the table says the same from the deals alone.
    assert table.start(0, 0, dealer=True) == pytest.approx(0.555, abs=0.01)
    assert table.start(0, 0, dealer=False) == pytest.approx(1 - table.start(0, 0, dealer=True))


def test_more_points_are_always_better() -> None:
    w = endgame.chances(121).w
    assert (w[1:, :] >= w[:-1, :] - 1e-12).all()  # the pone further on
    assert (w[:, 1:] <= w[:, :-1] + 1e-12).all()  # the dealer further on
    assert ((w >= 0) & (w <= 1)).all()


def test_the_end_of_the_play_counts_the_pone_first() -> None:
    table = endgame.chances(121)
    # Both reach the target with their hands: the pone counts first and wins.
    assert table.after_play(110, 115, dealer=False, my_hand=12, opponent_hand=10) == 1.0
    assert table.after_play(115, 110, dealer=True, my_hand=10, opponent_hand=12) == 0.0
    # The dealer short after his hand still has his crib, and counts first in the next deal.
    near = table.after_play(115, 100, dealer=True, my_hand=4, opponent_hand=4)
    far = table.after_play(90, 100, dealer=True, my_hand=4, opponent_hand=4)
    assert near > 0.99 and 0.05 < far < 0.5


def test_a_pone_near_the_end_keeps_the_hand_most_likely_to_get_him_out() -> None:
    table = endgame.chances(121)
    sure = [16] * 46
    likely_more = [0] * 20 + [30] * 26  # more on average, but often nothing
    chances = table.discard(105, 105, dealer=False, hands=[sure, likely_more], cribs=[4.0, 4.0])
    assert chances[0] > chances[1]
    far = table.discard(10, 10, dealer=False, hands=[sure, likely_more], cribs=[4.0, 4.0])
    assert far[0] == pytest.approx(far[1], abs=0.05)


def test_the_pro_lays_away_for_the_game_near_its_end() -> None:
    cards = parse_cards("5H 5D 10S JC 4S 6D")
    pro = Pro(random.Random(1))
    analysis = analyse(cards, dealer=False, model=pro.model)
    at_start = pro.discard(cards, Seat(dealer=False, score=0, opponent_score=0))
    assert set(at_start) == set(analysis.best.discard)
    # 115 to 100 as pone: any hand of 6 wins before the dealer counts; the split most sure of 6 is kept.
    near = pro.discard(cards, Seat(dealer=False, score=115, opponent_score=100))
    split = analysis.split_for(near)
    assert split.chance(6) == max(s.chance(6) for s in analysis.splits)


def test_the_shipped_table_is_what_self_play_deals_bring() -> None:
    deals = deal_points("standard", 30, seed=9)
    data = endgame.count(deals, "test")
    outcomes = endgame.from_counts(data)
    assert data["deals"] == 30 and sum(data["pone_hand"]) == 30
    assert outcomes.pegging.sum() == pytest.approx(1.0)
    assert all(pone + dealer >= 1 for pone, dealer, *_ in deals)  # the last card always pegs
    shipped = endgame.load()
    assert shipped.name.startswith("standard-deals-")
    assert 4.2 < shipped.crib_mean < 5.0 and 7.5 < shipped.hand_mean(dealer=False) < 8.5


def test_a_broken_table_is_refused_with_what_to_do() -> None:
    with pytest.raises(InputError) as raised:
        endgame.from_counts({"name": "x"})
    assert error_words(raised.value, language("en")) == ("the endgame table is not in the form `crib selfplay "
                                                         "--endgame` writes ('pegging'): build it again")
