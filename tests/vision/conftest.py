"""A deck drawn here (plain Hershey-font indices, suits as simple shapes): a design no model has seen, for teaching
and for the training smoke; and the sample photographs of a design the shipped model was not trained on."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from companion.vision.index import CODES

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


@pytest.fixture(scope="session")
def drawn_deck() -> dict[str, np.ndarray]:
    return {code: drawn_card(code) for code in CODES}


@pytest.fixture(scope="session")
def recognizer():
    from companion.vision import Recognizer

    return Recognizer.load()
