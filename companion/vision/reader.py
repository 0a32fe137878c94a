"""The recognizer: the cards in a frame, each with its code, a confidence and whether it is sure; and teaching
it one particular deck from a photo of each card."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from companion.vision.find import find_cards, rectify
from companion.vision.index import CODES, MODEL, NO_INDEX, IndexNet, card_features

if TYPE_CHECKING:
    from numpy.typing import NDArray

DECK_FILE = "deck.npz"
"""What a taught deck's folder holds: the corner features of each of its 52 cards."""
PRESENT = 0.5
"""A card is read only when one of its corners shows an index at least this likely (else it is no card)."""
TAUGHT_SHARPNESS = 40.0
"""How sharply likeness to a taught card turns into probability (the softmax's inverse temperature)."""
TAUGHT_LEAST = 0.5
"""A taught deck's card is seen when a corner is at least this like one of its index corners."""


class UnreadableImage(ValueError):
    """A photo that is no image this reader can decode, or in which teaching found no card."""


@dataclass(frozen=True, slots=True)
class CardReading:
    code: str
    """As crib writes cards: "10H", "QS", "AD"."""
    confidence: float
    """0..1: how likely the code is right."""
    sure: bool
    """The board would enter it without asking."""
    box: tuple[int, int, int, int]
    """x0, y0, x1, y1 in the frame's pixels."""


class Recognizer:
    """Reads cards from frames: the shipped model, and a taught deck if one was given."""

    def __init__(self, net: IndexNet, taught: NDArray[np.float32] | None = None) -> None:
        self.net = net
        self.taught: NDArray[np.float32] | None = None
        if taught is not None:  # each card's index corners, as the reader compares them
            described = self._describe(taught.reshape(-1, taught.shape[-1])).reshape(len(CODES), 4, -1)
            index = _index_pairs(described)
            self.taught = described[:, [0, 1, 2, 3] if index.all() else ([0, 2] if index[0] else [1, 3])]

    @classmethod
    def load(cls, deck: Path | None = None) -> Recognizer:
        """The shipped model, plus the deck taught into the folder `deck` (by `learn`) if given."""
        import cv2

        cv2.setNumThreads(1)  # a frame is small: threads would cost a Pi's memory more than they save
        return cls.load_with(IndexNet.load(MODEL), deck)

    @classmethod
    def load_with(cls, net: IndexNet, deck: Path | None = None) -> Recognizer:
        """A given network, plus a taught deck."""
        if deck is None:
            return cls(net)
        path = Path(deck) / DECK_FILE
        if not path.is_file():
            raise FileNotFoundError(f"{deck} holds no taught deck ({DECK_FILE}): teach one with "
                                    "`crib recognize --learn PHOTOS --out DIR`")
        with np.load(path) as data:
            codes, feats = tuple(str(c) for c in data["codes"]), data["features"].astype(np.float32)
        if codes != CODES:
            raise ValueError(f"{path} is not a whole taught deck: teach it again with `crib recognize --learn`")
        return cls(net, feats)

    def read(self, frame: NDArray[np.uint8]) -> list[CardReading]:
        """The cards in an HxWx3 uint8 BGR frame, the likeliest first."""
        readings = []
        for quad in find_cards(frame):
            reading = self._read_card(rectify(frame, quad))
            if reading is not None:
                code, confidence, sure = reading
                x0, y0 = np.floor(quad.min(axis=0)).astype(int)
                x1, y1 = np.ceil(quad.max(axis=0)).astype(int)
                height, width = frame.shape[:2]
                box = (max(0, int(x0)), max(0, int(y0)), min(width, int(x1)), min(height, int(y1)))
                readings.append(CardReading(code, confidence, sure, box))
        return sorted(readings, key=lambda r: -r.confidence)

    def read_bytes(self, data: bytes) -> list[CardReading]:
        """The cards in a JPEG or PNG file's bytes (what a phone sends)."""
        return self.read(decode(data))

    def _read_card(self, card: NDArray[np.uint8]) -> tuple[str, float, bool] | None:
        feats = card_features(card)
        ranks, suits = self.net.probabilities(feats)
        present = 1.0 - ranks[:, NO_INDEX]
        if present.max() < PRESENT and self.taught is None:
            return None
        joint = ranks[:, :NO_INDEX, None] * suits[:, None, :]  # corner x rank x suit
        joint = joint.reshape(len(feats), -1) / np.maximum(present[:, None], 1e-6)
        probs = (present[:, None] * joint).sum(axis=0) / max(float(present.sum()), 1e-6)
        if self.taught is not None:  # the likeness of the best-matching pair of corners, for each taught card
            likeness = np.einsum("cf,kif->cki", self._describe(feats), self.taught).max(axis=(0, 2))
            if likeness.max() < TAUGHT_LEAST and present.max() < PRESENT:
                return None
            taught = np.exp(TAUGHT_SHARPNESS * (likeness - likeness.max()))
            probs = probs * taught if present.max() >= PRESENT else taught
            probs = probs / probs.sum()
        best_code = int(probs.argmax())
        confidence = float(probs[best_code])
        sure = confidence >= (self.net.sure_taught if self.taught is not None else self.net.sure)
        return CODES[best_code], round(confidence, 4), sure

    def _describe(self, feats: NDArray[np.float32]) -> NDArray[np.float32]:
        """Corners as the taught deck is compared: the network's hidden layer and the standardised features, each
        of unit length, halved (so that a dot product is the mean of the two likenesses)."""
        standard = (feats - self.net.mean) / self.net.scale
        out: NDArray[np.float32] = np.concatenate([self._unit(self.net.hidden(feats)), self._unit(standard)],
                                                  axis=-1) / np.sqrt(2)
        return out

    @staticmethod
    def _unit(vectors: NDArray[np.float32]) -> NDArray[np.float32]:
        out: NDArray[np.float32] = vectors / np.maximum(np.linalg.norm(vectors, axis=-1, keepdims=True), 1e-6)
        return out


def _index_pairs(described: NDArray[np.float32]) -> NDArray[np.bool_]:
    """Which of a taught deck's corner pairs (top left with its turned twin; top right with its) hold its index:
    those in which the cards are least alike (blank corners, or a border's ornament, are alike on every card).
    `described`: card x corner x the reader's description."""
    likeness = []
    for pair in ([0, 2], [1, 3]):
        corners = described[:, pair].reshape(-1, described.shape[-1])
        likeness.append(float((corners @ corners.T).mean()))
    index: NDArray[np.bool_] = np.array(likeness) <= min(likeness) + 0.1
    return index


def decode(data: bytes) -> NDArray[np.uint8]:
    """A JPEG or PNG file's bytes as a BGR frame; UnreadableImage when they are no such image."""
    import cv2

    frame = cv2.imdecode(np.frombuffer(data, dtype=np.uint8), cv2.IMREAD_COLOR) if data else None
    if frame is None:
        raise UnreadableImage("not a JPEG or PNG image this reader can decode")
    image: NDArray[np.uint8] = frame
    return image


def learn(photos: Mapping[str, Path], out: Path, progress: Callable[[int, int], None] | None = None) -> None:
    """Teach one deck from one photo of each of its 52 cards (code -> photo) and keep what was learned in the
    folder `out` (made if need be). UnreadableImage names a photo that is no image or shows no card; ValueError
    says which codes are wrong or missing."""
    wrong = sorted(set(photos) - set(CODES))
    missing = [code for code in CODES if code not in photos]
    if wrong or missing:
        problems = ([f"not a card: {', '.join(wrong)}"] if wrong else []) + (
            [f"missing: {', '.join(missing)}"] if missing else [])
        raise ValueError("a deck is taught from one photo of each of the 52 cards, named by its code (AS, 10H, QD): "
                         + "; ".join(problems))
    feats = []
    for done, code in enumerate(CODES):
        path = Path(photos[code])
        try:
            frame = decode(path.read_bytes())
        except OSError as error:
            raise UnreadableImage(f"{path}: cannot read it ({error.strerror})") from None
        except UnreadableImage as error:
            raise UnreadableImage(f"{path}: {error}") from None
        quads = find_cards(frame)
        if not quads:
            raise UnreadableImage(f"{path}: no card found in it: photograph the card whole, on a plain table")
        feats.append(card_features(rectify(frame, quads[0])))
        if progress is not None:
            progress(done + 1, len(CODES))
    out.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(out / DECK_FILE, codes=np.array(CODES), features=np.stack(feats).astype(np.float16))
