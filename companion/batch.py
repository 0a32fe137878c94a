"""Show totals of many hands at once, in numpy arrays: `crib score --batch` and the exhaustive test.

The text is split into words in one pass, each word looked up in a table of every spelling of a card, and
the hands are scored as arrays: the fifteens, pairs and runs from a table indexed by the sorted ranks (made
with the engine's own `rank_points`, so the rules are the engine's), then flush and nobs. A line this fast
path does not recognise (an unknown word, too few cards, a card twice) is only marked; the caller reads it
again with the per-hand path, which says what is wrong or, for a spelling missing here, scores it.
"""

from __future__ import annotations

import functools
import itertools

import numpy as np
import numpy.typing as npt

from companion.cribbage.cards import DECK, RANK_NAMES
from companion.cribbage.scoring import rank_points

Cards = npt.NDArray[np.int8]
"""Hands as rows of five card indices (`Card.index`, 0..51): four in hand, then the starter."""

_LINE_END, _CRIB, _UNKNOWN = -1, -2, -3
_JACK = 10  # rank index (rank - 1) of a jack


def _spellings() -> dict[str, int]:
    """Every single-word spelling of every card that `Card.parse` reads, to its index; 'crib' in any case."""
    codes: dict[str, int] = {}
    for card in DECK:
        name = RANK_NAMES[card.rank]
        ranks = {name, name.lower()} | ({"T", "t"} if card.rank == 10 else set())
        suits = {card.suit.value, card.suit.value.lower(), card.suit.symbol}
        for rank, suit in itertools.product(ranks, suits):
            codes[rank + suit] = card.index
        payload_rank = "T" if card.rank == 10 else name
        for prefix, rank, suit in itertools.product("Cc", {payload_rank, payload_rank.lower()},
                                                    {card.suit.value, card.suit.value.lower()}):
            codes[prefix + rank + suit] = card.index
    for letters in itertools.product(*({c, c.upper()} for c in "crib")):
        codes["".join(letters)] = _CRIB
    return codes


CODES = _spellings()

# Words are read as bytes of UTF-8. At each of a word's first five positions the few bytes any spelling has
# there are numbered from 2 (0: a byte no spelling has there, 1: the word has ended), and those numbers,
# read as digits, index one table of codes: a few array operations a word, whatever the spelling.
_WORD_BYTES = 5  # the longest spelling: 10♥
_UNKNOWN_BYTE, _ENDED = 0, 1
_NEWLINE = ord("\n")
_GAP = np.zeros(256, dtype=bool)  # what splits words besides the line end: ASCII white space and commas
_GAP[[ord(c) for c in " \t\r\v\f,"]] = True


def _byte_classes() -> tuple[npt.NDArray[np.int32], list[int], npt.NDArray[np.int8]]:
    spellings = {text.encode(): code for text, code in CODES.items()}
    classes = np.zeros((_WORD_BYTES, 256), dtype=np.int32)
    sizes = []
    for position in range(_WORD_BYTES):
        seen = sorted({spelling[position] for spelling in spellings if len(spelling) > position})
        classes[position, seen] = np.arange(2, len(seen) + 2)
        if position:  # read past a word's end: the gap or line end after it (or the padding at the very end)
            classes[position, _GAP | (np.arange(256) == _NEWLINE)] = _ENDED
        sizes.append(len(seen) + 2)
    table = np.full(int(np.prod(sizes)), _UNKNOWN, dtype=np.int8)
    for spelling, code in spellings.items():
        key = 0
        for position, size in enumerate(sizes):
            key = key * size + (classes[position, spelling[position]] if position < len(spelling) else _ENDED)
        table[key] = code
    return classes, sizes, table


_CLASSES, _SIZES, _TABLE = _byte_classes()


@functools.cache
def _rank_table() -> npt.NDArray[np.int8]:
    """Points of fifteens, pairs and runs by the five ranks sorted (0..12 each, base 13): built once."""
    table = np.zeros(13**5, dtype=np.int8)
    for ranks in itertools.combinations_with_replacement(range(13), 5):
        if all(ranks.count(r) <= 4 for r in ranks):
            key = functools.reduce(lambda k, r: k * 13 + r, ranks, 0)
            table[key] = rank_points([r + 1 for r in ranks])
    return table


def score_hands(cards: Cards, crib: bool | npt.NDArray[np.bool_] = False) -> npt.NDArray[np.int8]:
    """`show_total` of each row of five different cards (hand cards then starter), under crib rules where `crib`."""
    ranks = np.sort(cards, axis=1) // 4  # the card index is rank-major, so sorted cards have sorted ranks
    key = ranks[:, 0].astype(np.int32)
    for column in range(1, 5):
        key = key * 13 + ranks[:, column]
    points = _rank_table()[key]
    suits = cards & 3
    hand_flush = (suits[:, 0] == suits[:, 1]) & (suits[:, 0] == suits[:, 2]) & (suits[:, 0] == suits[:, 3])
    five_flush = hand_flush & (suits[:, 0] == suits[:, 4])
    points += np.where(five_flush, 5, np.where(hand_flush & ~np.asarray(crib), 4, 0)).astype(np.int8)
    nobs = ((cards[:, :4] >> 2) == _JACK) & (suits[:, :4] == suits[:, 4:])
    points += nobs.any(axis=1)
    return points


def read_hands(text: str, *, crib: bool = False) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.bool_]]:
    """Totals of one hand a line of `text` ("5H 5D 5C JS 5S", commas allowed, optionally "crib" at the end),
    and which lines were read: a line not read (its total 0 here) is for the per-hand path to explain."""
    if not text:
        return np.zeros(0, dtype=np.int8), np.zeros(0, dtype=bool)
    if not text.endswith("\n"):
        text += "\n"
    data = np.frombuffer(text.encode("utf-8", "surrogatepass") + b" ", dtype=np.uint8)  # a gap to read past the end
    newline = data == _NEWLINE
    gap = _GAP[data]
    inside = ~gap
    edge = gap | newline  # where a word cannot go on
    first = np.flatnonzero(inside & np.concatenate(([True], edge[:-1])) | newline)  # a line end is a word too
    length = np.flatnonzero(inside & np.concatenate((edge[1:], [True])) | newline) + 1 - first
    key = np.zeros(len(first), dtype=np.int32)
    for position, size in enumerate(_SIZES):
        at = first + position if position < 2 else np.where(length > position, first + position, len(data) - 1)
        key = key * size + _CLASSES[position][data[at]]
    codes = np.where(length <= _WORD_BYTES, _TABLE[key], _UNKNOWN).astype(np.int8)
    codes[data[first] == _NEWLINE] = _LINE_END
    ends = np.flatnonzero(codes == _LINE_END)
    begin = np.concatenate(([0], ends[:-1] + 1))
    count = ends - begin
    padded = np.concatenate((codes, np.full(6, _UNKNOWN, dtype=np.int8)))
    line_crib = (count == 6) & (padded[begin + 5] == _CRIB)
    cards = padded[begin[:, None] + np.arange(5)]
    ordered = np.sort(cards, axis=1)
    read = ((count == 5) | line_crib) & (ordered[:, 0] >= 0) & (np.diff(ordered, axis=1) != 0).all(axis=1)
    totals = np.zeros(len(ends), dtype=np.int8)
    totals[read] = score_hands(cards[read], crib | line_crib[read])
    return totals, read
