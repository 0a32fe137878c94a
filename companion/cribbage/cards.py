"""Cards: a frozen value type with a parse/render pair, and the barcode payloads printed on decks."""

from __future__ import annotations

import enum
import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass

from .errors import CardSyntaxError
from .refusals import Refusal, Why


class Suit(enum.Enum):
    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.DIAMONDS, Suit.HEARTS)

    @property
    def index(self) -> int:
        return _SUIT_ORDER.index(self)


_SUIT_ORDER = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)
_SUIT_SYMBOLS = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}
_SUIT_BY_TEXT = {
    **{s.value: s for s in Suit},
    **{sym: s for s, sym in _SUIT_SYMBOLS.items()},
    "♧": Suit.CLUBS,
    "♢": Suit.DIAMONDS,
    "♡": Suit.HEARTS,
    "♤": Suit.SPADES,
}
RANK_NAMES = ("", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
RANK_WORDS = ("", "ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
              "jack", "queen", "king")
VALUES = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)  # by rank: pip value for fifteens and the count
_RANK_BY_TEXT = {name: rank for rank, name in enumerate(RANK_NAMES) if name} | {"T": 10}
_CARD_TEXT = re.compile(r"^\s*(10|[2-9TAJQK])\s*(.)\s*$", re.IGNORECASE)

# Printed decks carry "C" + rank (T for ten) + suit: three ASCII characters fit the smallest DataMatrix
# (10x10) and can never be a retail barcode, which is all digits.
PAYLOAD_PREFIX = "C"
_PAYLOAD = re.compile(r"^C([2-9TAJQK])([CDHS])$", re.IGNORECASE)


@functools.total_ordering
@dataclass(frozen=True, slots=True)
class Card:
    """One playing card. Ordered by rank, then suit (clubs, diamonds, hearts, spades)."""

    rank: int
    suit: Suit

    def __post_init__(self) -> None:
        if not 1 <= self.rank <= 13:
            raise CardSyntaxError(Refusal(Why.BAD_RANK, count=self.rank))

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index < other.index

    @property
    def value(self) -> int:
        """Pip value for fifteens and the count: ace 1, faces 10."""
        return VALUES[self.rank]

    @property
    def index(self) -> int:
        """0..51, rank-major: ace of clubs 0, king of spades 51."""
        return (self.rank - 1) * 4 + self.suit.index

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card as players type it (5H, 5h, 10H, TH, 5♥, ah) or as a deck barcode (C5H, CTH)."""
        payload = _PAYLOAD.match(text.strip())
        if payload:
            rank_text, suit_text = payload.groups()
        else:
            match = _CARD_TEXT.match(text)
            if not match:
                raise CardSyntaxError(Refusal(Why.NOT_A_CARD, text=text.strip()))
            rank_text, suit_text = match.groups()
        suit = _SUIT_BY_TEXT.get(suit_text.upper())
        if suit is None:
            raise CardSyntaxError(Refusal(Why.NO_SUIT, text=text.strip()))
        return cls(_RANK_BY_TEXT[rank_text.upper()], suit)

    def __str__(self) -> str:
        return RANK_NAMES[self.rank] + self.suit.value

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    @property
    def pretty(self) -> str:
        """With the suit symbol, as on the screen: 5♥."""
        return RANK_NAMES[self.rank] + self.suit.symbol

    @property
    def payload(self) -> str:
        """The text printed in this card's barcode."""
        return PAYLOAD_PREFIX + ("T" if self.rank == 10 else RANK_NAMES[self.rank]) + self.suit.value


def is_card_payload(text: str) -> bool:
    """True for text in the printed decks' card form (whether or not the case matches)."""
    return _PAYLOAD.match(text.strip()) is not None


DECK: tuple[Card, ...] = tuple(Card(rank, suit) for rank in range(1, 14) for suit in _SUIT_ORDER)


def parse_cards(texts: Iterable[str] | str) -> tuple[Card, ...]:
    """Several cards, from a list of codes or one string separated by spaces or commas."""
    if isinstance(texts, str):
        texts = texts.replace(",", " ").split()
    return tuple(Card.parse(t) for t in texts)

