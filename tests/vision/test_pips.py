"""Counting a number card's pips: the count is its rank on every rendered design and on decks drawn from fonts,
and on a court, an ace, or a card whose pips are hidden or joined, no count rather than a wrong one."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision.find import CARD_H, CARD_W
from companion.vision.index import CODES
from companion.vision.pips import count_pips
from companion.vision.render import cache_dir, designs, font_deck, fonts
from tests.vision.drawn import cv2

NUMBERS = [code for code in CODES if code[:-1].isdigit()]
RENDERS = cache_dir() / "renders"


def flat(card: np.ndarray) -> np.ndarray:
    """A render (BGRA) as the finder rectifies a card: on white, CARD_W x CARD_H."""
    alpha = card[:, :, 3:] / 255.0
    white = (card[:, :, :3] * alpha + 255 * (1 - alpha)).astype(np.uint8)
    return cv2.resize(white, (CARD_W, CARD_H), interpolation=cv2.INTER_AREA)


def rendered() -> dict[str, dict[str, np.ndarray]]:
    """Every design in the render cache (python -m companion.vision.train renders them), oxygen's too if an earlier
    training rendered them."""
    decks = {}
    for folder in sorted(RENDERS.iterdir()) if RENDERS.is_dir() else []:
        if not (folder / "FAILED").is_file() and all((folder / f"{code}.png").is_file() for code in CODES):
            decks[folder.name] = {code: cv2.imread(str(folder / f"{code}.png"), cv2.IMREAD_UNCHANGED)
                                  for code in CODES}
    return decks


def index_corners(cards: dict[str, np.ndarray]) -> list[bool]:
    from companion.vision.train import _index_corners

    both, other = _index_corners(cards)
    return [both, other, both, other]


def counts(cards: dict[str, np.ndarray], corners: list[bool]) -> dict[str, int | None]:
    return {code: count_pips(flat(card), corners) for code, card in cards.items()}


@pytest.mark.slow
def test_on_every_rendered_design_the_count_is_the_rank_or_none_and_none_on_courts_and_aces():
    decks = rendered()
    if not decks:
        pytest.skip(f"no renders in {RENDERS}: python -m companion.vision.train renders them")
    read = {name: counts(cards, index_corners(cards)) for name, cards in decks.items()}
    wrong = {name: [f"{code}: {n}" for code, n in found.items() if n is not None and str(n) != code[:-1]]
             for name, found in read.items()}
    assert not any(wrong.values()), wrong
    # the designs the reader learns from: their pips counted on all but a few cards whose pips touch an index
    for name in set(designs()) & set(read):
        counted = sum(read[name][code] is not None for code in NUMBERS)
        assert counted >= 0.85 * len(NUMBERS), (name, [c for c in NUMBERS if read[name][c] is None])


@pytest.mark.slow
def test_on_decks_drawn_from_fonts_the_count_is_the_rank_or_none():
    rank_fonts, suit_fonts = fonts()
    rng = np.random.default_rng(2)
    counted = 0
    for _ in range(6):
        cards, (both, other) = font_deck(rng, rank_fonts, suit_fonts)
        for code, n in counts(cards, [both, other, both, other]).items():
            assert n is None or str(n) == code[:-1], code
            counted += n is not None
    assert counted >= 0.7 * 6 * len(NUMBERS)


def test_a_deck_with_one_big_pip_on_every_card_gives_no_count(drawn_deck):
    # tests/vision/drawn.py's deck: an index top left and bottom right, one big pip in the middle
    assert set(counts(drawn_deck, [True, False, True, False]).values()) == {None}


def test_a_pip_hidden_or_another_blob_on_the_card_makes_the_count_unclear():
    rank_fonts, suit_fonts = fonts()
    cards, (both, other) = font_deck(np.random.default_rng(5), rank_fonts, suit_fonts)
    corners = [both, other, both, other]
    card = flat(cards["9S"])
    assert count_pips(card, corners) == 9
    dark = (card.min(axis=2) < 128).astype(np.uint8)
    _, _, stats, centres = cv2.connectedComponentsWithStats(dark)
    side = [s for s, (x, y) in zip(stats[1:], centres[1:], strict=True)
            if 0.2 * CARD_W < x < 0.45 * CARD_W and 0.3 * CARD_H < y < 0.7 * CARD_H and s[4] > 50]
    x, y, w, h, _ = side[0]  # a pip of a side column, under a glare
    hidden = card.copy()
    hidden[y - 2:y + h + 2, x - 2:x + w + 2] = card[CARD_H // 2, CARD_W // 2 - 1]
    assert count_pips(hidden, corners) is None
    shadow = card.copy()  # a finger's shadow in the middle
    cv2.circle(shadow, (CARD_W // 2, CARD_H // 2 + 20), 26, (60, 80, 120), -1)
    assert count_pips(shadow, corners) is None
