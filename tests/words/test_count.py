"""The count in a player's words: what the OLED, the command line and the log all say."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.cribbage.cards import parse_cards
from companion.cribbage.scoring import (
    DOUBLE_RUN,
    FIFTEEN,
    GO,
    HIS_HEELS,
    LAST_CARD,
    Score,
    ScoreItem,
    score_pegging,
    score_show,
)
from companion.i18n import number_words
from companion.words.count import ENGLISH
from companion.words.phrases import lines, said, say


def counted(text: str, *, crib: bool = False) -> str:
    *hand, starter = parse_cards(text)
    return say(score_show(hand, starter, crib=crib))


@pytest.mark.parametrize(("cards", "words"), [
    # each five with the jack, the pair of fives, the jack of the starter's suit
    ("5H 5D JS 2C 9S", "fifteen two, fifteen four, a pair is six, and his nobs is seven"),
    ("5H 5D 5C JS 5S", "fifteen two, fifteen four, fifteen six, fifteen eight, fifteen ten, fifteen twelve, "
                       "fifteen fourteen, fifteen sixteen, a double pair royal is twenty-eight, "
                       "and his nobs is twenty-nine"),
    ("7H 7D 7C KS 2D", "a pair royal is six"),
    # A+8+6, the run A-2-3, four hearts in hand (five with a heart starter)
    ("AH 2H 3H 8H 6C", "fifteen two, a run of three is five, and a four-card flush is nine"),
    ("AH 2H 3H 8H 6H", "fifteen two, a run of three is five, and a five-card flush is ten"),
    ("KS QD 8C 2H 4D", "nineteen: nothing to count"),  # a hand of nothing is "nineteen" at the table
    ("2C 3D 9S KH 5C", "fifteen two, fifteen four"),  # fifteens count on without "and"
])
def test_a_hand_is_counted_aloud_as_players_count_it(cards, words):
    assert counted(cards) == words


@pytest.mark.parametrize(("cards", "words", "total"), [
    # a run with a pair in it is one double run (8), never "a pair is two, a run of three ..., a run of three ..."
    ("7H 7D 8C 9S KH", "fifteen two, fifteen four, and a double run is twelve", 12),
    ("3H 4D 5C 5S 6H", "fifteen two, fifteen four, and a double run of four is fourteen", 14),  # 10 + two fifteens
    ("7H 8D 9C 9S 9H", "fifteen two, and a triple run is seventeen", 17),  # 15: three runs and a pair royal
    ("6H 6D 7C 8S 8H", "fifteen two, fifteen four, and a double double run is twenty", 20),  # 16
    ("9H 9D 9C 9S KD", "a double pair royal is twelve", 12),  # four of a kind
    ("2C 3C 4C 5C JC", "fifteen two, fifteen four, a run of four is eight, and a five-card flush is thirteen", 13),
])
def test_combinations_are_named_as_one(cards, words, total):
    *hand, starter = parse_cards(cards)
    score = score_show(hand, starter)
    assert say(score) == words
    assert score.total == total == score.phrases()[-1].running
    assert len(lines(score)) == len(score.items)  # the itemised lines stay one a combination's part


def test_each_phrase_stands_alone_for_paging_and_translation():
    *hand, starter = parse_cards("7H 7D 8C 9S KH")
    score = score_show(hand, starter)
    assert said(score) == ("fifteen two", "fifteen four", "and a double run is twelve")
    german = replace(ENGLISH, number=lambda n: {2: "zwei", 4: "vier", 12: "zwölf"}.get(n, str(n)),
                     templates={**ENGLISH.templates, FIFTEEN: "fünfzehn {running}",
                                DOUBLE_RUN: "ein doppelter Lauf macht {running}"},
                     last="und {phrase}")
    assert german.say(score.phrases()) == "fünfzehn zwei, fünfzehn vier, und ein doppelter Lauf macht zwölf"


def test_the_crib_says_nothing_of_a_four_card_flush():
    assert counted("AH 2H 3H 8H 6C", crib=True) == "fifteen two, and a run of three is five"


def test_pegging_says_each_point_of_the_last_card():
    assert say(score_pegging(parse_cards("10H 5D 6C 5S 5H"))) == "thirty-one for two, and a pair is four"
    assert say(score_pegging(parse_cards("5H 5D 5C"))) == "fifteen two, and a pair royal is eight"
    assert say(score_pegging(parse_cards("9H 6D 8C 7S"))) == "a run of four is four"


def test_points_without_a_combination_are_said_by_what_earned_them():
    assert say(Score((ScoreItem(HIS_HEELS, parse_cards("JH"), 2),))) == "two for his heels"
    assert say(Score((ScoreItem(GO, parse_cards("9H"), 1),))) == "one for the go"
    assert say(Score((ScoreItem(LAST_CARD, parse_cards("9H"), 1),))) == "one for last"


def test_numbers_are_words_up_to_the_longest_count():
    assert [number_words(n) for n in (0, 19, 20, 29, 31, 121)] == [
        "zero", "nineteen", "twenty", "twenty-nine", "thirty-one", "one hundred and twenty-one"]
