"""The held cards: crib cards and coached hands on their way to the engine, and their file beside the log.

The crib goes to the engine as one input of four cards, and in coaching mode each player's six dealt cards as
one hand; until all are in, the cards wait here ("Crib: 2 of 4"). What is held is written to the log's pending
file before the table shows it, so a power cut loses no acknowledged card: on restart the cards come back when
the log is where it was when they were kept, and a file the log has moved past is stale and removed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.cribbage import transcript as t
from companion.cribbage.cards import Card
from companion.cribbage.errors import CribbageError
from companion.cribbage.facts import Phase, Place, Seen
from companion.cribbage.game import where_seen
from companion.words.logbook import Finding, Found
from companion.words.messages import Message, Say

if TYPE_CHECKING:
    from companion.cribbage.game import GameState
    from companion.gamelog import GameLog, PendingJSON

CRIB_CARDS = 4  # every variant: two players lay away two each; three and four players fill it to four
HAND_CARDS = 6  # coaching mode, two-player deals


class CommandMistake(CribbageError):
    """An entry that makes no sense at this moment, found by the controller rather than the engine: `refusal` is
    what the table says of it (a message's kind and facts)."""

    refusal: Message

    def __init__(self, message: Message) -> None:
        super().__init__(message)


class HeldCards:
    """The cards acknowledged but not yet sent to the engine, and whether this deal's hands were skipped."""

    def __init__(self, *, coaching: bool = False) -> None:
        self.coaching = coaching
        self.cards: list[Card] = []
        self.skip_hands_deal = -1  # the deal whose coached hands the table said "ok" to skip
        self.kept: PendingJSON | None = None  # what the pending file beside the log says now

    def coached_player(self, state: GameState) -> str | None:
        """In coaching mode, before the starter: whose six dealt cards are wanted next (pone first)."""
        if not self.coaching or state.phase is not Phase.DEAL or len(state.players) != 2:
            return None
        if self.skip_hands_deal == state.deal_number:
            return None
        entered = 0
        for inp in reversed(state.inputs):
            if not isinstance(inp, t.HandInput):
                break
            entered += 1
        if entered >= 2:
            return None
        pone = next(p for p in state.players if p != state.dealer)
        return (pone, state.dealer)[entered]

    def wanted(self, state: GameState) -> int:
        """How many cards the cards held are for: the crib's, or a coached hand's before the starter."""
        return CRIB_CARDS if state.phase is Phase.CRIB else HAND_CARDS

    def progress(self, state: GameState) -> Message:
        """ "Crib: 2 of 4": how far the cards held are, and whose (None: the crib's)."""
        whose = None if state.phase is Phase.CRIB else self.coached_player(state)
        return Message(Say.PROGRESS, player=whose, count=len(self.cards), total=self.wanted(state))

    def offer(self, state: GameState, card: Card) -> tuple[Card, ...] | None:
        """Take `card`: all the cards wanted, to go to the engine as one input, or None when it is held to wait
        for more. Raises CommandMistake for a card seen already this deal, saying where it is."""
        if (seen := self.seen(state, card)) is not None:
            raise CommandMistake(Message(Say.CARD_SEEN, seen=seen))
        cards = (*self.cards, card)
        if len(cards) < self.wanted(state):
            self.cards.append(card)
            return None
        return cards

    def seen(self, state: GameState, card: Card) -> Seen | None:
        """Where `card` is when it cannot be one of the cards wanted: held already, or seen by the engine (the
        crib's own cards, laid away by coached players, are wanted)."""
        if card in self.cards:
            if state.phase is Phase.CRIB:
                return Seen(card, Place.CRIB)
            return Seen(card, Place.HAND, self.coached_player(state))
        found = where_seen(state, card, self.coached_player(state))
        return None if found is None or (found.place is Place.CRIB and state.phase is Phase.CRIB) else found

    def take_back(self) -> Card | None:
        """Undo while collecting: the last card held goes (None when nothing is held)."""
        return self.cards.pop() if self.cards else None

    def skip_hands(self, state: GameState) -> None:
        """No coached hands this deal: the starter is wanted next."""
        self.skip_hands_deal = state.deal_number

    def holds_for(self, state: GameState) -> bool:
        """Whether cards can be held now: the crib's, or a coached hand's."""
        return state.phase is Phase.CRIB or self.coached_player(state) is not None

    def keep(self, log: GameLog, state: GameState) -> None:
        """Make the pending file say what is held now (removed when nothing is). Cards held for what the game
        no longer wants (a peg won the game while the crib was entered) go, as a restart would drop them."""
        if not self.holds_for(state):
            self.cards.clear()
        held: PendingJSON | None = None
        if self.cards or (self.skip_hands_deal == state.deal_number and state.phase is Phase.DEAL):
            held = {"cards": [str(card) for card in self.cards], "skip_hands_deal": self.skip_hands_deal,
                    "inputs": len(log.inputs)}  # a logged input (a manual peg) makes the file say so too
        if held != self.kept:
            log.write_pending(held)
            self.kept = held

    def restore(self, log: GameLog, state: GameState) -> None:
        """The cards acknowledged before a restart, if the log is where it was when they were kept."""
        data = log.read_pending()
        if data is None:
            log.write_pending(None)  # stale: the input they made is in the log
            return
        skip = data["skip_hands_deal"]
        try:
            cards = [Card.parse(text) for text in data["cards"]]
        except CribbageError as error:
            log.warnings.append(Finding(Found.PENDING_CARD, str(log.pending_path),
                                        facts={"why": error.refusal or str(error)}))
            log.write_pending(None)
            return
        self.skip_hands_deal = skip
        if cards and self.holds_for(state):
            self.cards = cards
        self.kept = data

    def forget(self, log: GameLog) -> None:
        """A new game: the old log's pending file goes (the cards go once the new log is open)."""
        log.write_pending(None)
        self.kept = None
