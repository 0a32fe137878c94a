"""The table controller: what players enter becomes engine inputs, the log, and what the board shows.

Device threads only ever call `Table.emit`, which puts an `Entry` on one queue; the main loop calls
`Table.drain` (and `Table.tick` for time-outs) and the controller applies entries one at a time:

    decode -> build the engine input -> validate with `apply` -> append to the log (fsync) -> render -> devices

Bad input changes nothing: the engine raises before a new state exists, and nothing is logged or shown but
the message, in plain words, for a few seconds. A deal needs only the starter, the plays and go's and the
four crib cards: the crib cards are collected here ("Crib: 2 of 4") and go to the engine as one input.
In muggins games each count waits for its claim: "claim 7" (or the keypad's # * 7 OK, pegging for whose turn
it is), then "muggins" lets the opponent take what a claim missed.

Coaching mode: the players scan their six dealt cards before the starter but never say what they laid away.
When the play is over their kept cards are all on the table, so each discard is the hand less the cards
played: the controller logs it (a `discard` input after the starter) before the crib is scanned, so the
engine checks the scanned crib against it, and the screen pages the coach's review of each discard for a
few seconds. An undo takes such a discard back together with the play that made it known. The review is
not stored: it follows from the `hand` and `discard` inputs of the log (`crib stats` works it out again).
"""

from __future__ import annotations

import logging
import queue
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace

from PIL import Image

from companion.advice.coach import review_discard
from companion.boards import BoardLayout
from companion.cribbage import transcript as t
from companion.cribbage.cards import Card
from companion.cribbage.errors import CribbageError
from companion.cribbage.game import GameState, ScoreEvent, apply, replay
from companion.devices.base import Clock, Color, Entry, Frame, PegStrip, StatusDisplay
from companion.entry.commands import CardEntered, Claim, Command, Points, Rejected, decode_entry
from companion.gamelog import CannotSave, GameLog
from companion.view.pegs import DEFAULT_COLOURS, render_pegs
from companion.view.screen import ScreenView, body_room, coach_pages, page_count, render_screen, screen_view

log = logging.getLogger(__name__)

CRIB_CARDS = 4  # every variant: two players lay away two each; three and four players fill it to four
HAND_CARDS = 6  # coaching mode, two-player deals
STRIP_MISSING = "LED strip not connected: check the Pico's USB cable. The game goes on"
STRIP_BACK = "LED strip connected: the pegs are shown again"
HELP = "Scan or type a card (5H, 10D, QS), go, undo, ok; NEW GAME twice starts over"


class CommandMistake(CribbageError):
    """An entry that makes no sense at this moment, found by the controller rather than the engine."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """What became of one entry: the input logged (if any), the log line that holds it, and the words shown."""

    entry: Entry
    accepted: t.Input | None = None
    message: str = ""
    error: bool = False
    line: int = 0  # the line of the log file that holds `accepted`


@dataclass
class Picture:
    """The latest outputs, as sent to the devices (the simulator draws them in the terminal)."""

    frame: Frame = ()
    image: Image.Image | None = None
    recent: tuple[ScoreEvent, ...] = ()
    page: int = 0


class Table:
    """One table's game: the state, its log, and the strip and screen that show it."""

    def __init__(
        self,
        game_log: GameLog,
        *,
        setup: t.GameInput,
        layout: BoardLayout,
        clock: Clock,
        strip: PegStrip | None = None,
        display: StatusDisplay | None = None,
        colours: Sequence[Color] = DEFAULT_COLOURS,
        coaching: bool = False,
        message_seconds: float = 4.0,
        page_seconds: float = 2.5,
        new_log: Callable[[], GameLog] | None = None,
    ) -> None:
        self.log = game_log
        self.setup = setup
        self.layout = layout
        self.clock = clock
        self.strip = strip
        self.strip_connected = True  # as last told at the table: a strip that goes missing is said once
        self.display = display
        self.colours = tuple(colours)
        self.coaching = coaching
        self.message_seconds = message_seconds
        self.page_seconds = page_seconds
        self.new_log = new_log
        self.queue: queue.Queue[Entry] = queue.Queue()
        self.picture = Picture()
        self.cards: list[Card] = []  # crib cards (or a coached hand) collected before they go to the engine
        self.message: str | None = None
        self.message_is_error = False
        self.message_until = 0.0
        self.page_at = 0.0
        self.confirm_new_until = -1.0
        self.skip_hands_deal = -1
        self.coach: list[ScreenView] = []  # the discard reviews on show, one page each
        self._shown_coach: list[ScreenView] = []
        self.coach_since = 0.0
        self.coach_page = -1  # the page of the reviews last drawn
        self.state = replay(game_log.inputs)
        self.held: dict[str, object] | None = None  # what the pending file beside the log says now
        for warning in game_log.warnings:
            log.warning("%s", warning)
        if game_log.warnings:
            self._say(f"Game log repaired on start: {len(game_log.inputs)} inputs kept (the system log says more)",
                      error=True)
        for step in (self._catch_up, self._restore_held):
            try:
                step()
            except CannotSave as error:  # a full or read-only disk: the board comes up and says so
                self._say(str(error), error=True)
        self.render()

    # -- the queue -------------------------------------------------------------------------------------
    def emit(self, entry: Entry) -> None:
        """Called from any thread: the entry waits on the queue for the main loop."""
        self.queue.put(entry)

    def drain(self, timeout: float = 0) -> Iterator[Outcome]:
        """Apply every entry waiting on the queue, in order, waiting up to `timeout` seconds for the first. Lazy:
        each outcome is yielded before the next entry is applied, so the caller sees the table as it left it."""
        try:
            entry = self.queue.get(timeout=timeout) if timeout > 0 else self.queue.get_nowait()
            while True:
                yield self.handle(entry)
                entry = self.queue.get_nowait()
        except queue.Empty:
            return

    # -- one entry ------------------------------------------------------------------------------------
    def handle(self, entry: Entry) -> Outcome:
        """Apply one entry. Never raises for anything a person can enter."""
        before = self.state
        coached = bool(self.coach)
        self.coach = []  # the table has moved on
        held, skip = list(self.cards), self.skip_hands_deal
        try:
            self._catch_up()
            outcome = self._handle(entry)
            if outcome.accepted is not None and not isinstance(outcome.accepted, t.UndoInput):
                self._log_discards()
        except (CribbageError, CannotSave) as error:  # a disk that will not write: refused, tried again next time
            outcome = Outcome(entry, message=str(error), error=True)
        if coached and outcome.accepted is None and not outcome.message:  # ok on a review: the next page
            self.coach = self._shown_coach
            self.coach_since -= self.page_seconds
        try:
            self._keep_held()  # durable before anything is shown: "Crib: 2 of 4" is a promise
        except CannotSave as error:
            if outcome.accepted is None:  # the card is not held after all: as if never entered
                self.cards, self.skip_hands_deal = held, skip
                outcome = Outcome(entry, message=str(error), error=True)
            else:  # logged: the file left beside the log is stale and ignored on a restart
                log.warning("%s", error)
        if outcome.message:
            self._say(outcome.message, error=outcome.error)
        elif outcome.accepted is not None:
            self.message = None
        self.render(before if outcome.accepted is not None else None)
        return outcome

    def _handle(self, entry: Entry) -> Outcome:
        decoded = decode_entry(entry)
        if isinstance(decoded, Rejected):
            return Outcome(entry, message=decoded.message, error=True)
        if isinstance(decoded, Claim):
            return self._accept(entry, t.ClaimInput(decoded.points))
        if isinstance(decoded, Points):
            if self.state.phase == "claim" and decoded.player_index is None:  # the keypad's # * 7 OK claims 7
                return self._accept(entry, t.ClaimInput(decoded.points))
            return self._accept(entry, t.PegInput(self._pegging_side(decoded.player_index), decoded.points))
        if isinstance(decoded, Command):
            return self._command(entry, decoded.word)
        assert isinstance(decoded, CardEntered)
        return self._card(entry, decoded.card)

    def _card(self, entry: Entry, card: Card) -> Outcome:
        state = self.state
        if state.phase == "play":
            return self._accept(entry, t.PlayInput(card))
        if state.phase == "crib":
            return self._collect(entry, card, t.CribInput)
        if state.phase == "deal":
            hand_for = self._coached_player()
            if hand_for is not None:
                return self._collect(entry, card, lambda cards: t.HandInput(hand_for, cards))
            return self._accept(entry, t.StarterInput(card))
        if state.phase == "cut":
            return self._accept(entry, t.CutInput(self._next_to_cut(), card))
        if state.phase in ("game over", "match over"):
            return Outcome(entry, message=f"{state.prompt()}: scan NEW GAME to play again", error=True)
        return Outcome(entry, message=f"no card is wanted now: {state.prompt()}", error=True)

    def _collect(self, entry: Entry, card: Card, build: Callable[[tuple[Card, ...]], t.Input]) -> Outcome:
        """Hold cards until all that are wanted are in, then send them to the engine as one input."""
        seen = {c for _, c in self.state.played} | set(self.cards)
        if self.state.starter is not None:
            seen.add(self.state.starter)
        if card in seen:
            return Outcome(entry, message=f"{card} is already on the table this deal: scan another card", error=True)
        cards = (*self.cards, card)
        what, wanted = self._holding()
        if len(cards) < wanted:
            self.cards.append(card)
            return Outcome(entry, message=f"{what}: {len(cards)} of {wanted}")
        outcome = self._accept(entry, build(cards))  # a rejection keeps the cards held: undo takes them back
        self.cards.clear()
        return outcome

    def _command(self, entry: Entry, word: str) -> Outcome:
        if word == "undo":
            if self.cards:
                card = self.cards.pop()
                return Outcome(entry, message=f"took back {card}: {len(self.cards)} cards held")
            if len(self.state.inputs) <= 1:
                return Outcome(entry, message="nothing to undo: this is the start of the game", error=True)
            while self._worked_out(self.state.inputs[-1]):  # with the play that made it known
                self._append(t.UndoInput())
            return self._accept(entry, t.UndoInput())
        if word == "go":
            return self._accept(entry, t.GoInput())
        if word == "ok":
            if self._coached_player() is not None and not self.cards:
                self.skip_hands_deal = self.state.deal_number
                return Outcome(entry, message="no hands this deal: scan the starter")
            self.page_at = self.clock.monotonic()
            self.picture.page += 1
            return Outcome(entry)
        if word == "new":
            return self._new_game(entry)
        if word == "muggins":
            return self._accept(entry, t.MugginsInput())
        return Outcome(entry, message=HELP)

    def _new_game(self, entry: Entry) -> Outcome:
        over = self.state.phase in ("game over", "match over")
        if self.state.phase == "game over" and self.state.match_winner is None and self.setup.match:
            return self._accept(entry, replace(self.setup, dealer=None))  # the loser of this game deals
        now = self.clock.monotonic()
        if not over and now > self.confirm_new_until:
            self.confirm_new_until = now + self.message_seconds
            return Outcome(entry, message="scan NEW GAME again to abandon this game and start a new one")
        if self.new_log is None:
            return Outcome(entry, message="a new game needs a state directory", error=True)
        self.log.write_pending(None)
        self.held = None
        old = (self.log, self.state, list(self.cards))
        self.log = self.new_log()
        self.cards.clear()
        self.state = replay(self.log.inputs)
        try:
            outcome = self._accept(entry, self.setup)
        except CannotSave:  # the old game stays on the board until a new one can be saved
            self.log, self.state, self.cards = old
            raise
        self.confirm_new_until = -1.0
        return outcome

    # -- cards held before they go to the engine, kept beside the log --------------------------------------
    def _keep_held(self) -> None:
        held: dict[str, object] | None = None
        if self.cards or (self.skip_hands_deal == self.state.deal_number and self.state.phase == "deal"):
            held = {"cards": [str(card) for card in self.cards], "skip_hands_deal": self.skip_hands_deal}
            held["inputs"] = len(self.log.inputs)  # a logged input (a manual peg) makes the file say so too
        if held != self.held:
            self.log.write_pending(held)
            self.held = held

    def _restore_held(self) -> None:
        """The cards acknowledged before a restart, if the log is where it was when they were kept."""
        data = self.log.read_pending()
        if data is None:
            self.log.write_pending(None)  # stale: the input they made is in the log
            return
        try:
            cards = [Card.parse(text) for text in data.get("cards", [])]
            skip = int(data.get("skip_hands_deal", -1))
        except (CribbageError, TypeError, ValueError) as error:
            self.log.warnings.append(f"{self.log.pending_path}: {error}; the cards held are dropped")
            self.log.write_pending(None)
            return
        self.skip_hands_deal = skip
        if cards and (self.state.phase == "crib" or self._coached_player() is not None):
            self.cards = cards
        self.held = data

    # -- the engine and the log -----------------------------------------------------------------------
    def _accept(self, entry: Entry, inp: t.Input) -> Outcome:
        self._append(inp)
        return Outcome(entry, accepted=inp, line=self.log.lines)

    def _catch_up(self) -> None:
        """What a start (or a disk that would not write) left undone: the game's first input, and the coached
        discards a power cut may have come between the last play and its discards."""
        if self.state.phase == "new":
            self._append(self.setup)
        self._log_discards()

    def _append(self, inp: t.Input) -> None:
        """Validate with the engine, make it durable, and only then change the state."""
        state = apply(self.state, inp)
        self.log.append(inp)
        before = self.state
        self.state = state
        self.picture.recent = _recent(before, state) if not isinstance(inp, t.UndoInput) else ()
        self.picture.page = 0
        self.page_at = self.clock.monotonic()

    # -- coaching: the discards worked out after the play ---------------------------------------------------
    def _worked_out(self, inp: t.Input) -> bool:
        """A discard logged by the controller: after the starter (players enter discards only before it)."""
        return isinstance(inp, t.DiscardInput) and self.state.starter is not None

    def _log_discards(self) -> None:
        """Once the play is over, log each coached player's discard (hand less cards played) and review it."""
        state = self.state
        if state.phase not in ("crib", "claim") or state.crib is not None:
            return
        pages: list[ScreenView] = []
        recent = self.picture.recent  # the counts of the hands stay on the screen: a discard scores nothing
        for player in state.show_order():
            hand = state.hands.get(player)
            if hand is None or player in state.discards:
                continue
            played = state.played_by(player)
            self._append(t.DiscardInput(player, tuple(c for c in hand if c not in played)))
            review = review_discard(self.state, player)
            if review is not None:
                pages += coach_pages(self.state, player, review.say())
        self.picture.recent = recent
        if pages:
            self.coach = self._shown_coach = pages
            self.coach_since = self.clock.monotonic()

    def _holding(self) -> tuple[str, int]:
        """What the cards held are for (the crib, or a coached hand before the starter) and how many it takes."""
        if self.state.phase == "crib":
            return "Crib", CRIB_CARDS
        return f"{self._coached_player()}'s hand", HAND_CARDS

    def _coached_player(self) -> str | None:
        """In coaching mode, before the starter: whose six dealt cards are wanted next (pone first)."""
        state = self.state
        if not self.coaching or state.phase != "deal" or len(state.players) != 2:
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

    def _pegging_side(self, index: int | None) -> str:
        """The side a manual peg is for: a player by seat, or the player whose turn it is."""
        players = self.state.players
        if index is None:
            if self.state.turn is None:
                raise CommandMistake("say whose points they are: peg 1 5 pegs five for the first player")
            return self.state.side_of[self.state.turn]
        if index >= len(players):
            raise CommandMistake(f"there is no player {index + 1}: the players are 1 to {len(players)}")
        return self.state.side_of[players[index]]

    def _next_to_cut(self) -> str:
        cut = dict(self.state.cuts)
        return next(p for p in self.state.players if p not in cut)

    # -- time -----------------------------------------------------------------------------------------
    def tick(self, now: float) -> None:
        """Called from the main loop: messages time out, long scores page on."""
        changed = False
        if self.coach and now - self.coach_since >= len(self.coach) * self.page_seconds:
            self.coach = []
            self.picture.page, self.page_at = 0, now  # the scores start again from their first page
            changed = True
        elif self.coach and self._coach_index(now) != self.coach_page:
            changed = True
        if self.message is not None and now >= self.message_until:
            self.message = None
            changed = True
        strip_connected = self.strip is None or self.strip.connected
        if strip_connected != self.strip_connected:
            self.strip_connected = strip_connected
            self._say(STRIP_BACK if strip_connected else STRIP_MISSING, error=not strip_connected)
            changed = True
        if (self.picture.recent and not self.coach and now - self.page_at >= self.page_seconds
                and page_count(self.picture.recent, body_room(self.prompt())) > 1):  # not on every idle poll
            self.picture.page += 1
            self.page_at = now
            changed = True
        if changed:
            self.render()

    def _coach_index(self, now: float) -> int:
        return min(max(int((now - self.coach_since) // self.page_seconds), 0), len(self.coach) - 1)

    def _say(self, message: str, *, error: bool) -> None:
        self.message = message
        self.message_is_error = error
        self.message_until = self.clock.monotonic() + self.message_seconds

    # -- outputs --------------------------------------------------------------------------------------
    def prompt(self) -> str:
        if self.cards:
            what, wanted = self._holding()
            return f"{what}: {len(self.cards)} of {wanted}"
        hand_for = self._coached_player()
        if hand_for is not None:
            return f"Scan {hand_for}'s six cards (ok: skip)"
        if self._must_go():
            return f"{self.state.turn} says go? count {self.state.count}"
        if self.state.phase == "claim":
            return f"{self.state.prompt()}: enter claim N"
        return self.state.prompt()

    def _must_go(self) -> bool:
        """The player to play is known (coaching mode) to hold no card that fits under 31."""
        state = self.state
        if state.phase != "play" or state.turn is None or state.cards_left(state.turn) == 0:
            return False
        held = state.held(state.turn)
        if held is None:
            hand = state.hands.get(state.turn)
            if hand is None:
                return False
            held = tuple(c for c in hand if c not in state.played_by(state.turn))  # the discards too: still sure
        return all(state.count + card.value > 31 for card in held)

    def render(self, before: GameState | None = None) -> None:
        """Send the pegs (with effects when `before` is given) and the screen."""
        frame, effects = render_pegs(self.state, self.layout, self.colours, before)
        if self.strip is not None:
            frame = frame + ((0, 0, 0),) * max(0, self.strip.led_count - len(frame))
            frame = frame[: self.strip.led_count]
            if frame != self.picture.frame or effects:
                try:
                    self.strip.show(frame, effects)
                except Exception as error:  # a strip that fails must not stop the game
                    log.warning("LED strip: %s", error)
        self.picture.frame = frame
        if self.message and not self.message_is_error:
            view = screen_view(self.state, prompt=self.message)
        elif self.coach and not self.message:
            self.coach_page = self._coach_index(self.clock.monotonic())
            view = self.coach[self.coach_page]
        else:
            view = screen_view(self.state, recent=self.picture.recent, page=self.picture.page, prompt=self.prompt(),
                               error=self.message)
        image = render_screen(view)
        self.picture.image = image
        if self.display is not None:
            try:
                self.display.show(image)
            except Exception as error:  # likewise a screen that fails
                log.warning("display: %s", error)


def _recent(before: GameState, after: GameState) -> tuple[ScoreEvent, ...]:
    """The score events the last input added (all of them when it started a new game)."""
    if after.events[: len(before.events)] != before.events:
        return tuple(after.events)
    return tuple(after.events[len(before.events):])
