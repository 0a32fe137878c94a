"""The `ev` level, the measuring stick: exact expected-value lay-aways and fixed pegging rules, on chosen positions."""

from __future__ import annotations

import random

import pytest

from companion.advice.discard import analyse
from companion.advice.pegging import PlayView
from companion.advice.players import ExpectedValue, Player, Pro, Seat, make
from companion.advice.selfplay import play_game
from companion.cribbage.cards import DECK, Card, parse_cards


def ev() -> ExpectedValue:
    return ExpectedValue(random.Random(0))


def plays(hand: str, pile: str = "", seen: str = "", opponent_cards: int = 3, **kw: object) -> str:
    mine = parse_cards(hand)
    played = parse_cards(pile)
    known = set(mine) | set(played) | set(parse_cards(seen))
    unseen = tuple(c for c in DECK if c not in known)
    view = PlayView(mine, played, unseen, opponent_cards, **kw)  # type: ignore[arg-type]
    return str(ev().play(view))


def test_ev_lays_away_for_the_highest_exact_hand_plus_crib() -> None:
    cards = parse_cards("5H 5D 6C JS 4S QD")
    # The dealer keeps 4-5-5-6 and gives J-Q to his own crib; the pone keeps the same four (16 in hand is too
    # much to give up), every split judged by hand + own crib or hand - the opponent's crib.
    assert set(ev().discard(cards, Seat(dealer=True))) == set(parse_cards("JS QD"))
    for dealer in (True, False):
        for seed in range(5):
            hand = random.Random(seed).sample(DECK, 6)
            chosen = set(ev().discard(hand, Seat(dealer=dealer)))
            splits = analyse(hand, dealer=dealer).splits
            best = max(s.hand + (s.crib if dealer else -s.crib) for s in splits)
            assert next(s for s in splits if set(s.discard) == chosen).net == best


def test_ev_pegs_the_most_points_now() -> None:
    assert plays("2C KH 4D", pile="10S 3D") == "2C"  # fifteen
    assert plays("7C 2D", pile="7H 7S", opponent_cards=2) == "7C"  # a pair royal for 6, though it leaves 21


def test_ev_keeps_the_count_off_5_and_21_when_another_card_does() -> None:
    assert plays("7C 9D", pile="KS 4D") == "9D"  # the 7 would leave 21
    assert plays("5C 8D") == "8D"  # a lead of the five leaves 5
    assert plays("JC KD", pile="KS AD") == "JC"  # both leave 21: the lower rank


def test_ev_does_not_pair_a_lead_into_a_likely_triple() -> None:
    assert plays("7C 2D", pile="7H") == "2D"  # he may have led from a pair of sevens
    assert plays("7C 7D 2S", pile="7H") == "7C"  # holding the fourth to answer him
    assert plays("7C 2D", pile="7H", seen="7S 7D") == "7C"  # no seven left for him
    assert plays("7C 2D", pile="7H", opponent_cards=0) == "7C"  # nothing left to answer with
    assert plays("7C 2D", pile="9H 7H") == "7C"  # a pair later in the series is taken


def test_ev_plays_low_cards_first_otherwise() -> None:
    assert plays("9C 3D QH", pile="KS") == "3D"
    assert plays("KC 8D 6H") == "6H"
    chosen = Card.parse(plays("QC 10D JH", pile="AS"))
    assert chosen.rank == 10


@pytest.mark.parametrize(("opponent", "sure"), [("ev", True), ("standard", False)])
def test_the_pro_learns_over_a_game_which_rules_its_opponent_plays_by(opponent: str, sure: bool) -> None:
    made: list[Player] = []

    def maker(level: str, rng: random.Random) -> Player:
        made.append(make(level, rng))
        return made[-1]

    play_game(("pro", opponent), 0, "3:0", maker=maker)
    pro = made[0]
    assert isinstance(pro, Pro)
    assert (pro.ev_chance > 0.9) if sure else (pro.ev_chance < 0.1)
