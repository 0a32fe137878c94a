"""The batch scorer (companion.batch): the same totals as the per-hand path, for every spelling it reads."""

from __future__ import annotations

import json
import random
from importlib import resources

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.batch import CODES, RANK_POINTS, multisets, rank_points_from_engine, read_hands, score_hands
from companion.commands import CommandError
from companion.commands.score import line_total
from companion.cribbage.cards import DECK, Card
from companion.cribbage.errors import CribbageError
from companion.cribbage.scoring import show_total


def per_hand(line: str, crib: bool = False) -> int | None:
    try:
        return line_total(line, crib=crib)
    except (CribbageError, CommandError):
        return None


def test_every_spelling_is_the_card_that_card_parse_reads():
    for text, code in CODES.items():
        if text.lower() == "crib":
            continue
        assert Card.parse(text).index == code, text
    spelled = {code for code in CODES.values() if code >= 0}
    assert spelled == set(range(52))
    for card in DECK:
        for text in (str(card), str(card).lower(), card.pretty, card.payload, card.payload.lower()):
            assert CODES[text] == card.index


def test_random_hands_score_as_the_engine_does():
    rng = random.Random(7)
    deals = [rng.sample(DECK, 5) for _ in range(20_000)]
    cards = np.array([[c.index for c in deal] for deal in deals], dtype=np.int8)
    for crib in (False, True):
        expected = [show_total(deal[:4], deal[4], crib=crib) for deal in deals]
        assert score_hands(cards, crib).tolist() == expected


def test_lines_it_reads_and_lines_it_leaves_to_the_per_hand_path():
    text = ("5H 5D 5C JS 5S\n"  # 29
            "\n"  # blank: not read
            "5h, 5d, 5c, js, 5s crib\n"  # 29 under crib rules too
            "2H 4H 6H 8H KS CRIB\n"  # four-card flush: none in a crib
            "XX 5D 5C JS 5S\n"  # an unknown word
            "5H 5H 5C JS 5S\n"  # a card twice
            "5♥ 5♦ 5♣ J♠ 5♠\n"  # suit symbols
            "C5H C5D C5C CJS C5S\n"  # deck barcodes
            "10H JH QH KH 10S\n"  # ten as 10
            "5H 5D 5C JS\n"  # four cards
            "5H 5D 5C JS 5S 6S\n"  # six
            "\t5H\x0b5D\f5C\r JS  5S  \n"  # other white space
            "5♡ 5♢ 5♧ J♤ 5♠")  # hollow suits: not in its table, read by the per-hand path; no last line end
    totals, read = read_hands(text)
    assert read.tolist() == [True, False, True, True, False, False, True, True, True, False, False, True, False]
    assert totals[read].tolist() == [29, 29, 0, 29, 29, 14, 29]
    assert per_hand("5♡ 5♢ 5♧ J♤ 5♠") == 29


def test_nothing_is_no_lines():
    totals, read = read_hands("")
    assert len(totals) == len(read) == 0
    totals, read = read_hands("\n\n")
    assert read.tolist() == [False, False]


WORDS = st.one_of(st.sampled_from(sorted(CODES)), st.sampled_from(["crib", "x", "10", "C10H", "5HH", "5☃", "♥"]),
                  st.text(min_size=1, max_size=6))
SEPARATORS = st.sampled_from([" ", ",", ", ", "\t", "  ", "\x1c", "\u00a0"])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.lists(WORDS, max_size=7), SEPARATORS), min_size=1, max_size=8), st.booleans())
def test_a_line_it_reads_has_the_per_hand_total(lines, crib):
    texts = [separator.join(words) for words, separator in lines]
    texts = [t.replace("\n", " ") for t in texts]
    totals, read = read_hands("\n".join(texts) + "\n", crib=crib)
    assert len(totals) == len(texts)
    for text, total, ok in zip(texts, totals.tolist(), read.tolist(), strict=True):
        if ok:
            assert per_hand(text, crib) == total, text


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=5, max_size=5, unique=True), st.booleans(), st.randoms())
def test_every_table_spelling_of_a_hand_is_read(cards, crib_word, rng):
    spellings = {code: [t for t, c in CODES.items() if c == code] for code in range(52)}
    line = ", ".join(rng.choice(spellings[c.index]) for c in cards) + (" Crib" if crib_word else "")
    totals, read = read_hands(line)
    assert read.tolist() == [True]
    assert totals[0] == show_total(cards[:4], cards[4], crib=crib_word)


def test_a_word_with_a_zero_byte_is_left_to_the_per_hand_path():
    totals, read = read_hands("5H 5D 5C JS 5S\n5H\0 5D 5C JS 5S\n\0\n5H 5D 5C JS 5S\0\n5H 5D 5C JS 5S")
    assert read.tolist() == [True, False, False, False, True]
    assert totals[read].tolist() == [29, 29]
    assert per_hand("5H\0 5D 5C JS 5S") is None


def test_the_shipped_rank_points_are_the_engines():
    shipped = json.loads((resources.files("companion") / RANK_POINTS).read_text())["points"]
    assert len(multisets()) == len(shipped) == 6175
    assert shipped == rank_points_from_engine()  # if not: python -m companion.batch writes them again


def test_blocks_split_at_line_ends_only(monkeypatch):
    monkeypatch.setattr("companion.batch._BLOCK_BYTES", 7)  # a block ends at the first line end after 7 bytes
    text = "5♥ 5♦ 5♣ J♠ 5♠\nXX\n\n2H 4H 6H 8H KS crib\n5H 5D 5C JS 5S"
    totals, read = read_hands(text)
    assert read.tolist() == [True, False, False, True, True]
    assert totals.tolist() == [29, 0, 0, 0, 29]
