"""The play: rank-level pegging points against the engine, and the pegging hint."""

from __future__ import annotations

import random

from companion.advice.pegging import PlayView, hint, peg_points
from companion.cribbage.cards import DECK, parse_cards
from companion.cribbage.scoring import score_pegging


def test_peg_points_equal_the_engine_for_random_series() -> None:
    rng = random.Random(2)
    checked = 0
    while checked < 3000:
        pile = []
        for card in rng.sample(DECK, 8):
            if sum(c.value for c in pile) + card.value > 31:
                break
            pile.append(card)
            count = sum(c.value for c in pile)
            assert peg_points([c.rank for c in pile], count) == score_pegging(pile).total, pile
            checked += 1


def test_peg_points_named_cases() -> None:
    assert peg_points([9, 6, 8, 7], 30) == 4  # a run of four on the 7
    assert peg_points([8, 7, 7, 6], 28) == 0  # no run through a pair
    assert peg_points([6, 5, 6], 17) == 0  # no pair across another card
    assert peg_points([4, 6, 5], 15) == 5  # fifteen and a run
    assert peg_points([7, 7, 7, 10], 31) == 2


def view(hand: str, pile: str = "", seen: str = "", opponent_cards: int = 4, **kw: object) -> PlayView:
    mine = parse_cards(hand)
    played = parse_cards(pile)
    known = set(mine) | set(played) | set(parse_cards(seen))
    unseen = tuple(c for c in DECK if c not in known)
    return PlayView(mine, played, unseen, opponent_cards, **kw)  # type: ignore[arg-type]


def test_hint_takes_points() -> None:
    h = hint(view("AH 9C 3D", pile="10S JD", opponent_cards=2))
    assert str(h.card) == "9C" and h.points == 3  # a run of three, 9-10-J
    h = hint(view("AH 9C 3D", pile="10S 9D 3S", opponent_cards=1))
    assert str(h.card) == "9C" and h.points == 2
    assert "pegs 2 now" in h.reason


def test_hint_does_not_lead_a_five() -> None:
    h = hint(view("5H 4C KD 9S", seen="3H 2S"))
    assert h.card.rank != 5
    assert h.reason.startswith(f"Play the {('four', 'king', 'nine')[(4, 13, 9).index(h.card.rank)]}")


def test_hint_plays_on_to_win_the_game() -> None:
    # One point wins: the 7 makes 31 only if nothing else is played, but the 2 is a sure go or last card.
    h = hint(view("2H", pile="10S 9D 3S", opponent_cards=0, need=1))
    assert str(h.card) == "2H" and "wins the game" in h.reason


def test_hint_is_the_same_for_the_same_seed() -> None:
    v = view("5H 4C KD 9S 7C", seen="3H")
    assert hint(v, seed=3) == hint(v, seed=3)
