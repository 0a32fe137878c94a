"""Every four-card hand with every starter (C(52,4) x 48 = 12,994,800), counted per score under hand and
crib rules, must reproduce the table in docs/rules.md (Lumetta's published hand column; crib rules enumerated).

The enumeration is split by the starter's rank so pytest-xdist spreads it; each chunk must equal its line
in tests/data/show_counts_by_starter.json, and those lines must add up to the RULES.md table: together that
is the whole enumeration checked against the published figures. The table is read from docs/rules.md too.
"""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

import pytest

from companion.cribbage.cards import DECK, Card, Suit
from companion.cribbage.scoring import score_show, show_total

DATA = Path(__file__).parent.parent / "data" / "show_counts_by_starter.json"
RULES_PAGE = Path(__file__).parents[2] / "docs" / "rules.md"

# docs/rules.md, "All hands by score" (RULES.md's "Facts to test against"): score -> (hand, crib); every other
# score has no hands.
RULES_TABLE = {
    0: (1_009_008, 1_022_208), 1: (99_792, 99_792), 2: (2_813_796, 2_839_800), 3: (505_008, 508_908),
    4: (2_855_676, 2_868_960), 5: (697_508, 703_496), 6: (1_800_268, 1_787_176), 7: (751_324, 755_320),
    8: (1_137_236, 1_118_336), 9: (361_224, 358_368), 10: (388_740, 378_240), 11: (51_680, 43_880),
    12: (317_340, 310_956), 13: (19_656, 16_548), 14: (90_100, 88_132), 15: (9_168, 9_072),
    16: (58_248, 57_288), 17: (11_196, 11_196), 18: (2_708, 2_264), 20: (8_068, 7_828), 21: (2_496, 2_472),
    22: (444, 444), 23: (356, 356), 24: (3_680, 3_680), 28: (76, 76), 29: (4, 4),
}


def count_with_starter(starter: Card) -> tuple[list[int], list[int]]:
    """Hands per score (0..29) for every four cards of the other 51 with this starter: hand rules, crib rules."""
    hand_counts, crib_counts = [0] * 30, [0] * 30
    rest = [c for c in DECK if c != starter]
    for hand in itertools.combinations(rest, 4):
        hand_counts[show_total(hand, starter)] += 1
        crib_counts[show_total(hand, starter, crib=True)] += 1
    return hand_counts, crib_counts


@pytest.mark.slow
@pytest.mark.parametrize("rank", range(1, 14))
def test_every_hand_with_starters_of_one_rank(rank):
    golden = json.loads(DATA.read_text())[str(rank)]
    for suit in Suit:  # each suit separately: renaming suits must not change the counts either
        hand_counts, crib_counts = count_with_starter(Card(rank, suit))
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
