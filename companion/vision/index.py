"""Reading a card's index: its corner's features and the small network that names its rank and suit.

The corner (the top left of a rectified card; of the card turned half round too, since it may lie either way)
is described by what survives a change of deck: the gradients of its ink (a HOG), a coarse map of where the ink
is, and how red it is. A network of one hidden layer, run in numpy, gives the rank (or "no index here") and the
suit from them; its hidden layer is also the space in which a taught deck's cards are compared.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from companion.vision.find import CARD_H, CARD_W

if TYPE_CHECKING:
    from numpy.typing import NDArray

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("C", "D", "H", "S")
NO_INDEX = len(RANKS)
"""The rank head's last class: no index in this corner (a card's back, its middle, the table)."""
CODES = tuple(rank + suit for rank in RANKS for suit in SUITS)
CORNER = (0.01, 0.01, 0.25, 0.36)
"""The corner read, as fractions of the rectified card (x0, y0, x1, y1): big enough for the larger indices."""
PATCH_W, PATCH_H = 32, 48
MODEL = Path(__file__).with_name("model.npz")


def corner(card: NDArray[np.uint8], right: bool = False) -> NDArray[np.uint8]:
    """The top left corner of a rectified card (BGR), or its top right."""
    x0, y0, x1, y1 = CORNER
    rows = slice(round(y0 * CARD_H), round(y1 * CARD_H))
    if right:
        return card[rows, CARD_W - round(x1 * CARD_W):CARD_W - round(x0 * CARD_W)]
    return card[rows, round(x0 * CARD_W):round(x1 * CARD_W)]


CELL = 8
BINS = 9


def hog(image: NDArray[np.float32]) -> NDArray[np.float32]:
    """A histogram of oriented gradients (Dalal and Triggs): 8-pixel cells of 9 unsigned orientations, blocks of
    2 x 2 cells normalised (L2, clipped at 0.2, normalised again)."""
    gy, gx = np.gradient(image)
    magnitude = np.hypot(gx, gy)
    position = (np.arctan2(gy, gx) % np.pi) / (np.pi / BINS)
    low = np.floor(position).astype(np.int64)
    share = position - low
    height, width = image.shape
    cells_y, cells_x = height // CELL, width // CELL
    cell = (np.arange(height)[:, None] // CELL) * cells_x + np.arange(width)[None, :] // CELL
    size = cells_y * cells_x * BINS
    histogram = (np.bincount((cell * BINS + low % BINS).ravel(), (magnitude * (1 - share)).ravel(), size)
                 + np.bincount((cell * BINS + (low + 1) % BINS).ravel(), (magnitude * share).ravel(), size))
    cells = histogram.reshape(cells_y, cells_x, BINS)
    blocks = np.concatenate([cells[:-1, :-1], cells[:-1, 1:], cells[1:, :-1], cells[1:, 1:]], axis=2)
    blocks = blocks / np.sqrt((blocks**2).sum(axis=2, keepdims=True) + 1e-6)
    blocks = np.minimum(blocks, 0.2)
    blocks = blocks / np.sqrt((blocks**2).sum(axis=2, keepdims=True) + 1e-6)
    out: NDArray[np.float32] = blocks.ravel().astype(np.float32)
    return out


def _index_box(ink: NDArray[np.float32]) -> tuple[int, int, int, int] | None:
    """Where the index's ink lies in a corner patch (x0, y0, x1, y1), or None when there is none: the union of
    the inked blobs, less the card's edge or the table along the outer sides and the pips reaching in from the
    inner sides."""
    import cv2

    height, width = ink.shape
    count, _, stats, _ = cv2.connectedComponentsWithStats((ink > 0.45).astype(np.uint8), connectivity=8)
    kept = []
    for x, y, w, h, area in stats[1:count]:
        if area < 3 or x + w >= width or y + h >= height:  # a speck, or reaching in from the card's middle
            continue
        if (x == 0 or y == 0) and (w > 0.5 * width or h > 0.5 * height):  # the card's edge, the table beyond it
            continue
        kept.append((x, y, x + w, y + h))
    if not kept:
        return None
    boxes = np.array(kept)
    return int(boxes[:, 0].min()), int(boxes[:, 1].min()), int(boxes[:, 2].max()), int(boxes[:, 3].max())


def features(patch: NDArray[np.uint8]) -> NDArray[np.float32]:
    """The features of one corner patch (BGR, any size): where its index is, cut out and scaled to PATCH_W x
    PATCH_H (so that a deck's index size and a found card's small misplacement do not matter), described by the
    gradients of its ink (HOG), a coarse map of its ink, its redness."""
    import cv2

    patch = cv2.resize(patch, (PATCH_W * 2, PATCH_H * 2), interpolation=cv2.INTER_AREA)
    ink = 255.0 - patch.min(axis=2).astype(np.float32)
    low, high = np.percentile(ink, (5, 99.5))
    ink = np.clip((ink - low) / max(high - low, 24.0), 0.0, 1.0)
    box = _index_box(ink)
    if box is None:
        x0, y0, x1, y1 = 0, 0, ink.shape[1], ink.shape[0]
    else:  # the index's box, widened to the patch's proportions about its centre
        inked_w, inked_h = max(box[2] - box[0], 4), max(box[3] - box[1], 6)
        w = max(inked_w, inked_h * PATCH_W / PATCH_H) + 2
        h = max(inked_h, inked_w * PATCH_H / PATCH_W) + 2
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        x0, y0, x1, y1 = round(cx - w / 2), round(cy - h / 2), round(cx + w / 2), round(cy + h / 2)
    pad = max(0, -x0, -y0, x1 - ink.shape[1], y1 - ink.shape[0])
    ink = np.pad(ink, pad)[y0 + pad:y1 + pad, x0 + pad:x1 + pad]
    colour = np.pad(patch, ((pad, pad), (pad, pad), (0, 0)), mode="edge")[y0 + pad:y1 + pad, x0 + pad:x1 + pad]
    ink = cv2.resize(ink, (PATCH_W, PATCH_H), interpolation=cv2.INTER_AREA)
    coarse = cv2.resize(ink, (8, 12), interpolation=cv2.INTER_AREA).ravel()
    b, g, r = (cv2.resize(colour[:, :, i], (PATCH_W, PATCH_H)).astype(np.float32) for i in range(3))
    red = np.clip((r - np.maximum(g, b)) / 255.0, 0.0, 1.0)
    inked = ink > 0.35
    redness = float(red[inked].mean()) if inked.any() else 0.0
    red_map = cv2.resize(red, (4, 6), interpolation=cv2.INTER_AREA).ravel()
    found = 0.0 if box is None else 1.0
    return np.concatenate([hog(ink), coarse, red_map, [redness * 4, found]]).astype(np.float32)


def card_features(card: NDArray[np.uint8]) -> NDArray[np.float32]:
    """The features of a rectified card's four corners (4 x F): its top left and top right as it lies, and as it
    lies turned half round (an index may be at either pair of opposite corners, or at all four)."""
    turned = card[::-1, ::-1]
    return np.stack([features(corner(card)), features(corner(card, right=True)),
                     features(corner(turned)), features(corner(turned, right=True))])


@dataclass(frozen=True, slots=True)
class IndexNet:
    """One hidden layer (ReLU) to a rank head (13 ranks and NO_INDEX) and a suit head (4 suits)."""

    mean: NDArray[np.float32]
    scale: NDArray[np.float32]
    w1: NDArray[np.float32]
    b1: NDArray[np.float32]
    w2: NDArray[np.float32]
    b2: NDArray[np.float32]
    sure: float
    """The confidence from which a reading is sure (calibrated on decks left out of training)."""
    sure_taught: float
    """The same with a taught deck."""

    @classmethod
    def load(cls, path: Path = MODEL) -> IndexNet:
        with np.load(path) as data:
            mean, scale, w1, b1, w2, b2 = (data[name].astype(np.float32)
                                           for name in ("mean", "scale", "w1", "b1", "w2", "b2"))
            return cls(mean, scale, w1, b1, w2, b2, sure=float(data["sure"]), sure_taught=float(data["sure_taught"]))

    def save(self, path: Path) -> None:
        np.savez_compressed(path, mean=self.mean, scale=self.scale, w1=self.w1.astype(np.float16), b1=self.b1,
                            w2=self.w2.astype(np.float16), b2=self.b2, sure=np.float32(self.sure),
                            sure_taught=np.float32(self.sure_taught))

    def hidden(self, feats: NDArray[np.float32]) -> NDArray[np.float32]:
        h: NDArray[np.float32] = np.maximum((feats - self.mean) / self.scale @ self.w1 + self.b1, 0.0)
        return h

    def probabilities(self, feats: NDArray[np.float32]) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
        """Per row of features: the rank head's probabilities (14) and the suit head's (4)."""
        logits = self.hidden(feats) @ self.w2 + self.b2
        return _softmax(logits[:, :NO_INDEX + 1]), _softmax(logits[:, NO_INDEX + 1:])


def _softmax(logits: NDArray[np.float32]) -> NDArray[np.float32]:
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    out: NDArray[np.float32] = e / e.sum(axis=1, keepdims=True)
    return out
