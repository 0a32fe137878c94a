"""The payloads printed on Cribbage Companion decks.

Cards carry "C" + rank (T for ten) + suit, e.g. C5H, CTD (see `companion.cribbage.cards`); command
stickers carry "X" + a letter. Both are two or three ASCII characters, which fit the smallest DataMatrix
(10x10), and neither can be a retail barcode (those are all digits).
"""

from __future__ import annotations

from companion.cribbage.cards import DECK, Card, is_card_payload

COMMAND_PAYLOADS: dict[str, str] = {
    "XG": "go",
    "XU": "undo",
    "XO": "ok",
    "XN": "new",
    "XM": "menu",
}
COMMAND_LABELS: dict[str, str] = {"go": "GO", "undo": "UNDO", "ok": "OK", "new": "NEW GAME", "menu": "MENU"}


def all_payloads() -> dict[str, str]:
    """Every payload a deck prints, with what it means: '5H' for a card, 'go' for a command."""
    return {card.payload: str(card) for card in DECK} | dict(COMMAND_PAYLOADS)


def decode_payload(text: str) -> Card | str | None:
    """A card or a command word for one of our payloads, None for anything else."""
    text = text.strip().upper()
    if is_card_payload(text):
        return Card.parse(text)
    return COMMAND_PAYLOADS.get(text)
