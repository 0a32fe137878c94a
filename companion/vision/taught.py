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

import math
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from companion.vision.find import CARD_H, CARD_W
from companion.vision.index import CODES, NO_INDEX, SUITS, IndexNet, card_features
from companion.vision.pips import PICTURE, SHOWN, pips_seen

if TYPE_CHECKING:
    from numpy.typing import NDArray

VERSION = 3
"""The taught deck file's format: 3 keeps each card's rectified photograph and its descriptions, made when it was
taught by the index network it names (2 kept the photographs alone, described again at each loading; 1, the first
reader's, kept index features only)."""
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
STEPS = 16
"""A taught deck keeps its tiles (of unit contrast, describe's) in bytes of this many steps a unit: from -7.9 to 7.9
(beyond: 5 values in 100,000 of a deck of the kept-out design letele), a step's error as a little noise in a
photograph."""
CHUNK = 13
"""The taught entries (cards at a zoom) made and described at a time (all 260 at once, the index network's buffers
took 320 MB)."""


class DeckError(ValueError):
    """A taught deck's file that cannot be used: an older format, a damaged file, not all 52 cards."""


class TaughtDeck:
    """A deck taught from one photograph of each card, described for comparing: an entry is a card at a zoom (ZOOMS,
    zoom-major: the first 52 the cards as taught)."""

    _loaded: ClassVar[weakref.WeakValueDictionary[tuple[object, ...], TaughtDeck]] = weakref.WeakValueDictionary()
    """The decks loaded and still in use, by file and network: the page and the board's camera share one."""

    def __init__(self, tiles: NDArray[np.int8], corners: NDArray[np.float32], shown: NDArray[np.float32],
                 heads: tuple[NDArray[np.float32], NDArray[np.float32]], pips: list[int | None]) -> None:
        self.tiles = tiles  # tile x entry x pixels: describe's, in bytes of STEPS a unit (in floats, 20 MB)
        # tile x entry: the mean square of each entry's tile
        squares = np.stack([np.einsum("ep,ep->e", tile, tile) for tile in _floats(tiles)])
        self.self_likeness = (squares / np.float32(STEPS**2 * tiles.shape[2])).astype(np.float32, copy=False)
        self.corners = corners  # entry x corner x HIDDEN: the index network's last hidden layer, of unit length
        self.shown = shown  # entry x corner: how likely an index shows
        self.heads = heads  # the taught cards' corners' rank and suit probabilities (52 x 4 x 14, 52 x 4 x 4)
        self.pips = pips  # what each taught card's middle says of its rank (pips_seen)

    @classmethod
    def described(cls, cards: NDArray[np.uint8], net: IndexNet) -> TaughtDeck:
        """The 52 rectified cards (52 x CARD_H x CARD_W x 3, BGR, in the order of CODES) described at each zoom, their
        corners by `net`'s last hidden layer (about 2 s of CPU here: done when a deck is taught, and kept)."""
        total = len(ZOOMS) * len(cards)
        first = describe(cards[0])
        tiles = np.empty((len(first), total, first.shape[1]), np.int8)
        hidden_rows = []
        for start in range(0, total, CHUNK):
            entries = [_zoomed(cards[n % len(cards)], ZOOMS[n // len(cards)])
                       for n in range(start, min(start + CHUNK, total))]
            described = np.stack([describe(entry) for entry in entries], axis=1) * STEPS
            tiles[:, start:start + len(entries)] = np.clip(np.round(described), -127, 127)
            hidden_rows.append(net.hidden(np.concatenate([card_features(entry) for entry in entries])))
        hidden = np.concatenate(hidden_rows)  # four corners an entry
        ranks, suits = net.heads(hidden)
        shown = (1.0 - ranks[:, NO_INDEX]).reshape(total, 4)
        taught = slice(0, 4 * len(cards))
        return cls(tiles, _unit(hidden).reshape(total, 4, -1), shown,
                   (ranks[taught].reshape(len(cards), 4, -1), suits[taught].reshape(len(cards), 4, -1)),
                   [pips_seen(card, corners >= SHOWN) for card, corners in zip(cards, shown[:len(cards)], strict=True)])

    @classmethod
    def load(cls, path: Path, net: IndexNet) -> TaughtDeck:
        """The deck kept in the file `path` by `save` (one kept for another network, or by the reader before, is
        described again with `net`); DeckError says what is wrong with a file it cannot use."""
        import zipfile

        again = "teach the deck again (crib recognize --learn, or the board's /scan page)"
        network = _network(net)
        entries = len(ZOOMS) * len(CODES)
        try:
            stat = path.stat()
            key = (str(path.resolve()), stat.st_ino, stat.st_mtime_ns, stat.st_size, network)
            if (deck := cls._loaded.get(key)) is not None:
                return deck
            with np.load(path) as data:
                if "version" not in data:
                    raise DeckError(f"{path} was taught by an older version of the reader: {again}")
                version = int(_member(data, "version", (), "iu"))
                if version not in (2, VERSION):
                    raise DeckError(f"{path} is a taught deck of format {version}, this reader reads 2 and {VERSION}: "
                                    f"{again}")
                try:
                    codes = tuple(str(code) for code in _member(data, "codes", (len(CODES),), "U"))
                except ValueError:
                    codes = ()
                if codes != CODES:
                    raise DeckError(f"{path} does not hold the 52 cards of a deck: {again}")
                if version == VERSION and str(_member(data, "network", (), "U")) == network:
                    floats = [_member(data, name, shape, "f").astype(np.float32) for name, shape in (
                        ("corners", (entries, 4, len(net.b1))), ("shown", (entries, 4)),
                        ("ranks", (len(CODES), 4, NO_INDEX + 1)), ("suits", (len(CODES), 4, len(SUITS))))]
                    if not all(np.isfinite(array).all() for array in floats):
                        raise DeckError(f"{path} is damaged (its descriptions are not numbers): {again}")
                    tiles = _member(data, "tiles", _tiles_shape(), "i")
                    pips = _member(data, "pips", (len(CODES),), "i")
                    if tiles.dtype != np.int8 or not np.isin(pips, (-1, PICTURE, *range(2, 11))).all():
                        raise DeckError(f"{path} is damaged (its descriptions are not a deck's): {again}")
                    corners, shown, ranks, suits = floats
                    deck = cls(tiles, corners, shown, (ranks, suits), [None if n < 0 else int(n) for n in pips])
                else:
                    cards = _member(data, "cards", (len(CODES), CARD_H, CARD_W, 3), "u")
                    if cards.dtype != np.uint8:
                        raise DeckError(f"{path} does not hold the 52 cards of a deck: {again}")
                    deck = cls.described(cards, net)
        except (OSError, ValueError, TypeError, KeyError, EOFError, zipfile.BadZipFile) as error:
            if isinstance(error, DeckError):
                raise
            raise DeckError(f"{path} is damaged ({error}): {again}") from None
        cls._loaded[key] = deck
        return deck

    @classmethod
    def save(cls, cards: NDArray[np.uint8], path: Path, net: IndexNet) -> None:
        """Keep the 52 rectified cards (in the order of CODES) in the file `path`, and their descriptions by `net`
        (so that loading them takes a tenth of a second, not seconds)."""
        deck = cls.described(cards, net)
        np.savez_compressed(path, version=np.int32(VERSION), codes=np.array(CODES), cards=cards.astype(np.uint8),
                            network=np.array(_network(net)), tiles=deck.tiles, corners=deck.corners,
                            shown=deck.shown, ranks=deck.heads[0], suits=deck.heads[1],
                            pips=np.array([-1 if n is None else n for n in deck.pips], np.int8))

    def likeness(self, card: NDArray[np.uint8]) -> tuple[NDArray[np.float32], NDArray[np.int64]]:
        """How like each taught card a rectified card is (-1..1, the better of its two ways round), at the zoom of
        the taught card it is likest (the entries: card at zoom, for index_likeness): first over all its tiles;
        then, among the likeliest cards, over the tiles in which those differ (a pip more, a suit's shape),
        weighted by how much they differ."""
        query = np.stack([describe(card), describe(card[::-1, ::-1])], axis=1)  # tile x way x pixels
        # each tile's likeness to the same tile of each taught entry: tile x way x entry
        products = np.stack([mine @ theirs.T for mine, theirs in zip(query, _floats(self.tiles), strict=True)])
        agree = (products / np.float32(STEPS * query.shape[2])).astype(np.float32, copy=False)
        own = (query**2).mean(axis=2)[:, :, None]  # tile x way x 1
        theirs = self.self_likeness[:, None, :]  # tile x 1 x entry
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
        tiles = self.tiles[:, entries] * np.float32(1 / STEPS)  # tile x entry x pixels
        mean = tiles.mean(axis=1, keepdims=True)
        spread: NDArray[np.float32] = (2 * ((tiles - mean) ** 2).mean(axis=(1, 2))).astype(np.float32)
        return spread


def _member(data: np.lib.npyio.NpzFile, name: str, shape: tuple[int, ...], kinds: str) -> NDArray[Any]:
    """The array `name` of a deck's file, once its header says it has `shape` and a dtype of one of `kinds` (numpy's
    kind letters): a file's header is read before its array (a damaged or hostile one may claim gigabytes)."""
    if data.zip is None:  # closed
        raise ValueError(f"{name} cannot be read")
    with data.zip.open(f"{name}.npy") as member:
        major, minor = np.lib.format.read_magic(member)
        if (major, minor) not in ((1, 0), (2, 0)):
            raise ValueError(f"{name} is in npy format {major}.{minor}")
        header = np.lib.format.read_array_header_1_0 if major == 1 else np.lib.format.read_array_header_2_0
        found, _, dtype = header(member)
        after = member.tell()
    if found != shape:
        raise ValueError(f"{name} has the shape {found}, not {shape}")
    if after + dtype.itemsize * math.prod(shape) != data.zip.getinfo(f"{name}.npy").file_size:
        raise ValueError(f"{name} holds another size of data than its header says")  # a string claiming gigabytes
    if dtype.kind not in kinds:
        raise ValueError(f"{name} holds {dtype}, not the numbers a deck keeps")
    out: NDArray[Any] = data[name]
    return out


def _floats(tiles: NDArray[np.int8]) -> Iterator[NDArray[np.float32]]:
    """Each tile's entries (entry x pixels) in floats, in STEPS a unit, one tile at a time (all at once: 20 MB)."""
    return (tile.astype(np.float32) for tile in tiles)


def _tiles_shape() -> tuple[int, int, int]:
    """The shape of a deck's tiles: tile x entry x pixels."""
    tiles, pixels = describe(np.zeros((CARD_H, CARD_W, 3), np.uint8)).shape
    return tiles, len(ZOOMS) * len(CODES), pixels


def _network(net: IndexNet) -> str:
    """What names an index network's weights (not its thresholds): a deck described by another is described again."""
    import hashlib

    digest = hashlib.blake2b(digest_size=8)
    for array in (net.mean, net.scale, *(part for conv in net.convs for part in conv), net.w1, net.b1, net.w2, net.b2):
        digest.update(np.ascontiguousarray(array, np.float32).tobytes())
    return digest.hexdigest()


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
