"""Every four-card hand with every starter (C(52,4) x 48 = 12,994,800), counted per score under hand and
crib rules, must reproduce the table in docs/rules.md (Lumetta's published hand column; crib rules enumerated).

The enumeration is split by the starter's rank so pytest-xdist spreads it; each chunk must equal its line
in tests/data/show_counts_by_starter.json, and those lines must add up to the RULES.md table: together that
is the whole enumeration checked against the published figures. The table is read from docs/rules.md too.
The hands are counted by the batch scorer (`companion.batch`, numpy), and every one of its totals must equal
the per-hand `show_total`.
"""

from __future__ import annotations

import functools
import itertools
import json
import re
from pathlib import Path

import numpy as np
import pytest

from companion.batch import score_hands
from companion.cribbage.cards import DECK, Card, Suit
from companion.cribbage.scoring import score_show, show_total
from tests.cribbage.all_hands import RULES_TABLE

DATA = Path(__file__).parent.parent / "data" / "show_counts_by_starter.json"
RULES_PAGE = Path(__file__).parents[2] / "docs" / "rules.md"

@functools.cache
def every_four_cards() -> np.ndarray:
    """All C(52,4) = 270,725 hands as rows of card indices."""
    return np.array(list(itertools.combinations(range(52), 4)), dtype=np.int8)


def count_with_starter(starter: Card, *, each: bool) -> tuple[list[int], list[int]]:
    """Hands per score (0..29) for every four cards of the other 51 with this starter: hand rules, crib rules.
    The batch scorer counts them; with `each`, the per-hand scorer must give the same total for every one."""
    hands = every_four_cards()[~(every_four_cards() == starter.index).any(axis=1)]
    cards = np.column_stack((hands, np.full(len(hands), starter.index, dtype=np.int8)))
    hand_totals, crib_totals = score_hands(cards), score_hands(cards, crib=True)
    rest = [c for c in DECK if c != starter]  # its four-card combinations come in the order of `hands`
    for hand, in_hand, in_crib in zip(itertools.combinations(rest, 4) if each else (), hand_totals.tolist(),
                                      crib_totals.tolist(), strict=each):
        if show_total(hand, starter) != in_hand or show_total(hand, starter, crib=True) != in_crib:
            pytest.fail(f"{hand} {starter}: batch {in_hand}/{in_crib}, per hand "
                        f"{show_total(hand, starter)}/{show_total(hand, starter, crib=True)}")
    return np.bincount(hand_totals, minlength=30).tolist(), np.bincount(crib_totals, minlength=30).tolist()


@pytest.mark.slow
@pytest.mark.parametrize("rank", range(1, 14))
def test_every_hand_with_starters_of_one_rank(rank):
    golden = json.loads(DATA.read_text())[str(rank)]
    for suit in Suit:  # each suit separately: renaming suits must not change the counts either
        # hand by hand against the per-hand scorer with one starter a rank (its suit turns with the rank, so every
        # suit starts): the other suits' hands are the same hands renamed, counted by the batch scorer
        hand_counts, crib_counts = count_with_starter(Card(rank, suit), each=suit == list(Suit)[rank % 4])
        assert hand_counts == golden["hand"], suit
        assert crib_counts == golden["crib"], suit


def test_the_chunks_add_up_to_the_published_table():
    golden = json.loads(DATA.read_text())
    assert sorted(golden) == sorted(str(r) for r in range(1, 14))
    for column, kind in enumerate(("hand", "crib")):
        totals = [4 * sum(golden[str(r)][kind][score] for r in range(1, 14)) for score in range(30)]
        expected = [RULES_TABLE.get(score, (0, 0))[column] for score in range(30)]
        assert totals == expected, kind
        assert sum(totals) == 12_994_800
        mean = sum(score * n for score, n in enumerate(totals)) / sum(totals)
        assert round(mean, 4) == {"hand": 4.7692, "crib": 4.7348}[kind]


def test_the_rules_page_shows_the_table_the_tests_check():
    page = RULES_PAGE.read_text()
    section = page[page.index("## All hands by score"):page.index("## The table's inputs")]
    rows = re.findall(r"^\| (\d+) \| ([\d,]+) \| ([\d,]+) \|$", section, flags=re.MULTILINE)
    table = {int(score): (int(hand.replace(",", "")), int(crib.replace(",", ""))) for score, hand, crib in rows}
    assert table == {score: RULES_TABLE.get(score, (0, 0)) for score in range(30)}
    assert "The mean is 4.7692 for a hand and 4.7348 for a crib." in section


def _suit_patterns(ranks: tuple[int, ...]) -> list[tuple[Card, ...]]:
    """Several ways to give suits to five ranks: plain, four-card and five-card flushes, nobs, his-heels jacks."""
    suits = list(Suit)
    patterns = []
    for shift in range(4):  # rotate a default assignment (always valid: at most four of a rank)
        seen: dict[int, int] = {}
        cards = []
        for r in ranks:
            cards.append(Card(r, suits[(seen.get(r, 0) + shift + r) % 4]))
            seen[r] = seen.get(r, 0) + 1
        patterns.append(tuple(cards))
    if len(set(ranks)) == 5:
        for order in (ranks, ranks[1:] + ranks[:1]):  # flushes, and a different card as the starter
            hearts = [Card(r, Suit.HEARTS) for r in order]
            patterns.append(tuple(hearts))
            patterns.append((*hearts[:4], Card(order[4], Suit.SPADES)))
            patterns.append((*hearts[:3], Card(order[3], Suit.CLUBS), hearts[4]))
    return patterns


def test_the_fast_total_equals_the_itemised_count_for_every_rank_multiset():
    checked = 0
    for ranks in itertools.combinations_with_replacement(range(1, 14), 5):
        if any(ranks.count(r) > 4 for r in ranks):
            continue
        for cards in _suit_patterns(ranks):
            for hand, starter in ((cards[:4], cards[4]), (cards[1:], cards[0])):
                for crib in (False, True):
                    assert show_total(hand, starter, crib=crib) == score_show(hand, starter, crib=crib).total, (
                        hand, starter, crib)
                    checked += 1
    assert checked > 100_000
