"""Entries (text from a scanner, keypad or terminal) decoded into what the table controller consumes.

Accepted texts: a card as typed (5H, 10d, TH, Q♠) or scanned (C5H); a command word (go, undo, ok, menu,
new) or its payload (XG, XU, XO, XM, XN); manual pegging "peg 12" (the player whose turn it is), "peg 2 12"
(player 2, counted from 1 in seating order) or "peg Bob 12" (by name); in muggins games "claim 7" (the points
claimed for the count on show) and "muggins" (the opponent takes what the claim missed). Everything else is
`Rejected`, with a message that says what to do (a typed message: the words are companion.words.phrases');
rejected entries change nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from companion.cribbage.cards import Card
from companion.cribbage.errors import CardSyntaxError
from companion.entry import Entry
from companion.entry.barcodes import COMMAND_LABELS, decode_payload
from companion.entry.keymap import KEYS, REJECTED_PREFIX, explain_keys, not_a_key
from companion.entry.scans import normalise_scan
from companion.words.messages import Message, Say

COMMAND_WORDS = ("go", "undo", "ok", "menu", "new")
VOICE_WORDS = ("mute", "unmute")  # the board's voice off and on (the page's button; MENU twice on the keypad)
MUGGINS_WORDS = ("muggins",)  # not in the help of other games: only muggins games have claims
# The labels printed on the command cards, as typed ("NEW GAME"), and one more word for ok.
_WORD_ALIASES = {label.lower(): word for word, label in COMMAND_LABELS.items()} | {"next": "ok"}
_PEG = re.compile(r"^peg\s+(?:(.+?)\s+)?(-?\d+)$", re.IGNORECASE)
_CLAIM = re.compile(r"^claim\s+(\d{1,2})$", re.IGNORECASE)
_RETAIL = re.compile(r"^\d{6,14}$")  # EAN-8, UPC-A, EAN-13, ITF-14: shop barcodes are all digits
MAX_PEG = 121


@dataclass(frozen=True, slots=True)
class CardEntered:
    card: Card


@dataclass(frozen=True, slots=True)
class Command:
    word: str
    """One of COMMAND_WORDS."""


@dataclass(frozen=True, slots=True)
class Points:
    """Manual pegging: `points` for a player (0-based seat, or `player_name` as typed), or None for the player
    whose turn it is."""

    player_index: int | None
    points: int
    player_name: str | None = None


@dataclass(frozen=True, slots=True)
class Claim:
    """Muggins games: the points claimed for the hand or crib being counted."""

    points: int


@dataclass(frozen=True, slots=True)
class Rejected:
    text: str
    message: Message


Decoded = CardEntered | Command | Points | Claim | Rejected


def decode_entry(entry: Entry) -> Decoded:
    """What an entry means; never raises."""
    raw = entry.text
    text = raw.strip()
    scanned = entry.source.startswith("scanner")
    if scanned:
        text = normalise_scan(text)
    if not text:
        return Rejected(raw, Message(Say.NOTHING_SCANNED if scanned else Say.NOTHING_TYPED))
    lower = " ".join(text.lower().split())
    if lower.startswith(REJECTED_PREFIX):
        return Rejected(raw, explain_keys(lower[len(REJECTED_PREFIX):].upper().split()))
    if lower.startswith("key:"):
        label = text[4:].strip().upper()
        if label in KEYS:
            return Rejected(raw, Message(Say.NO_KEYPAD, text=label))
        return Rejected(raw, not_a_key(label))
    if lower in COMMAND_WORDS or lower in VOICE_WORDS or lower in MUGGINS_WORDS or lower in _WORD_ALIASES:
        return Command(_WORD_ALIASES.get(lower, lower))
    if peg := _PEG.match(" ".join(text.split())):
        return _points(raw, peg.group(1), peg.group(2))
    if claim := _CLAIM.match(lower):
        return Claim(int(claim.group(1)))
    decoded = decode_payload(text)
    if isinstance(decoded, Card):
        return CardEntered(decoded)
    if isinstance(decoded, str):
        return Command(decoded)
    if _RETAIL.match(text):
        return Rejected(raw, Message(Say.SHOP_CODE, names=tuple(COMMAND_LABELS.values())))
    try:
        return CardEntered(Card.parse(text))
    except CardSyntaxError:
        if scanned:
            return Rejected(raw, Message(Say.NOT_OURS, names=tuple(COMMAND_LABELS.values())))
    return Rejected(raw, Message(Say.NOT_AN_ENTRY, text=text, names=COMMAND_WORDS))


def _points(raw: str, player: str | None, digits: str) -> Decoded:
    """"peg 5", "peg 2 5" (the second player), "peg Bob 5": the controller knows the names."""
    if player is not None and player.isdigit() and not 1 <= int(player) <= 4:
        return Rejected(raw, Message(Say.NO_SEAT, text=player))
    points = int(digits) if len(digits) <= 4 else MAX_PEG + 1  # int() refuses thousands of digits
    if not 1 <= points <= MAX_PEG:
        return Rejected(raw, Message(Say.PEG_RANGE, text=digits if len(digits) <= 4 else "", total=MAX_PEG))
    if player is None or player.isdigit():
        return Points(None if player is None else int(player) - 1, points)
    return Points(None, points, player_name=player)
