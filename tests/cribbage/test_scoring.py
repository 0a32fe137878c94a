"""The count in a player's words: what the OLED, the command line and the log all say."""

from __future__ import annotations

import pytest

from companion.cribbage.cards import parse_cards
from companion.cribbage.scoring import number_words, score_pegging, score_show


def said(text: str, *, crib: bool = False) -> str:
    *hand, starter = parse_cards(text)
    return score_show(hand, starter, crib=crib).say()


@pytest.mark.parametrize(("cards", "words"), [
    # each five with the jack, the pair of fives, the jack of the starter's suit
    ("5H 5D JS 2C 9S", "fifteen two, fifteen four, and a pair is six, nobs is seven"),
    ("5H 5D 5C JS 5S", "fifteen two, fifteen four, fifteen six, fifteen eight, fifteen ten, fifteen twelve, "
                       "fifteen fourteen, fifteen sixteen, and a double pair royal is twenty-eight, "
                       "nobs is twenty-nine"),
    ("7H 7D 7C KS 2D", "a pair royal is six"),
    # A+8+6, the run A-2-3, four hearts in hand (five with a heart starter)
    ("AH 2H 3H 8H 6C", "fifteen two, and a run of three is five, a four-card flush is nine"),
    ("AH 2H 3H 8H 6H", "fifteen two, and a run of three is five, a five-card flush is ten"),
    ("KS QD 8C 2H 4D", "nineteen: nothing to count"),  # a hand of nothing is "nineteen" at the table
])
def test_a_hand_is_counted_aloud_as_players_count_it(cards, words):
    assert said(cards) == words


def test_the_crib_says_nothing_of_a_four_card_flush():
    assert said("AH 2H 3H 8H 6C", crib=True) == "fifteen two, and a run of three is five"


def test_pegging_says_each_point_of_the_last_card():
    assert score_pegging(parse_cards("10H 5D 6C 5S 5H")).say() == "thirty-one is two, a pair is four"
    assert score_pegging(parse_cards("5H 5D 5C")).say() == "fifteen two, and a pair royal is eight"
    assert score_pegging(parse_cards("9H 6D 8C 7S")).say() == "a run of four is four"


def test_numbers_are_words_up_to_the_longest_count():
    assert [number_words(n) for n in (0, 19, 20, 29, 31, 121)] == [
        "zero", "nineteen", "twenty", "twenty-nine", "thirty-one", "one hundred and twenty-one"]
