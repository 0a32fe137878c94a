"""A card read without certainty is asked about, never entered on a guess.

A camera that is not sure of a card (`Entry.sure` False) hands the table its best reading; the table asks
"7♥? OK, or enter the card" until the question is answered: OK (the keypad's, a button, a tap on the page)
enters the card as if typed, any other card entered replaces it, UNDO drops it, and any other entry drops it
and is done as usual. Nothing reaches the game before it is confirmed, and the table's refusals (a card already
played, not in a hand) apply to the confirmed card as to any other.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.cribbage.cards import Card
from companion.entry import Entry
from companion.entry.commands import CardEntered, Command, Decoded
from companion.i18n import _, said


@dataclass(frozen=True, slots=True)
class Confirmed:
    """The card asked about, confirmed: enter it."""

    card: Card


@dataclass(frozen=True, slots=True)
class Asked:
    """Nothing entered: the question to show (a new doubtful card), or what became of the one asked (words that can
    be said again in a page's language: i18n.said)."""

    message: str


def _question(card: Card) -> str:
    return _("{card}? OK, or enter the card").format(card=card.pretty)


class Doubt:
    """The one card the table is asking about, if any."""

    def __init__(self) -> None:
        self.card: Card | None = None

    def question(self) -> str:
        """What the board asks while it doubts (the prompt on the OLED and the page)."""
        assert self.card is not None
        return _question(self.card)

    def weigh(self, entry: Entry, decoded: Decoded) -> Confirmed | Asked | None:
        """What an entry means while the table may be asking: a new question, a confirmation, the question
        dropped, or None (the entry is done as usual; any question it answers is dropped)."""
        asked, self.card = self.card, None
        if isinstance(decoded, CardEntered) and not entry.sure:
            card = self.card = decoded.card
            return Asked(said(lambda: _question(card)))
        if asked is None:
            return None
        if isinstance(decoded, Command) and decoded.word == "ok":
            return Confirmed(asked)
        if isinstance(decoded, Command) and decoded.word == "undo":
            return Asked(said(lambda: _("Not entered: {card}").format(card=asked.pretty)))
        return None
