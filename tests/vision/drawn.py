"""A deck drawn here (plain Hershey-font indices, suits as simple shapes): a design no model has seen, for teaching
and for the training smoke; and where the sample photographs of a design the shipped model was not trained on
are (tests/vision/data)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2", reason="the card reader needs the vision extra (python3 dev.py test installs it)")

DATA = Path(__file__).parent / "data"
RED = (30, 30, 200, 255)
BLACK = (20, 20, 20, 255)


def _suit(image: np.ndarray, suit: str, x: int, y: int, size: int) -> None:
    colour = RED if suit in "DH" else BLACK
    r = size // 4
    if suit == "D":
        cv2.fillPoly(image, [np.array([[x, y - 2 * r], [x + r + 3, y], [x, y + 2 * r], [x - r - 3, y]])], colour)
    elif suit == "H":
        cv2.circle(image, (x - r + 1, y - r // 2), r, colour, -1)
        cv2.circle(image, (x + r - 1, y - r // 2), r, colour, -1)
        cv2.fillPoly(image, [np.array([[x - 2 * r, y], [x + 2 * r, y], [x, y + 2 * r]])], colour)
    elif suit == "C":
        for dx, dy in ((0, -r), (-r, r // 2), (r, r // 2)):
            cv2.circle(image, (x + dx, y + dy), r, colour, -1)
        cv2.rectangle(image, (x - 2, y), (x + 2, y + 2 * r), colour, -1)
    else:
        cv2.circle(image, (x - r + 1, y + r // 2), r, colour, -1)
        cv2.circle(image, (x + r - 1, y + r // 2), r, colour, -1)
        cv2.fillPoly(image, [np.array([[x - 2 * r, y], [x + 2 * r, y], [x, y - 2 * r]])], colour)
        cv2.rectangle(image, (x - 2, y), (x + 2, y + 2 * r), colour, -1)


def drawn_card(code: str) -> np.ndarray:
    """A card of the drawn deck, BGRA, 250 x 350: its index top left and (turned) bottom right, a big pip."""
    rank, suit = code[:-1], code[-1]
    card = np.zeros((350, 250, 4), np.uint8)
    cv2.rectangle(card, (0, 0), (249, 349), (245, 245, 240, 255), -1)
    for _ in range(2):
        colour = RED if suit in "DH" else BLACK
        cv2.putText(card, rank, (8 if len(rank) == 1 else 2, 42), cv2.FONT_HERSHEY_DUPLEX, 1.3 if len(rank) == 1
                    else 1.0, colour, 3, cv2.LINE_AA)
        _suit(card, suit, 24, 72, 30)
        card = np.ascontiguousarray(card[::-1, ::-1])
    _suit(card, suit, 125, 175, 90)
    return card


def careful_photos(deck: dict[str, np.ndarray], rng: np.random.Generator, folder: Path) -> dict[str, Path]:
    """A careful photograph of each card (a PNG in `folder`), taken again until the card is found in it (as the
    teaching walk asks)."""
    from companion.vision.find import find_cards
    from companion.vision.synth import scene

    photos = {}
    for code, card in deck.items():
        frame, _ = scene(rng, [card], careful=True)
        while not find_cards(frame):
            frame, _ = scene(rng, [card], careful=True)
        photos[code] = folder / f"{code}.png"
        cv2.imwrite(str(photos[code]), frame)
    return photos


def nine_with_a_sixs_index() -> np.ndarray:
    """A drawn 9♠ whose index corners are a 6♠'s: an upright 9's index, read upside down, is a 6 (as
    ancient-egyptians draws it); its pips still count nine."""
    from companion.vision.render import font_deck, fonts

    rank_fonts, suit_fonts = fonts()
    cards, _ = font_deck(np.random.default_rng(10), rank_fonts, suit_fonts)
    card = cards["9S"].copy()
    height, width = card.shape[:2]
    rows, columns = round(0.36 * height), round(0.25 * width)
    for ys, xs in ((slice(0, rows), slice(0, columns)), (slice(height - rows, height), slice(width - columns, width))):
        card[ys, xs] = cards["6S"][ys, xs]
    return card
