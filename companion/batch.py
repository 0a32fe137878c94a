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
import json
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias

import numpy as np

from companion.cribbage.cards import DECK, RANK_NAMES
from companion.cribbage.scoring import rank_points

if TYPE_CHECKING:
    import numpy.typing as npt

Cards: TypeAlias = "npt.NDArray[np.int8]"
"""Hands as rows of five card indices (`Card.index`, 0..51): four in hand, then the starter."""
RANK_POINTS = "rank_points.json"
"""Package data: `rank_points` of every five-rank multiset, so a batch need not count 6,175 hands to start
(`python -m companion.batch` writes it again from the engine; a test checks it against the engine)."""

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

# Words are read as bytes of UTF-8: a word's first eight bytes as one number (those past its end masked
# to 0), and that number looked up in a table of every spelling, at a slot its multiplicative hash gives:
# the multiplier is chosen so that no two spellings share a slot, and the slot keeps its spelling's number
# to compare with, so any other word is unknown. A handful of array operations a word, whatever it says.
_WORD_BYTES = 5  # the longest spelling: 10♥
_NEWLINE = ord("\n")
_GAP = np.zeros(256, dtype=bool)  # what splits words besides the line end: ASCII white space and commas
_GAP[[ord(c) for c in " \t\r\v\f,"]] = True
_MASKS = np.array([(1 << 8 * n) - 1 for n in range(9)], dtype=np.uint64)  # the first n bytes of eight
_SLOT_BITS = 16


def _hash_table() -> tuple[np.uint64, npt.NDArray[np.uint64], npt.NDArray[np.int8]]:
    numbers = np.array([int.from_bytes(t.encode(), "little") for t in [*CODES, "\n"]], dtype=np.uint64)
    values = np.array([*CODES.values(), _LINE_END], dtype=np.int8)
    multiplier = 0x9E3779B97F4A7C15  # odd; the next of a fixed pseudo-random sequence until no two spellings collide
    while True:
        slots = (numbers * np.uint64(multiplier)) >> np.uint64(64 - _SLOT_BITS)
        if len(np.unique(slots)) == len(slots):
            break
        multiplier = (multiplier * 6364136223846793005 + 1442695040888963407) % (1 << 64) | 1
    keys = np.zeros(1 << _SLOT_BITS, dtype=np.uint64)  # 0: no spelling (no word is all zero bytes)
    codes = np.full(1 << _SLOT_BITS, _UNKNOWN, dtype=np.int8)
    keys[slots], codes[slots] = numbers, values
    return np.uint64(multiplier), keys, codes


_MULTIPLIER, _KEYS, _SLOT_CODES = _hash_table()


def multisets() -> list[tuple[int, ...]]:
    """Every five ranks (1..13, sorted) that a deck holds, in the order of the RANK_POINTS file."""
    ranks = itertools.combinations_with_replacement(range(1, 14), 5)
    return [r for r in ranks if all(r.count(x) <= 4 for x in r)]


def rank_points_from_engine() -> list[int]:
    return [rank_points(ranks) for ranks in multisets()]


@functools.cache
def _rank_table() -> npt.NDArray[np.int8]:
    """Points of fifteens, pairs and runs by the five ranks sorted (0..12 each, base 13): built once."""
    points = json.loads((resources.files("companion") / RANK_POINTS).read_text())["points"]
    keys = (np.array(multisets(), dtype=np.int32) - 1) @ (13 ** np.arange(4, -1, -1, dtype=np.int32))
    table = np.zeros(13**5, dtype=np.int8)
    table[keys] = points
    return table


def score_hands(cards: Cards, crib: bool | npt.NDArray[np.bool_] = False) -> npt.NDArray[np.int8]:
    """`show_total` of each row of five different cards (hand cards then starter), under crib rules where `crib`."""
    return _score(cards, _sorted(cards), crib)


_SORTING_NETWORK = ((0, 1), (3, 4), (2, 4), (2, 3), (0, 3), (0, 2), (1, 4), (1, 3), (1, 2))


def _sorted(cards: Cards) -> Cards:
    """Each row of five in order: nine compare-and-swaps on whole columns (far faster than np.sort on rows)."""
    columns = [cards[:, i].copy() for i in range(5)]
    for i, j in _SORTING_NETWORK:
        columns[i], columns[j] = np.minimum(columns[i], columns[j]), np.maximum(columns[i], columns[j])
    return np.stack(columns, axis=1)


def _score(cards: Cards, ordered: Cards, crib: bool | npt.NDArray[np.bool_]) -> npt.NDArray[np.int8]:
    ranks = ordered >> 2  # the card index is rank-major (rank - 1) * 4 + suit: sorted cards have sorted ranks
    key = ranks[:, 0].astype(np.int32)
    for column in range(1, 5):
        key = key * 13 + ranks[:, column]
    points = _rank_table()[key]
    suits = cards & 3
    hand_flush = (suits[:, 0] == suits[:, 1]) & (suits[:, 0] == suits[:, 2]) & (suits[:, 0] == suits[:, 3])
    five_flush = hand_flush & (suits[:, 0] == suits[:, 4])
    points += np.where(five_flush, 5, np.where(hand_flush & ~np.asarray(crib), 4, 0)).astype(np.int8)
    points += (cards[:, :4] == (_JACK * 4 + suits[:, 4:])).any(axis=1)  # nobs: the jack of the starter's suit
    return points


def read_hands(text: str, *, crib: bool = False) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.bool_]]:
    """Totals of one hand a line of `text` ("5H 5D 5C JS 5S", commas allowed, optionally "crib" at the end),
    and which lines were read: a line not read (its total 0 here) is for the per-hand path to explain."""
    if not text:
        return np.zeros(0, dtype=np.int8), np.zeros(0, dtype=bool)
    if not text.endswith("\n"):
        text += "\n"
    raw = text.encode("utf-8", "surrogatepass")
    parts = []
    start = 0
    while start < len(raw):  # blocks of whole lines small enough for the processor's cache
        end = raw.find(b"\n", start + _BLOCK_BYTES) + 1 or len(raw)
        parts.append(_read_block(raw[start:end], crib))
        start = end
    if len(parts) == 1:
        return parts[0]
    return np.concatenate([t for t, _ in parts]), np.concatenate([r for _, r in parts])


_BLOCK_BYTES = 1 << 16


def _read_block(lines: bytes, crib: bool) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.bool_]]:
    """`read_hands` of whole lines of UTF-8, the last one ending in a line end."""
    raw = lines + b" " * 8  # room to read eight bytes from the last word
    data = np.frombuffer(raw, dtype=np.uint8)
    newline = data == _NEWLINE
    gap = _GAP[data]
    inside = ~gap
    edge = gap | newline  # where a word cannot go on
    first = np.flatnonzero(inside & np.concatenate(([True], edge[:-1])) | newline)  # a line end is a word too
    length = np.flatnonzero(inside & np.concatenate((edge[1:], [True])) | newline) + 1 - first
    eight = np.ndarray((len(data) - 7,), dtype="<u8", buffer=raw, strides=(1,))  # eight bytes from each byte
    number = eight[first] & _MASKS[np.minimum(length, 8)]
    slot = (number * _MULTIPLIER) >> np.uint64(64 - _SLOT_BITS)
    known = (_KEYS[slot] == number) & (length <= _WORD_BYTES)
    codes = np.where(known, _SLOT_CODES[slot], _UNKNOWN).astype(np.int8)
    ends = np.flatnonzero(codes == _LINE_END)
    begin = np.concatenate(([0], ends[:-1] + 1))
    count = ends - begin
    padded = np.concatenate((codes, np.full(6, _UNKNOWN, dtype=np.int8)))
    line_crib = (count == 6) & (padded[begin + 5] == _CRIB)
    cards = padded[begin[:, None] + np.arange(5)]
    ordered = _sorted(cards)
    read = ((count == 5) | line_crib) & (ordered[:, 0] >= 0) & (np.diff(ordered, axis=1) != 0).all(axis=1)
    if b"\0" in lines:  # a word with a zero byte would look like the same word cut short there
        read[np.searchsorted(np.flatnonzero(newline), np.flatnonzero(data == 0))] = False
    if read.all():
        return _score(cards, ordered, crib | line_crib), read
    totals = np.zeros(len(ends), dtype=np.int8)
    totals[read] = _score(cards[read], ordered[read], crib | line_crib[read])
    return totals, read


if __name__ == "__main__":
    path = Path(__file__).with_name(RANK_POINTS)
    about = "companion.batch.RANK_POINTS: rank_points() of companion.batch.multisets(), in order"
    path.write_text(json.dumps({"about": about, "points": rank_points_from_engine()}, separators=(",", ":")) + "\n")
    print(f"wrote {path}")


def batch_totals(text: str, *, crib: bool = False) -> list[int | None]:
    """Totals of one hand a line, in numpy arrays (companion.batch); None for a line it did not read."""
    totals, read = read_hands(text, crib=crib)
    if read.all():
        return totals.tolist()  # type: ignore[no-any-return]
    marked = totals.astype(object)
    marked[~read] = None
    return marked.tolist()  # type: ignore[no-any-return]
