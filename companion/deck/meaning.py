"""What a scanned code means, in words for the person holding the scanner (`crib scan-test`).

A pure function of the text a scanner typed or sent, cleaned the way the scanner drivers clean it
(`companion.entry.scans.normalise_scan`: line ends, AIM prefixes and case go), so it says what the table
would understand; and for codes that are not ours, the likely reason. Said in the current language.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.cribbage.cards import Card, Suit
from companion.cribbage.errors import CardSyntaxError
from companion.entry.barcodes import COMMAND_LABELS, COMMAND_PAYLOADS, decode_payload
from companion.entry.scans import normalise_scan
from companion.i18n import N_, _

_RETAIL = {8: "EAN-8", 12: "UPC-A", 13: "EAN-13", 14: "GTIN-14"}
RANKS = ("", N_("ace"), N_("two"), N_("three"), N_("four"), N_("five"), N_("six"), N_("seven"), N_("eight"), N_("nine"),
         N_("ten"), N_("jack"), N_("queen"), N_("king"))
SUITS = {Suit.CLUBS: N_("clubs"), Suit.DIAMONDS: N_("diamonds"), Suit.HEARTS: N_("hearts"), Suit.SPADES: N_("spades")}
# What the digit row types when the scanner sends US key positions to a French (AZERTY) keyboard layout.
_AZERTY_DIGITS = str.maketrans("&É\"'(-È_ÇÀ", "1234567890")


@dataclass(frozen=True, slots=True)
class Scan:
    """One scanned code: the text, what it means (a card, a command word, or None) and why, in words."""

    text: str
    meaning: Card | str | None
    explanation: str

    @property
    def ours(self) -> bool:
        return self.meaning is not None

    def __str__(self) -> str:
        return f"{self.text} -> {self.explanation}"


def card_words(card: Card) -> str:
    return _("{rank} of {suit}").format(rank=_(RANKS[card.rank]), suit=_(SUITS[card.suit]))


def explain_scan(text: str) -> Scan:
    shown = text.strip()
    shown = shown if shown.isprintable() else repr(shown)
    code = normalise_scan(text)
    meaning = decode_payload(code)
    if isinstance(meaning, Card):
        return Scan(shown, meaning, card_words(meaning))
    if meaning is not None:
        return Scan(shown, meaning, _("command {label}").format(label=COMMAND_LABELS[meaning]))
    typed = _typed_card(code)
    if typed is not None:
        return Scan(shown, typed, _("{card}, typed as a card code (its barcode says {payload})").format(
            card=card_words(typed), payload=typed.payload))
    return Scan(shown, None, _("not a Cribbage Companion code: {why}").format(why=_why_not(code)))


def _why_not(code: str) -> str:
    if not code:
        return _("the scanner sent an empty line; set it to end each code with one Enter")
    if code.isdigit():
        kind = _RETAIL.get(len(code)) if _gtin_check_digit_ok(code) else None
        if kind:
            if kind == "EAN-13" and code[:3] in ("978", "979"):
                return _("this looks like a book's ISBN; scan the sticker on the card")
            return _("this looks like a retail barcode ({kind}); scan the sticker on the card").format(kind=kind)
        return _("a number, not one of our codes; scan the sticker on the card")
    translated = code.translate(_AZERTY_DIGITS)
    if translated != code and decode_payload(translated) is not None:
        return _("this is {code} typed on a French (AZERTY) keyboard layout: set the scanner's keyboard country to "
                 "match this computer, or read the scanner with --evdev or --serial").format(code=translated)
    if len(code) == 3 and code[0] == "C":
        return _("it starts like a card code, but card codes are C, a rank (A 2-9 T J Q K) and a suit (C D H S), for "
                 "example C5H or CTD")
    if len(code) == 2 and code[0] == "X":
        commands = ", ".join(f"{p} {COMMAND_LABELS[w]}" for p, w in COMMAND_PAYLOADS.items())
        return _("it starts like a command code, but the commands are {commands}").format(commands=commands)
    return _("scan the sticker on the card, or print a deck with `crib print-deck`")


def _typed_card(code: str) -> Card | None:
    """A card as people type it (5H, 10♥): the table accepts it, though no printed deck carries it."""
    if not code or code.isdigit():
        return None
    try:
        return Card.parse(code)
    except CardSyntaxError:
        return None


def _gtin_check_digit_ok(digits: str) -> bool:
    """The GS1 check digit of EAN-8, UPC-A, EAN-13 and GTIN-14: weights 3 and 1 from the right."""
    if len(digits) not in _RETAIL:
        return False
    body = [int(d) for d in reversed(digits[:-1])]
    total = sum(d * (3 if i % 2 == 0 else 1) for i, d in enumerate(body))
    return (10 - total % 10) % 10 == int(digits[-1])
