"""Golden shows and pegging sequences (tests/data), including every regression named in RULES.md."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.cribbage.cards import parse_cards
from companion.cribbage.scoring import score_pegging, score_show, show_total

DATA = Path(__file__).parent.parent / "data"


def _lines(name: str) -> list[tuple[str, str]]:
    out = []
    for line in (DATA / name).read_text().splitlines():
        text, _, why = line.partition("#")
        if text.strip():
            out.append((text.strip(), why.strip()))
    return out


@pytest.mark.parametrize(("text", "why"), _lines("show.txt"))
def test_show(text, why):
    *cards_text, kind, total = text.split()
    cards = parse_cards(cards_text)
    crib = kind == "crib"
    assert score_show(cards[:4], cards[4], crib=crib).total == int(total), why
    assert show_total(cards[:4], cards[4], crib=crib) == int(total), why


@pytest.mark.parametrize(("text", "why"), _lines("pegging.txt"))
def test_pegging(text, why):
    *cards_text, points = text.split()
    assert score_pegging(parse_cards(cards_text)).total == int(points), why
