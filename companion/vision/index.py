"""Reading a card's index: its corner cut out, and the small convolutional network that names its rank and suit.

The corner (the top left of a rectified card; of the card turned half round too, since it may lie either way)
is reduced to what survives a change of deck and of light: its ink, stretched between paper and darkest ink,
and its redness above the paper's. A small convolutional network, run in numpy (a Pi needs no PyTorch), finds
the index in it and gives the rank (or "no index here") and the suit; its last hidden layer is also the space
in which a taught deck's cards are compared.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.lib.stride_tricks import as_strided

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
PATCH_W, PATCH_H = 32, 64
MODEL = Path(__file__).with_name("model.npz")


def corner(card: NDArray[np.uint8], right: bool = False) -> NDArray[np.uint8]:
    """The top left corner of a rectified card (BGR), or its top right."""
    x0, y0, x1, y1 = CORNER
    rows = slice(round(y0 * CARD_H), round(y1 * CARD_H))
    if right:
        return card[rows, CARD_W - round(x1 * CARD_W):CARD_W - round(x0 * CARD_W)]
    return card[rows, round(x0 * CARD_W):round(x1 * CARD_W)]


def features(patch: NDArray[np.uint8]) -> NDArray[np.float32]:
    """The features of one corner patch (BGR, any size), scaled to PATCH_W x PATCH_H: two planes, its ink
    (stretched between the paper and the darkest ink) and its redness (above the paper's tint: a warm light's, a
    cream card's), flattened (CHANNELS x PATCH_H x PATCH_W). Where the index lies in it, and how big it is, is the
    network's to find: cutting it out by its blobs failed on borders, pictures and glare."""
    import cv2

    out: NDArray[np.float32] = _features(cv2.resize(patch, (PATCH_W, PATCH_H), interpolation=cv2.INTER_AREA)[None])[0]
    return out


def card_features(*cards: NDArray[np.uint8]) -> NDArray[np.float32]:
    """The features of a rectified card's four corners (4 x F): its top left and top right as it lies, and as it
    lies turned half round (an index may be at either pair of opposite corners, or at all four); of several cards,
    each one's four in turn (one pass is quicker)."""
    import cv2

    if any(card.shape != (CARD_H, CARD_W, 3) for card in cards):
        raise ValueError(f"card_features reads rectified cards, {CARD_W} x {CARD_H} BGR (find.rectify's)")
    corners = [patch for card in cards for patch in (corner(card), corner(card, right=True),
                                                     corner(card[::-1, ::-1]), corner(card[::-1, ::-1], right=True))]
    # scaled side by side in one call (a call costs more than a corner's pixels): each corner's columns fall on
    # whole columns of the result (PATCH_W is a power of two: the scale is exact), so each comes out as alone
    scaled = cv2.resize(np.concatenate(corners, axis=1), (PATCH_W * len(corners), PATCH_H),
                        interpolation=cv2.INTER_AREA)
    return _features(scaled.reshape(PATCH_H, len(corners), PATCH_W, 3).swapaxes(0, 1))


def _features(scaled: NDArray[np.uint8]) -> NDArray[np.float32]:
    """`features` of patches scaled to PATCH_W x PATCH_H (N x PATCH_H x PATCH_W x BGR), together (N x F)."""
    scaled = scaled.reshape(len(scaled), -1, 3)  # patch x pixel x BGR
    b, g, r = (scaled[:, :, i] for i in range(3))  # (numpy's min over the channels is ten times slower)
    darkest = 255 - np.minimum(np.minimum(b, g), r)
    low, high = percentiles(darkest, (5, 99.5))[:, :, None]
    ink = np.clip((darkest.astype(np.float32) - low) / np.maximum(high - low, 24.0), 0.0, 1.0)
    redder = r.astype(np.int16) - np.maximum(g, b)  # the median of its redness, as np.median of it gives:
    middle = np.sort(redder, axis=1)[:, redder.shape[1] // 2 - 1:redder.shape[1] // 2 + 1].astype(np.float32)
    middle /= np.float32(255.0)
    red = redder.astype(np.float32) / np.float32(255.0)
    red = np.clip((red - (middle[:, :1] + middle[:, 1:]) / 2) * 3.0, 0.0, 1.0)
    return np.stack([ink, red], axis=1).reshape(len(scaled), -1).astype(np.float32)


def percentiles(values: NDArray[np.uint8], shares: tuple[float, ...]) -> NDArray[np.float64]:
    """np.percentile(values, shares, axis=-1) of rows of bytes (each share x each row; of one row, each share), to
    the last bit, from the values at the ranks it interpolates between (_ranked; the ranks' arithmetic in Python:
    numpy's calls on a few numbers cost more than the counting)."""
    rows = values.reshape(-1, values.shape[-1])
    size = rows.shape[1]
    places = [(size - 1) * (share / 100) for share in shares]  # numpy's linear method: between two ranks
    below = [min(math.floor(place), size - 1) for place in places]
    ranked = _ranked(rows, np.array(below + [min(rank + 1, size - 1) for rank in below])).astype(np.float64)
    out = np.empty((len(shares), len(rows)))
    for n, (place, rank) in enumerate(zip(places, below, strict=True)):
        low, high, gamma = ranked[:, n], ranked[:, len(shares) + n], place - rank
        out[n] = low + (high - low) * gamma if gamma < 0.5 else high - (high - low) * (1 - gamma)
    return out if values.ndim > 1 else out[:, 0]


def _ranked(rows: NDArray[np.uint8], ranks: NDArray[np.intp]) -> NDArray[np.uint8] | NDArray[np.intp]:
    """Each row's values at these ranks in its sorted order (row x rank): a frame's row of bytes from its counts
    (OpenCV counts them quicker than they sort), several rows sorted (numpy sorts bytes by counting: a radix sort)."""
    import cv2

    if len(rows) == 1:
        counts = cv2.calcHist([rows], [0], None, [256], [0, 256]).reshape(1, 256).cumsum(axis=1)
        out: NDArray[np.intp] = (counts[:, None, :] <= ranks[None, :, None]).sum(axis=2)
        return out
    sorted_rows: NDArray[np.uint8] = np.sort(rows, axis=1, kind="stable")
    return sorted_rows[:, ranks]


CHANNELS = 2
"""The planes of a corner's features: ink, redness."""
CONVS = ((8, 2, False), (16, 1, True), (32, 1, True))
"""The convolutions (3 x 3, each followed by a ReLU): their widths, strides and whether a 2 x 2 max pool
follows. Small: a Pi Zero reads four corners in a few milliseconds, and training takes minutes."""
HIDDEN = 128
"""The last hidden layer's width: what the heads read, and what a taught deck is compared in."""


@dataclass(frozen=True, slots=True)
class IndexNet:
    """Three convolutions (CONVS), a hidden layer (ReLU), and two heads: the rank (13 ranks and NO_INDEX) and the
    suit (4 suits), in one output of 18 logits. Batch normalisation is folded into the convolutions' weights."""

    mean: NDArray[np.float32]
    """The features' mean and spread over the training corners (a taught deck compares corners standardised)."""
    scale: NDArray[np.float32]
    convs: tuple[tuple[NDArray[np.float32], NDArray[np.float32]], ...]
    """Each convolution's weights (out x in x 3 x 3) and bias."""
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
            convs = tuple((data[f"conv{i}_w"].astype(np.float32), data[f"conv{i}_b"].astype(np.float32))
                          for i in range(len(CONVS)))
            return cls(mean, scale, convs, w1, b1, w2, b2, sure=float(data["sure"]),
                       sure_taught=float(data["sure_taught"]))

    def save(self, path: Path) -> None:
        convs: dict[str, Any] = {f"conv{i}_{part}": array.astype(np.float16 if part == "w" else np.float32)
                 for i, conv in enumerate(self.convs) for part, array in zip("wb", conv, strict=True)}
        np.savez_compressed(path, mean=self.mean.astype(np.float16), scale=self.scale.astype(np.float16),
                            w1=self.w1.astype(np.float16), b1=self.b1, w2=self.w2.astype(np.float16), b2=self.b2,
                            sure=np.float32(self.sure), sure_taught=np.float32(self.sure_taught), **convs)

    def with_thresholds(self, sure: float, sure_taught: float) -> IndexNet:
        return IndexNet(self.mean, self.scale, self.convs, self.w1, self.b1, self.w2, self.b2, sure, sure_taught)

    def hidden(self, feats: NDArray[np.float32]) -> NDArray[np.float32]:
        """The last hidden layer for each row of features (N x HIDDEN)."""
        x = feats.reshape(len(feats), CHANNELS, PATCH_H, PATCH_W)
        for (weights, bias), (_, stride, pool) in zip(self.convs, CONVS, strict=True):
            x = _conv3(x, weights, stride)
            if pool:  # before the bias and the ReLU (a quarter of the values): both keep which value is greatest
                x = _pool(x)
            x += bias[:, None, None]
            np.maximum(x, 0.0, out=x)
        h: NDArray[np.float32] = np.maximum(x.reshape(len(feats), -1) @ self.w1 + self.b1, 0.0)
        return h

    def probabilities(self, feats: NDArray[np.float32]) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
        """Per row of features: the rank head's probabilities (14) and the suit head's (4)."""
        return self.heads(self.hidden(feats))

    def heads(self, hidden: NDArray[np.float32]) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
        """The rank head's probabilities (14) and the suit head's (4) from the last hidden layer's rows."""
        logits = hidden @ self.w2 + self.b2
        return _softmax(logits[:, :NO_INDEX + 1]), _softmax(logits[:, NO_INDEX + 1:])


def _conv3(x: NDArray[np.float32], weights: NDArray[np.float32], stride: int = 1) -> NDArray[np.float32]:
    """A 3 x 3 convolution, zero-padded, before its bias (N x C x H x W to N x O x H/stride x W/stride), as one
    matrix product per row of the batch over the nine shifted copies of the input (ten times quicker than a sliding
    window's copy). With a stride of 1 each copy is one run through the padded rows, not a row at a time: rows of
    8 to 16 values cost more to copy than the products at the padding columns that come along (dropped)."""
    n, c, h, w = x.shape
    oh, ow = (h + stride - 1) // stride, (w + stride - 1) // stride
    across = w + 2 if stride == 1 else ow  # the outputs computed in a row
    padded = np.zeros((n, c, h + 3, w + 2), x.dtype)  # (a spare row for the last run's end; np.pad is slower)
    padded[:, :, 1:h + 1, 1:w + 1] = x
    sn, sc, sh, sw = padded.strides
    shifted = as_strided(padded, (n, c, 3, 3, oh, across), (sn, sc, sh, sw, stride * sh, stride * sw),
                         writeable=False)
    out = weights.reshape(len(weights), -1) @ shifted.reshape(n, c * 9, oh * across)
    kept: NDArray[np.float32] = out.reshape(n, len(weights), oh, across)[:, :, :, :ow]
    return kept


def _pool(x: NDArray[np.float32]) -> NDArray[np.float32]:
    """A 2 x 2 max pool: the greater of each two rows, then of each two columns, as strided views (a reshaped
    reduction over two axes is 20 times slower; rows first, they are the longer runs)."""
    h, w = x.shape[2] // 2 * 2, x.shape[3] // 2 * 2
    rows = np.maximum(x[:, :, 0:h:2], x[:, :, 1:h:2])
    out: NDArray[np.float32] = np.maximum(rows[:, :, :, 0:w:2], rows[:, :, :, 1:w:2])
    return out


def _softmax(logits: NDArray[np.float32]) -> NDArray[np.float32]:
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    out: NDArray[np.float32] = e / e.sum(axis=1, keepdims=True)
    return out
