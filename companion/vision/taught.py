"""A taught deck: one photograph of each of a deck's 52 cards, rectified, and the matching of a found card against
them.

A card is compared whole, not only by its index: two cards of one deck differ in their pips' layout and shape, a
face's picture, and their indices. Each card is cut into tiles (the whole card coarsely, its two top corners, where
an index is, finely); each tile is made independent of the light (its mean taken off, its contrast scaled, the card's
paper as white) and compared with the same tile of each taught card, with the card as it lies and turned half
round. The tiles that disagree most are left out (a finger, a neighbour, a glare hides part of a card), and what is
left gives each taught card a likeness, which the reader weighs with what the card's index reads
(companion/vision/reader.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from companion.vision.find import CARD_H, CARD_W
from companion.vision.index import CODES, NO_INDEX, IndexNet, card_features
from companion.vision.pips import SHOWN, count_pips

if TYPE_CHECKING:
    from numpy.typing import NDArray

VERSION = 2
"""The taught deck file's format: 2 keeps each card's rectified photograph (1, the first reader's, kept index
features only)."""
WHOLE = (64, 88, 4, 4)
"""The whole card: compared at this width and height, in this many tiles across and down."""
CORNER = (0.22, 0.3, 32, 48, 2, 3)
"""Each top corner: this share of the card's width and height, compared at this width and height, in tiles."""
TRIMMED = 0.25
"""The greatest share of tiles left out of a likeness, those farthest from every taught card's (what a finger or a
neighbour hides)."""
FAR = 0.3
"""How far a tile must be from every taught card's to be left out (the mean squared difference of tiles of unit
contrast: 0 alike, 2 unrelated)."""
FLAT = 0.04
"""The least contrast a tile is scaled for, as a share of the paper's white: a blank tile stays near blank."""
RIVALS = 6
"""The likeliest cards compared again on the tiles in which they differ."""
SHARPNESS = 20.0
"""How sharply likeness turns into probability (a softmax's inverse temperature, beside the index's
log-probabilities)."""
LEAST = 0.45
"""A found card is a taught card only when it is at least this like one (else it is read as if none were taught)."""
ZOOMS = (1.0, 1.03, 1.06, 0.97, 0.94)
"""Each taught card is compared as it was rectified and zoomed about its centre by these factors (a teaching photo's
card found with its sides a little beyond the card's, or within them: a whole-card likeness of 0.34 is 0.74 at 1.06),
the best zoom of each card counting."""
CHUNK = 13
"""The taught entries (cards at a zoom) made and described at a time (all 260 at once, the index network's buffers
took 320 MB)."""


class DeckError(ValueError):
    """A taught deck's file that cannot be used: an older format, a damaged file, not all 52 cards."""


class TaughtDeck:
    """A deck taught from one photograph of each card: its rectified cards, described for comparing."""

    def __init__(self, cards: NDArray[np.uint8], net: IndexNet) -> None:
        """`cards`: the 52 rectified cards (52 x CARD_H x CARD_W x 3, BGR) in the order of CODES; `net`: the index
        network, whose last hidden layer describes each taught card's corners."""
        # an entry a card at a zoom, zoom-major (the first 52: the cards as taught), CHUNK entries made at a time
        total = len(ZOOMS) * len(cards)
        self.tiles = np.empty((total, *describe(cards[0]).shape), np.float32)  # entry x tile x pixels
        hidden_rows = []
        for start in range(0, total, CHUNK):
            entries = [_zoomed(cards[n % len(cards)], ZOOMS[n // len(cards)])
                       for n in range(start, min(start + CHUNK, total))]
            self.tiles[start:start + len(entries)] = [describe(entry) for entry in entries]
            hidden_rows.append(net.hidden(np.concatenate([card_features(entry) for entry in entries])))
        # entry x tile: the mean square of each of its tiles (without a temporary as big as the tiles)
        self.self_likeness = np.einsum("etp,etp->et", self.tiles, self.tiles) / np.float32(self.tiles.shape[2])
        hidden = np.concatenate(hidden_rows)  # four corners an entry
        ranks, suits = net.heads(hidden)
        taught = slice(0, 4 * len(cards))
        self.heads = ranks[taught].reshape(len(cards), 4, -1), suits[taught].reshape(len(cards), 4, -1)  # the index
        self.corners = _unit(hidden).reshape(total, 4, -1)  # entry x corner x HIDDEN
        self.shown = (1.0 - ranks[:, NO_INDEX]).reshape(total, 4)  # entry x corner: how likely an index shows
        self.pips = [count_pips(card, shown >= SHOWN)  # what the pips count (None: unclear)
                     for card, shown in zip(cards, self.shown[:len(cards)], strict=True)]

    @classmethod
    def load(cls, path: Path, net: IndexNet) -> TaughtDeck:
        """The deck kept in the file `path` by `save`, described with `net`; DeckError says what is wrong with a
        file it cannot use."""
        import zipfile

        again = "teach the deck again (crib recognize --learn, or the board's /scan page)"
        try:
            with np.load(path) as data:
                if "version" not in data:
                    raise DeckError(f"{path} was taught by an older version of the reader: {again}")
                version = int(data["version"])
                if version != VERSION:
                    raise DeckError(f"{path} is a taught deck of format {version}, this reader reads {VERSION}: "
                                    f"{again}")
                codes, cards = tuple(str(code) for code in data["codes"]), np.asarray(data["cards"], np.uint8)
        except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as error:
            if isinstance(error, DeckError):
                raise
            raise DeckError(f"{path} is damaged ({error}): {again}") from None
        if codes != CODES or cards.shape != (len(CODES), CARD_H, CARD_W, 3):
            raise DeckError(f"{path} does not hold the 52 cards of a deck: {again}")
        return cls(cards, net)

    @staticmethod
    def save(cards: NDArray[np.uint8], path: Path) -> None:
        """Keep the 52 rectified cards (in the order of CODES) in the file `path`."""
        np.savez_compressed(path, version=np.int32(VERSION), codes=np.array(CODES), cards=cards.astype(np.uint8))

    def likeness(self, card: NDArray[np.uint8]) -> tuple[NDArray[np.float32], NDArray[np.int64]]:
        """How like each taught card a rectified card is (-1..1, the better of its two ways round), at the zoom of
        the taught card it is likest (the entries: card at zoom, for index_likeness): first over all its tiles;
        then, among the likeliest cards, over the tiles in which those differ (a pip more, a suit's shape),
        weighted by how much they differ."""
        query = np.stack([describe(card), describe(card[::-1, ::-1])])  # way x tile x pixels
        # each tile's likeness to the same tile of each taught entry: tile x way x entry
        agree = np.matmul(query.transpose(1, 0, 2), self.tiles.transpose(1, 2, 0)) / query.shape[2]
        own = (query**2).mean(axis=2).T[:, :, None]  # tile x way x 1
        theirs = self.self_likeness.T[:, None, :]  # tile x 1 x entry
        # a tile far from every taught card's (a finger, a neighbour, a glare over it) is left out, for every card
        nearest = (own + theirs - 2 * agree).min(axis=2)  # tile x way: the least squared distance
        far = np.maximum(np.quantile(nearest, 1 - TRIMMED, axis=0, keepdims=True), FAR)
        keep = (nearest <= far).astype(np.float32)[:, :, None]
        groups = slice(0, WHOLE[2] * WHOLE[3]), slice(WHOLE[2] * WHOLE[3], None)  # the whole card, its corners
        # way x entry: the whole card and its corners count half each
        likeness = (_weighted(agree[groups[0]], own[groups[0]], theirs[groups[0]], keep[groups[0]])
                    + _weighted(agree[groups[1]], own[groups[1]], theirs[groups[1]], keep[groups[1]])) / 2
        # each card at its likeliest zoom
        zoom = likeness.max(axis=0).reshape(len(ZOOMS), len(CODES)).argmax(axis=0)
        best = zoom * len(CODES) + np.arange(len(CODES))  # card -> entry
        likeness = likeness[:, best]  # way x card
        rivals = np.argsort(likeness.max(axis=0))[-RIVALS:]
        entries = best[rivals]
        differ = (self.differences(entries)[:, None, None] * keep)  # tile x way x 1
        likeness[:, rivals] = sum(_weighted(agree[g][:, :, entries], own[g], theirs[g][:, :, entries], differ[g]) / 2
                                  for g in groups)
        out: NDArray[np.float32] = likeness.max(axis=0)
        return out, best

    def index_likeness(self, hidden: NDArray[np.float32], shown: NDArray[np.float32],
                       entries: NDArray[np.int64]) -> NDArray[np.float32]:
        """How like each taught card's indices a card's are (0..1, the better of its two ways round), each taught
        card at a zoom (`entries`, as `likeness` gives them): the cosine
        of their corners' last hidden layers (`hidden`, a row a corner, as `card_features` orders them), over the
        corners that show an index in both (`shown`, how likely each of the card's corners does). The
        network's hidden layer tells one index from another even in a font whose rank it misreads (a J read as
        a 3 is read so in the taught card too)."""
        hidden = _unit(hidden)
        likeness = np.zeros(len(CODES), np.float32)
        for turn in ((0, 1, 2, 3), (2, 3, 0, 1)):  # the card as it lies, and turned half round
            weight = self.shown[entries][:, turn] * shown  # card x corner
            cosine = np.einsum("ckh,kh->ck", self.corners[entries][:, turn], hidden)
            likeness = np.maximum(likeness, (cosine * weight).sum(axis=1) / np.maximum(weight.sum(axis=1), 1e-6))
        return likeness

    def differences(self, entries: NDArray[np.int64]) -> NDArray[np.float32]:
        """How much the taught `entries` (cards at a zoom) differ in each tile: the mean squared distance between
        their tiles."""
        tiles = self.tiles[entries].transpose(1, 0, 2)  # tile x entry x pixels
        mean = tiles.mean(axis=1, keepdims=True)
        spread: NDArray[np.float32] = (2 * ((tiles - mean) ** 2).mean(axis=(1, 2))).astype(np.float32)
        return spread


def _zoomed(card: NDArray[np.uint8], zoom: float) -> NDArray[np.uint8]:
    """A rectified card zoomed about its centre (beyond its edges, their pixels repeated)."""
    import cv2

    if zoom == 1.0:
        return card
    turn = cv2.getRotationMatrix2D(((CARD_W - 1) / 2, (CARD_H - 1) / 2), 0, zoom)
    out: NDArray[np.uint8] = cv2.warpAffine(card, turn, (CARD_W, CARD_H), flags=cv2.INTER_LINEAR,
                                            borderMode=cv2.BORDER_REPLICATE)
    return out


def _unit(rows: NDArray[np.float32]) -> NDArray[np.float32]:
    out: NDArray[np.float32] = rows / np.maximum(np.linalg.norm(rows, axis=1, keepdims=True), 1e-6)
    return out


def _weighted(agree: NDArray[np.float32], own: NDArray[np.float32], theirs: NDArray[np.float32],
              weight: NDArray[np.float32]) -> NDArray[np.float32]:
    """Likeness over the tiles by weight (tile x way x card arrays, or broadcast to them): way x card."""
    kept = (agree * weight).sum(axis=0)
    own_kept = (own * weight).sum(axis=0)
    theirs_kept = (theirs * weight).sum(axis=0)
    out: NDArray[np.float32] = kept / np.sqrt(np.maximum(own_kept * theirs_kept, 1e-9))
    return out


def describe(card: NDArray[np.uint8]) -> NDArray[np.float32]:
    """A rectified card's tiles (tile x pixels): brightness and redness, as shares of its paper's white, each
    tile less its mean and scaled to its contrast."""
    import cv2

    width, height, across, down = WHOLE
    share_w, share_h, corner_w, corner_h, corner_across, corner_down = CORNER
    right = card[:round(share_h * CARD_H), CARD_W - round(share_w * CARD_W):]
    left = card[:round(share_h * CARD_H), :round(share_w * CARD_W)]
    paper = max(float(np.percentile(card[::4, ::4], 90)), 32.0)  # every fourth pixel: as good, quicker
    tiles = []
    for part, (w, h, nx, ny) in ((card, (width, height, across, down)),
                                 (left, (corner_w, corner_h, corner_across, corner_down)),
                                 (right, (corner_w, corner_h, corner_across, corner_down))):
        small = cv2.GaussianBlur(cv2.resize(part, (w, h), interpolation=cv2.INTER_AREA).astype(np.float32) / paper,
                                 (3, 3), 0.8)
        b, g, r = small[:, :, 0], small[:, :, 1], small[:, :, 2]
        planes = np.stack([(b + g + r) / 3, r - np.maximum(g, b)])  # 2 x h x w
        # less the light's slow changes across the card (a lamp's gradient, a glare): what is printed stays
        planes = planes - np.stack([cv2.GaussianBlur(plane, (0, 0), w / 8) for plane in planes])
        tw, th = w // nx, h // ny
        cut = planes.reshape(2, ny, th, nx, tw).transpose(1, 3, 0, 2, 4).reshape(ny * nx, 2, -1)
        cut = cut - cut.mean(axis=2, keepdims=True)  # each plane's
        cut = cut / np.sqrt((cut**2).mean(axis=(1, 2), keepdims=True) + FLAT**2)
        tiles.append(cut.reshape(ny * nx, -1))
    # tiles of unequal size: each padded to the longest with zeros (which add nothing to a likeness)
    longest = max(t.shape[1] for t in tiles)
    out: NDArray[np.float32] = np.concatenate(
        [np.pad(t, ((0, 0), (0, longest - t.shape[1]))) * np.sqrt(longest / t.shape[1]) for t in tiles]
    ).astype(np.float32)
    return out
