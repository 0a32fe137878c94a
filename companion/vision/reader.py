"""The recognizer: the cards in a frame, each with its code, a confidence and whether it is sure; and teaching
it one particular deck from a photo of each card."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from companion.vision.find import find_cards, rectify
from companion.vision.index import CODES, MODEL, NO_INDEX, RANKS, SUITS, IndexNet, card_features
from companion.vision.pips import PICTURE, SHOWN, pips_seen
from companion.vision.taught import LEAST, SHARPNESS, TaughtDeck

if TYPE_CHECKING:
    from numpy.typing import NDArray

DECK_FILE = "deck.npz"
"""What a taught deck's folder holds: each of its 52 cards as photographed, rectified (companion/vision/taught.py)."""
PRESENT = 0.5
"""A card is read only when one of its corners shows an index at least this likely (else it is no card)."""
DISAGREE = 0.5
"""A taught card is not sure when its index, read alone, reads as another card at least this confidently."""
INDEX_WEIGHT = 40.0
"""How much a taught card's indices' likeness (0..1, taught.py's index_likeness) counts beside its whole card's
(weighed by taught.SHARPNESS): more, as the indices tell a deck's clubs from its spades."""
SUIT_WEIGHT = 0.5
"""How much the suit the index reads (its log-probability) counts beside them."""
PIPS_AGAINST = 1e-3
"""How likely a clear count of pips is on a card of another rank, and a picture on a number card: the count outweighs
an index's misreading (an upright 9's index read upside down as a 6; a queen's as a 10), and a card whose index and
pips disagree is asked about."""
NUMBERS = tuple(str(n) for n in range(2, 11))
"""The ranks whose cards show pips, not a picture."""


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

    def __init__(self, net: IndexNet, taught: TaughtDeck | None = None) -> None:
        self.net = net
        self.taught = taught
        # the taught cards whose photograph reads (index and pips) as the card it was taught as (one not so may be a bad
        # finding: half a court card, a picture's frame, which then matches no photograph of the card)
        self.confirmed = np.zeros(len(CODES), bool) if taught is None else np.array(
            [(probs := _with_pips(_index_reading(ranks, suits)[0], count)[0]) is not None and int(probs.argmax()) == n
             for n, (ranks, suits, count) in enumerate(zip(*taught.heads, taught.pips, strict=True))])

    @classmethod
    def load(cls, deck: Path | None = None) -> Recognizer:
        """The shipped model, plus the deck taught into the folder `deck` (by `learn`) if given."""
        import cv2

        cv2.setNumThreads(1)  # a frame is small: threads would cost a Pi's memory more than they save
        _keep_freed_memory()
        return cls.load_with(IndexNet.load(MODEL), deck)

    @classmethod
    def load_with(cls, net: IndexNet, deck: Path | None = None) -> Recognizer:
        """A given network, plus a taught deck (DeckError: a file this reader cannot use, and what to do)."""
        if deck is None:
            return cls(net)
        path = Path(deck) / DECK_FILE
        if not path.is_file():
            raise FileNotFoundError(f"{deck} holds no taught deck ({DECK_FILE}): teach one with "
                                    "`crib recognize --learn PHOTOS --out DIR`")
        return cls(net, TaughtDeck.load(path, net))

    def read(self, frame: NDArray[np.uint8]) -> list[CardReading]:
        """The cards in an HxWx3 uint8 BGR frame, the likeliest first."""
        quads = find_cards(frame)
        cards = [rectify(frame, quad) for quad in quads]
        # all corners' features in one pass (quicker); the network a card at a time (more rows in one product make
        # OpenBLAS start threads, which spin: many times the CPU where the process may use several cores)
        corners = card_features(*cards) if cards else None
        readings = []
        for number, (quad, card) in enumerate(zip(quads, cards, strict=True)):
            reading = self._read_card(card, None if corners is None else corners[4 * number:4 * number + 4])
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

    def _read_card(self, card: NDArray[np.uint8],
                   corners: NDArray[np.float32] | None = None) -> tuple[str, float, bool] | None:
        """A rectified card's reading (code, confidence, sure), or None; `corners`: its card_features if known."""
        hidden = self.net.hidden(card_features(card) if corners is None else corners)
        ranks, suits = self.net.heads(hidden)
        alone, voting = _index_reading(ranks, suits)
        agree = _corners_agree(ranks[voting], suits[voting])
        count = None if alone is None else pips_seen(card, 1.0 - ranks[:, NO_INDEX] >= SHOWN)
        probs, overruled = _with_pips(alone, count)
        agree = agree and not overruled  # the index and the pips disagree: the board asks
        if self.taught is not None:  # a card of the taught deck is matched whole; another is read by its index
            likeness, entries = self.taught.likeness(card)
            if likeness.max() >= LEAST:
                code, confidence, sure = self._fused(self.taught, (likeness, entries), hidden,
                                                     1.0 - ranks[:, NO_INDEX], probs, alone=alone, count=count)
                # unless the index's corners agree on a card whose taught photograph does not read as that card:
                # the match could not find it, so its finding another is no evidence against the index
                if probs is None or code == CODES[int(probs.argmax())] or not agree or probs.max() < DISAGREE \
                        or self.confirmed[int(probs.argmax())]:
                    return code, confidence, sure
        if probs is None:
            return None
        best = int(probs.argmax())
        confidence = float(probs[best])
        # a threshold of 1: calibration found none safe; corners that read different cards are asked about, however
        # their vote came out (an upright 10 read upside down at the opposite corner is a Q), and so is a card whose
        # pips count another rank, however sure its index (a glare may hide pips; an index may be misread)
        sure = self.net.sure < 1.0 and confidence >= self.net.sure and agree and _counted(CODES[best], count)
        return CODES[best], round(confidence, 4), sure

    def _fused(self, taught: TaughtDeck, match: tuple[NDArray[np.float32], NDArray[np.int64]],
               hidden: NDArray[np.float32], shown: NDArray[np.float32], probs: NDArray[np.float64] | None, *,
               alone: NDArray[np.float64] | None, count: int | None) -> tuple[str, float, bool]:
        """A taught card's reading: its likeness to each taught card whole, its indices' likeness to theirs (the
        matcher blurs the small difference between a club and a spade; the network's hidden layer does not), the
        suit the index reads (`probs`: with the pips) and the rank its pips count, as one softmax over the 52
        cards. Not sure when the index read alone (`alone`) says another card, or the pips another rank, or when a
        picture in its middle made it another card than the rest says."""
        likeness, entries = match  # each taught card's likeness whole, at the zoom it is likest
        logits = SHARPNESS * likeness.astype(np.float64)
        if probs is not None:
            suits = probs.reshape(len(RANKS), len(SUITS)).sum(axis=0)
            logits += (INDEX_WEIGHT * taught.index_likeness(hidden, shown, entries)
                       + SUIT_WEIGHT * np.tile(np.log(suits + 1e-6), len(RANKS)))
        pips = _pips_likelihood(count)
        weighed = logits if pips is None else logits + np.log(pips)
        fused = np.exp(weighed - weighed.max())
        best = int(fused.argmax())
        confidence = float(fused[best] / fused.sum())
        sure_taught = self.net.sure_taught  # calibrated on held-out decks taught
        sure = sure_taught < 1.0 and confidence >= sure_taught and _counted(CODES[best], count)
        # unless the index, read alone, says another card (a teaching photo's glare over a suit)
        if sure and alone is not None and int(alone.argmax()) != best:
            sure = float(alone.max()) < DISAGREE
        # or a picture made it another card than the rest says (a coloured mat seen through a number card)
        sure = sure and not (count == PICTURE and int(logits.argmax()) != best)
        return CODES[best], round(confidence, 4), sure


def _with_pips(probs: NDArray[np.float64] | None, count: int | None) -> tuple[NDArray[np.float64] | None, bool]:
    """What a card reads by its index (_index_reading's probabilities) and its pips' count together, and whether
    the count overruled the index's likeliest card."""
    pips = _pips_likelihood(count)
    if probs is None or pips is None:
        return probs, False
    weighed = probs * pips
    weighed /= weighed.sum()
    return weighed, int(weighed.argmax()) != int(probs.argmax())


def _counted(code: str, count: int | None) -> bool:
    """Whether what a card's middle says (pips.pips_seen: a count, a picture, None: unclear) lets it be the card
    `code`."""
    return count is None or (code[:-1] not in NUMBERS if count == PICTURE else code[:-1] == str(count))


@cache  # (a few counts: weighing the 52 cards each time cost more than the rest of a reading's arithmetic)
def _pips_likelihood(count: int | None) -> NDArray[np.float64] | None:
    """How likely what a card's middle says (pips.pips_seen: a count of pips, or a picture) is on each of the 52
    cards (in the order of CODES), relative to the cards it says; None when it is unclear. Read-only: it is shared."""
    if count is None:
        return None
    likelihood = np.where([_counted(code, count) for code in CODES], 1.0, PIPS_AGAINST)
    likelihood.flags.writeable = False
    return likelihood


def _index_reading(ranks: NDArray[np.float32], suits: NDArray[np.float32]) -> tuple[NDArray[np.float64] | None,
                                                                                   NDArray[np.bool_]]:
    """What a card's four corners read (the network's heads, a row a corner): _index_probabilities, and which
    corners voted."""
    present = 1.0 - ranks[:, NO_INDEX]  # how surely each corner shows an index
    voting = present >= min(PRESENT, float(present.max()))  # the corners whose index is read
    return _index_probabilities(ranks, suits, present, voting), voting


def _index_probabilities(ranks: NDArray[np.float32], suits: NDArray[np.float32], present: NDArray[np.float32],
                         voting: NDArray[np.bool_]) -> NDArray[np.float64] | None:
    """What a card's four corners' indices read (the network's heads, a row a corner): a probability for each of
    the 52 cards (in the order of CODES), or None when no corner shows an index."""
    if present.max() < PRESENT:
        return None
    joint = ranks[:, :NO_INDEX, None] * suits[:, None, :]  # corner x rank x suit
    joint = joint.reshape(len(ranks), -1) / np.maximum(present[:, None], 1e-6)
    # the corners that show an index vote by the mean of their log-probabilities: corners that agree keep their
    # confidence, corners that disagree lower it (one misread corner is not enough to be sure)
    logs = np.log(joint[voting] + 1e-6).mean(axis=0).astype(np.float64)
    probs: NDArray[np.float64] = np.exp(logs - logs.max())
    probs /= probs.sum()
    return probs


def _corners_agree(ranks: NDArray[np.float32], suits: NDArray[np.float32]) -> bool:
    """Whether the voting corners (their heads' rows) each read the same card."""
    return len({(int(r[:NO_INDEX].argmax()), int(s.argmax())) for r, s in zip(ranks, suits, strict=True)}) == 1


KEPT = 16 << 20
"""Bytes the allocator keeps for the next frame: a 640x480 frame's arrays, several times over (a phone's 12
megapixels are mapped and handed back as before)."""


def _keep_freed_memory() -> None:
    """Have glibc's allocator take a frame's arrays from its heap (M_MMAP_THRESHOLD: up to KEPT each, not mapped
    afresh) and keep KEPT bytes it frees at the heap's top (M_TOP_PAD) rather than hand them back to the kernel:
    each frame then reuses the last frame's pages instead of faulting new ones in, about 900 page faults a frame, a
    tenth of a read's CPU here and more on a Pi. (Setting either fixes glibc's threshold, which it otherwise raises
    as it goes: both are set.) Each thread's arena is kept alike, so a reading thread keeps what its biggest frame
    needed. Not glibc (musl, macOS): nothing is set."""
    mallopt = glibc_mallopt()
    if mallopt is not None:
        mallopt(M_MMAP_THRESHOLD, KEPT)
        mallopt(M_TOP_PAD, KEPT)


def glibc_mallopt() -> Callable[[int, int], int] | None:
    """glibc's mallopt, or None when this process does not run on glibc."""
    import ctypes
    import os

    try:
        if not (os.confstr("CS_GNU_LIBC_VERSION") or "").startswith("glibc"):
            return None
        mallopt: Callable[[int, int], int] = ctypes.CDLL("libc.so.6").mallopt
    except (ValueError, OSError, AttributeError):  # (no such name, library or function: not glibc)
        return None
    return mallopt


M_TOP_PAD, M_MMAP_THRESHOLD = -2, -3
"""glibc's malloc.h: the parameters mallopt sets for the memory kept at the heap's top, and the size from which an
allocation is mapped on its own."""


def decode(data: bytes) -> NDArray[np.uint8]:
    """A JPEG or PNG file's bytes as a BGR frame; UnreadableImage when they are no such image."""
    import cv2

    frame = cv2.imdecode(np.frombuffer(data, dtype=np.uint8), cv2.IMREAD_COLOR) if data else None
    if frame is None:
        raise UnreadableImage("not a JPEG or PNG image this reader can decode")
    image: NDArray[np.uint8] = frame
    return image


@dataclass(frozen=True, slots=True)
class TeachingPhoto:
    """A teaching photo's card: the first card the finder found in it, rectified (what a taught deck keeps), and
    what it reads with no deck taught (its index, and its pips' count)."""

    card: NDArray[np.uint8]
    reads: str | None
    """The card its indices and pips read likeliest (None: no corner shows an index)."""
    confidence: float

    def confirms(self, code: str) -> bool:
        """Whether it reads (index and pips) as `code`: the taught reader trusts a match to it only then (one that
        does not may be half a court card, or a picture's frame, which matches no photograph of the card)."""
        return self.reads == code

    def looks_like(self, code: str) -> str | None:
        """The other card it reads, when it reads one at least DISAGREE confidently (else None)."""
        return self.reads if self.reads != code and self.confidence >= DISAGREE else None


def teaching_photo(net: IndexNet, frame: NDArray[np.uint8]) -> TeachingPhoto | None:
    """The card a deck would be taught from in `frame`, read as with no deck taught (by `net` and its pips); None
    when the finder finds no card in it."""
    quads = find_cards(frame)
    if not quads:
        return None
    card = rectify(frame, quads[0])
    reading = Recognizer(net)._read_card(card)  # as the board reads it with no deck taught
    return TeachingPhoto(card, *reading[:2]) if reading is not None else TeachingPhoto(card, None, 0.0)


def learn(photos: Mapping[str, Path], out: Path, progress: Callable[[int, int], None] | None = None,
          net: IndexNet | None = None) -> dict[str, TeachingPhoto]:
    """Teach one deck from one photo of each of its 52 cards (code -> photo) and keep each card, rectified, in the
    folder `out` (made if need be). UnreadableImage names a photo that is no image or shows no card; ValueError
    says which codes are wrong or missing. Returns the photos whose card's index `net` (the shipped model's by
    default) does not read as the card they teach: taught all the same (a deck whose indices the network misreads
    is taught so), but worth taking again if the finder took part of the card for it."""
    wrong = sorted(set(photos) - set(CODES))
    missing = [code for code in CODES if code not in photos]
    if wrong or missing:
        problems = ([f"not a card: {', '.join(wrong)}"] if wrong else []) + (
            [f"missing: {', '.join(missing)}"] if missing else [])
        raise ValueError("a deck is taught from one photo of each of the 52 cards, named by its code (AS, 10H, QD): "
                         + "; ".join(problems))
    net = net or IndexNet.load(MODEL)
    cards, doubtful = [], {}
    for done, code in enumerate(CODES):
        path = Path(photos[code])
        try:
            frame = decode(path.read_bytes())
        except OSError as error:
            raise UnreadableImage(f"{path}: cannot read it ({error.strerror})") from None
        except UnreadableImage as error:
            raise UnreadableImage(f"{path}: {error}") from None
        found = teaching_photo(net, frame)
        if found is None:
            raise UnreadableImage(f"{path}: no card found in it: photograph the card whole, on a plain table")
        cards.append(found.card)
        if not found.confirms(code):
            doubtful[code] = found
        if progress is not None:
            progress(done + 1, len(CODES))
    out.mkdir(parents=True, exist_ok=True)
    TaughtDeck.save(np.stack(cards), out / DECK_FILE, net)
    return doubtful
