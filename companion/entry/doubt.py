"""A card read without certainty is asked about, never entered on a guess.

A camera that is not sure of a card (`Entry.sure` False) hands the table its best reading; the table asks
"7♥? OK, or enter the card" until the question is answered: OK (the keypad's, a button, a tap on the page)
enters the card as if typed, a card a person enters (keypad, scanner, the page's choice) replaces it, UNDO drops
it and says so. A camera showing the same card again asks again, or enters it when now sure of it. MENU and the
voice's words are done as usual. Anything else meanwhile (the next card held up to a camera, GO, a claim) is
refused in words that say to answer first, and changes nothing: a card asked about is never dropped, nor one
shown meanwhile entered, without a word. Nothing reaches the game before it is confirmed, and the table's
refusals (a card already played, not in a hand) apply to the confirmed card as to any other.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.cribbage.cards import Card
from companion.entry import Entry
from companion.entry.commands import CardEntered, Command, Decoded
from companion.words.messages import Message, Say

ASIDES = ("menu", "mute", "unmute")
"""Done while the question stays: they touch no card."""


@dataclass(frozen=True, slots=True)
class Confirmed:
    """The card asked about, confirmed: enter it."""

    card: Card


@dataclass(frozen=True, slots=True)
class Asked:
    """Nothing entered: the question to show (a new doubtful card), what became of the one asked, or (`error`) an
    entry refused until the question is answered (a typed message: the words are made at the edge)."""

    message: Message
    error: bool = False


class Doubt:
    """The one card the table is asking about, if any."""

    def __init__(self) -> None:
        self.card: Card | None = None

    def question(self) -> Message:
        """What the board asks while it doubts (the prompt on the OLED and the page)."""
        assert self.card is not None
        return Message(Say.QUESTION, card=self.card)

    def weigh(self, entry: Entry, decoded: Decoded) -> Confirmed | Asked | None:
        """What an entry means while the table may be asking: a new question, a confirmation, the question
        dropped or kept (a refusal), or None (the entry is done as usual, answering any question)."""
        asked = self.card
        if asked is None:
            if isinstance(decoded, CardEntered) and not entry.sure:
                self.card = decoded.card
                return Asked(self.question())
            return None
        if isinstance(decoded, Command) and decoded.word in ("ok", "undo"):
            self.card = None
            if decoded.word == "ok":
                return Confirmed(asked)
            return Asked(Message(Say.NOT_ENTERED, card=asked))
        if isinstance(decoded, Command) and decoded.word in ASIDES:
            return None
        if isinstance(decoded, CardEntered) and not _shown(entry):  # the person's correction
            self.card = None
            return None
        if isinstance(decoded, CardEntered) and decoded.card == asked:  # a camera's second look
            if entry.sure:
                self.card = None
                return Confirmed(asked)
            return Asked(self.question())
        if isinstance(decoded, CardEntered):
            return Asked(Message(Say.ANSWER_FIRST, card=decoded.card, asked=asked), error=True)
        return Asked(Message(Say.ANSWER_FIRST, asked=asked), error=True)


def _shown(entry: Entry) -> bool:
    """Held up to a camera (the board's, a phone's), not entered by a person's choice."""
    return entry.source.partition(":")[0] == "camera"
