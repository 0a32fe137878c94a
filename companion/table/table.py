"""The table: what players enter becomes engine inputs and lines of the log, one entry at a time.

Device threads only ever call `Table.emit`, which puts an `Entry` on one queue; the main loop calls
`Table.drain` (and `Table.tick` for time-outs) and the table applies entries one at a time:

    decode -> build the engine input -> validate with `apply` -> append to the log (fsync) -> tell

Telling is the story's (story.py): what the input did as typed facts (a card played by whom, a go, a score with
its running total, an undo and what it took back, a refusal, whose turn it is), which the presenter (OLED and
strip), the announcer (the voice), the page and the terminal each render.

Bad input changes nothing: the engine raises before a new state exists, and nothing is logged or shown but
the message for a few seconds. A message is a typed value (companion/words/messages.py: its kind and facts, never
words), as is the prompt (`asking`): the OLED, the page, the terminal and the voice make the words, each in its
own language (companion.words.phrases.message_words). A deal needs only the starter, the plays and go's and the
four crib cards: the crib cards wait with the held cards (held.py) and go to the engine as one input.
In muggins games each count waits for its claim: "claim 7" (or the keypad's # * 7 OK, pegging for whose turn
it is), and "claim 2" right after a card claims its points in the play; then "muggins" lets the opponent take
what a claim missed or overcalled (docs/rules.md). A go the engine knows to be impossible is refused in its
words; `ok` skips the cut for deal; after a game the loser deals first; an undo past the end of a game asks
for a second undo, then reopens it (from the next game's start too, whose one-line log is then deleted).
In coaching mode the coach (coach.py) works out the discards after the play and the table logs them; an undo
takes such a discard back together with the play that made it known. What is shown is the presenter's
(presenter.py).
"""

from __future__ import annotations

import logging
import queue
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace

from companion.base.clock import Clock
from companion.boards import BoardLayout
from companion.cribbage import transcript as t
from companion.cribbage.cards import Card
from companion.cribbage.errors import CribbageError, InputError, RuleError
from companion.cribbage.facts import Phase, Prompt, Side, Wanted
from companion.cribbage.game import GameState, apply, initial_state, legal_moves, replay
from companion.cribbage.refusals import Refusal
from companion.devices.base import PegStrip, StatusDisplay
from companion.entry import Entry
from companion.entry.barcodes import COMMAND_LABELS
from companion.entry.commands import CardEntered, Claim, Command, Decoded, Points, Rejected, decode_entry
from companion.entry.doubt import Asked, Confirmed, Doubt
from companion.gamelog import CannotSave, GameLog
from companion.i18n import Language, choose, current
from companion.view.leds import Color
from companion.view.pegs import DEFAULT_COLOURS
from companion.view.screen import ScreenView
from companion.words.logbook import Finding, Found, finding_words
from companion.words.messages import Message, PageAddress, Say
from companion.words.phrases import message_words, side_name

from .announcer import Announcer, Spoken
from .coaching import Coach, is_worked_out, worked_out_discards
from .held import CommandMistake, HeldCards
from .presenter import Picture, Presenter, Shown
from .story import Fact, Played, Refused, Story, TakenBack, Turn, Undone, told

log = logging.getLogger(__name__)

NEW_GAME = COMMAND_LABELS["new"]  # as printed on the command card, and as it may be typed
DEALER = "virtual deck"
"""The source of entries that carry a typed table input (`Entry.table_input`): the cards a virtual deck deals
and the computer players' moves (companion.play). A game input from it starts a new game at once."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """What became of one entry: the input logged (if any), the log line that holds it, and the message shown
    (`words` makes its words)."""

    entry: Entry
    accepted: t.Input | None = None
    message: Message | None = None
    error: bool = False
    line: int = 0  # the line of the log file that holds `accepted`
    told: tuple[Fact, ...] = ()  # what it told: the story's facts (story.py)

    def words(self, lang: Language | None = None) -> str:
        """The message in `lang` (the current language when not given), "" when there is none."""
        return "" if self.message is None else message_words(self.message, lang or current())


class Table:
    """One table's game: the state and its log, with the held cards, the coach and the presenter."""

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
        self.clock = clock
        self.message_seconds = message_seconds
        self.new_log = new_log
        self.queue: queue.Queue[Entry] = queue.Queue()
        self.held = HeldCards(coaching=coaching)
        self.doubt = Doubt()  # a card a camera was not sure of, asked about (companion/entry/doubt.py)
        self.coaching = Coach(page_seconds=page_seconds)
        self.presenter = Presenter(layout=layout, clock=clock, strip=strip, display=display, colours=colours,
                                   message_seconds=message_seconds, page_seconds=page_seconds)
        self.confirm_new_until = -1.0
        self.confirm_reopen_until = -1.0  # an undo past the end of a game waits for a second undo until then
        self.menu_note: PageAddress | None = None  # said before the help by the menu (where the page is)
        self.person: str | None = None  # the person seated at a virtual table (a game against the computer): the
        # prompt speaks to them, and only the virtual deck deals, cuts, turns the starter and gathers the crib
        self.announcer: Announcer | None = None  # the board's voice, which tells the story aloud (the daemon's)
        self.confirm_mute_until = -1.0  # MENU twice mutes or unmutes
        self.story = Story()  # the latest facts told, numbered
        self._telling: list[Fact] = []  # the facts of the entry being handled
        self._told_prompt: Prompt | None = None  # whose turn it was when last told
        self._refusal = "table"  # why the entry being handled was refused, when it was not by an error
        self.state = replay(game_log.inputs)
        for warning in game_log.warnings:
            log.warning("%s", finding_words(warning, choose(None)))  # the journal's reader's language
        if game_log.warnings:
            self.presenter.say(Message(Say.LOG_CARED, count=len(game_log.inputs)), error=True)
        for step in (self._catch_up, lambda: self.held.restore(self.log, self.state)):
            try:
                step()
            except CannotSave as error:  # a full or read-only disk: the board comes up and says so
                self.presenter.say(error.message, error=True)
        self._tell(moved=True)  # the game as it starts (or resumes): whose turn it is
        self.render()

    # -- what the parts hold, by the names the table uses ----------------------------------------------
    @property
    def cards(self) -> list[Card]:
        """The crib cards (or a coached hand) held before they go to the engine."""
        return self.held.cards

    @property
    def coach(self) -> list[ScreenView]:
        """The coach's review pages on show (empty when none is)."""
        return self.coaching.pages

    @property
    def coach_page(self) -> int:
        return self.coaching.page

    @property
    def picture(self) -> Picture:
        return self.presenter.picture

    @property
    def message(self) -> str | None:
        """The message on show, in the current language (the board's on the OLED, a page's on its page)."""
        return self.presenter.words()

    @property
    def message_is_error(self) -> bool:
        return self.presenter.message_is_error

    @property
    def layout(self) -> BoardLayout:
        return self.presenter.layout

    @property
    def colours(self) -> tuple[Color, ...]:
        return self.presenter.colours

    @property
    def strip(self) -> PegStrip | None:
        return self.presenter.strip

    def shown(self) -> Shown:
        """What the board shows now, in plain values (see `Shown.to_json`)."""
        return self.presenter.shown()

    @property
    def spoken(self) -> Spoken:
        """What the board said lately, for the page to say the same."""
        return self.announcer.spoken if self.announcer is not None else Spoken()

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
        """Apply one entry: decode, apply (the engine), log, tell. Never raises for anything a person can enter."""
        before = self.state
        coached = self.coaching.hide()  # the table has moved on
        held, skip = list(self.held.cards), self.held.skip_hands_deal
        self._telling, self._refusal = [], "table"
        refused: Exception | None = None
        try:
            outcome = self._handle(entry)
            if outcome.accepted is not None and not isinstance(outcome.accepted, t.UndoInput):
                self._log_discards()
        except CribbageError as error:
            outcome = Outcome(entry, message=_refusal_message(error), error=True)
            refused = error
        except CannotSave as error:  # a disk that will not write: refused, tried again next time
            outcome = Outcome(entry, message=error.message, error=True)
            refused = error
        if coached and outcome.accepted is None and outcome.message is None:  # ok on a review: the next page
            self.coaching.next_page()
        try:
            self.held.keep(self.log, self.state)  # durable before anything is shown: "Crib: 2 of 4" is a promise
        except CannotSave as error:
            if outcome.accepted is None:  # the card is not held after all: as if never entered
                self.held.cards, self.held.skip_hands_deal = held, skip
                outcome = Outcome(entry, message=error.message, error=True)
            else:  # logged: the file left beside the log is stale and ignored on a restart
                unkept = Finding(Found.HELD_UNKEPT, error.refusal.path,
                                 facts={"error": error.error.strerror or str(error.error)})
                log.warning("%s", finding_words(unkept, choose(None)))
        told_now = self._tell(moved=outcome.accepted is not None, error=outcome.error, refused=refused)
        outcome = replace(outcome, told=told_now)
        if outcome.message is not None:
            self.presenter.say(outcome.message, error=outcome.error)
        elif outcome.accepted is not None:
            self.presenter.message = None
        self.render(before if outcome.accepted is not None else None)
        return outcome

    def _handle(self, entry: Entry) -> Outcome:
        """Decode the entry, then apply it and log what the engine accepted."""
        decoded: Decoded | None = None if entry.source == DEALER else decode_entry(entry)
        self._catch_up()
        if decoded is None:
            return self._dealt(entry)
        if isinstance(decoded, Rejected):
            self._refusal = "entry"
            return Outcome(entry, message=decoded.message, error=True)
        weighed = self.doubt.weigh(entry, decoded)
        if isinstance(weighed, Asked):
            return Outcome(entry, message=weighed.message, error=weighed.error)
        if isinstance(weighed, Confirmed):
            return self._card(entry, weighed.card)
        if isinstance(decoded, Claim):
            return self._claim(entry, decoded.points)
        if isinstance(decoded, Points):
            whose = decoded.player_name or decoded.player_index
            if self.state.phase is Phase.CLAIM and whose is None:  # the keypad's # * 7 OK claims 7
                return self._claim(entry, decoded.points)
            return self._accept(entry, t.PegInput(side_name(self._pegging_side(whose)), decoded.points))
        if isinstance(decoded, Command):
            return self._command(entry, decoded.word)
        assert isinstance(decoded, CardEntered)
        return self._card(entry, decoded.card)

    def _dealt(self, entry: Entry) -> Outcome:
        """A table input from the virtual deck or a computer player; a game input abandons the game on show."""
        inp = entry.table_input
        if inp is None:
            return Outcome(entry, message=Message(Say.NO_DECK_INPUT, text=entry.text), error=True)
        if isinstance(inp, t.GameInput):
            apply(initial_state(), inp)  # a bad game changes nothing
            self.setup = inp
            return self._fresh_log(entry, inp)
        return self._accept(entry, inp)

    def _card(self, entry: Entry, card: Card) -> Outcome:
        state = self.state
        if self.person is not None and state.phase in (Phase.GAME_OVER, Phase.MATCH_OVER):
            return Outcome(entry, message=Message(Say.PLAY_AGAIN, then=self.asking()), error=True)
        if self.person is not None and state.phase in (Phase.DEAL, Phase.CUT, Phase.CRIB):
            return Outcome(entry, message=Message(Say.DECK_DEALS, card=card, then=self.asking()), error=True)
        if state.phase is Phase.PLAY:
            return self._accept(entry, t.PlayInput(card))
        if state.phase is Phase.CRIB:
            return self._collect(entry, card, t.CribInput)
        if state.phase is Phase.DEAL:
            hand_for = self.held.coached_player(state)
            if hand_for is not None:
                return self._collect(entry, card, lambda cards: t.HandInput(hand_for, cards))
            return self._accept(entry, t.StarterInput(card))
        if state.phase is Phase.CUT:
            return self._accept(entry, t.CutInput(self._next_to_cut(), card))
        awaited = state.awaited()
        if state.phase in (Phase.GAME_OVER, Phase.MATCH_OVER):
            return Outcome(entry, message=Message(Say.SCAN_NEW_GAME, prompt=awaited, text=NEW_GAME), error=True)
        return Outcome(entry, message=Message(Say.NO_CARD_WANTED, prompt=awaited), error=True)

    def _claim(self, entry: Entry, points: int) -> Outcome:
        """Muggins games: the points claimed for the count on show, or in the play for the card just laid (the
        play is entered again with its claim: an undo and the play, both logged)."""
        state = self.state
        last = state.inputs[-1] if state.inputs else None
        if state.phase is not Phase.PLAY:
            return self._accept(entry, t.ClaimInput(points))
        if self.person is not None:  # the virtual table pegs the play for everyone: a claim would race the computer
            raise CommandMistake(Message(Say.PLAY_PEGGED))
        if not isinstance(last, t.PlayInput) or last.claim is not None:
            raise CommandMistake(Message(Say.CLAIM_AFTER_CARD))
        apply(replay(state.inputs[:-1]), replace(last, claim=points))  # refused before anything is logged
        start = len(self._telling)
        self._append(t.UndoInput())
        outcome = self._accept(entry, replace(last, claim=points))
        # the story tells the claim's score, not the card taken back and laid again
        self._telling[start:] = [fact for fact in self._telling[start:] if not isinstance(fact, Undone | Played)]
        return outcome

    def _collect(self, entry: Entry, card: Card, build: Callable[[tuple[Card, ...]], t.Input]) -> Outcome:
        """Hold cards until all that are wanted are in, then send them to the engine as one input."""
        cards = self.held.offer(self.state, card)
        if cards is None:
            return Outcome(entry, message=self.held.progress(self.state))
        outcome = self._accept(entry, build(cards))  # a rejection keeps the cards held: undo takes them back
        self.held.cards.clear()
        return outcome

    def _command(self, entry: Entry, word: str) -> Outcome:
        if word == "undo":
            state = self.state
            person = self.person
            if person is not None and state.phase is Phase.DEAL and person in state.hands \
                    and person not in state.discards:
                raise CommandMistake(Message(Say.NOTHING_OF_YOURS, count=state.discard_size))
            card = self.held.take_back()
            if card is not None:
                return Outcome(entry, message=Message(Say.UNDONE_HELD, card=card, then=self.held.progress(state)))
            if len(self.state.inputs) <= 1:
                return self._reopen_last_game(entry)
            if self.state.winner is not None and not self._confirmed_reopen():
                return Outcome(entry, message=Message(Say.UNDO_AGAIN, prompt=self.state.awaited()))
            return self._undo(entry)
        if word == "go":
            if self.person is not None and self.state.phase is not Phase.PLAY:  # no scanning words: what to do
                raise CommandMistake(Message(Say.NO_GO_NOW, then=self.asking()))
            return self._accept(entry, t.GoInput())
        if word == "ok":
            if self.state.phase is Phase.CUT:
                return self._skip_cut(entry)
            if self.held.coached_player(self.state) is not None and not self.held.cards:
                self.held.skip_hands(self.state)
                return Outcome(entry, message=Message(Say.NO_HANDS))
            self.presenter.next_page()
            return Outcome(entry)
        if word == "new":
            return self._new_game(entry)
        if word == "muggins":
            return self._accept(entry, t.MugginsInput())
        if word in ("mute", "unmute"):
            if self.announcer is None or self.announcer.speaker is None:
                raise CommandMistake(Message(Say.NO_VOICE))
            return Outcome(entry, message=_voice(self.announcer.mute(word == "mute")))
        voice = self.announcer is not None and self.announcer.speaker is not None
        if self.announcer is not None and voice:  # MENU again soon: voice off (or on)
            now = self.clock.monotonic()
            if now <= self.confirm_mute_until:
                self.confirm_mute_until = -1.0
                return Outcome(entry, message=_voice(self.announcer.mute(None)))
            self.confirm_mute_until = now + self.message_seconds
        return Outcome(entry, message=Message(Say.SEATED_HELP if self.person is not None else Say.HELP, text=NEW_GAME,
                                              voice=voice, page=self.menu_note))

    def _undo(self, entry: Entry) -> Outcome:
        """Take back the last input (with the coached discards it made known), saying what it was; at a virtual
        table, the computer's replies since the person's last move and that move too, told as one undo."""
        start = len(self._telling)
        taken: list[TakenBack] = []
        while True:
            while is_worked_out(self.state, self.state.inputs[-1]):  # with the play that made it known
                self._append(t.UndoInput())
            self._append(t.UndoInput())
            taken += [fact.taken_back[-1] for fact in self._telling[-1:] if isinstance(fact, Undone)]
            if self.person is None or len(self.state.inputs) <= 1 or _made_by(self.state, taken[-1].input,
                                                                              self.person):
                break
        self._telling[start:] = [*(f for f in self._telling[start:] if not isinstance(f, Undone)),
                                 Undone(tuple(reversed(taken)))]
        outcome = Outcome(entry, accepted=t.UndoInput(), line=self.log.lines)
        undone = tuple((back.input, back.player) for back in reversed(taken))
        return replace(outcome, message=Message(Say.UNDONE, taken=undone))

    def _new_game(self, entry: Entry) -> Outcome:
        over = self.state.phase in (Phase.GAME_OVER, Phase.MATCH_OVER)
        # after a game the loser deals first in the next (docs/rules.md), and the screen says so
        loser = self.state.losers()[0] if self.state.winner is not None else None
        said = Message(Say.LOSER_DEALS, player=loser) if loser is not None else None
        if self.state.phase is Phase.GAME_OVER and self.state.match_winner is None and self.setup.match:
            outcome = self._accept(entry, replace(self.setup, dealer=None))  # the engine picks the loser
            return replace(outcome, message=said)
        now = self.clock.monotonic()
        if not over and now > self.confirm_new_until:
            self.confirm_new_until = now + self.message_seconds
            return Outcome(entry, message=Message(Say.CONFIRM_NEW, text=NEW_GAME))
        setup = self.setup if loser is None or loser not in self.setup.players else replace(self.setup, dealer=loser)
        return self._fresh_log(entry, setup, said)

    def _fresh_log(self, entry: Entry, setup: t.GameInput, said: Message | None = None) -> Outcome:
        """`setup` starts a game in a log of its own."""
        if self.new_log is None:
            return Outcome(entry, message=Message(Say.NO_STATE_DIRECTORY), error=True)
        self.held.forget(self.log)
        old = (self.log, self.state, list(self.held.cards))
        self.log = self.new_log()
        self.held.cards.clear()
        self.state = replay(self.log.inputs)
        try:
            outcome = self._accept(entry, setup)
        except CannotSave:  # the old game stays on the board until a new one can be saved
            self.log, self.state, self.held.cards = old
            raise
        self.confirm_new_until = -1.0
        return replace(outcome, message=said)

    def _skip_cut(self, entry: Entry) -> Outcome:
        """`ok` while cutting for deal: no cut, the first player named deals (the game line is entered again with
        the dealer, after undoing it and any cuts)."""
        state = self.state
        game = next(i for i in reversed(state.inputs) if isinstance(i, t.GameInput))
        start = len(self._telling)
        while not isinstance(self.state.inputs[-1], t.GameInput):
            self._append(t.UndoInput())
        self._append(t.UndoInput())
        self._telling[start:] = []  # not an undo a player asked for: the game starts again with its dealer
        dealer = state.players[0]
        return replace(self._accept(entry, replace(game, dealer=dealer)), message=Message(Say.NO_CUT, player=dealer))

    def _confirmed_reopen(self) -> bool:
        """An undo past the end of a game is done only when a second undo follows the first in a few seconds."""
        now = self.clock.monotonic()
        if now <= self.confirm_reopen_until:
            self.confirm_reopen_until = -1.0
            return True
        self.confirm_reopen_until = now + self.message_seconds
        return False

    def _reopen_last_game(self, entry: Entry) -> Outcome:
        """Undo at the start of a game that followed a finished one in its own log: after a confirmation, that
        game is reopened where it ended (its win taken back) and the new game's log, which holds only its game
        line, is deleted, so the statistics follow."""
        path = self.log.path
        logs = sorted(path.parent.glob("*.jsonl"))
        earlier = logs[: logs.index(path)] if path in logs else []
        last = GameLog.open(earlier[-1]) if earlier and self.new_log is not None else None
        state = replay(last.inputs) if last is not None else None
        if last is None or state is None or state.winner is None or self.held.cards:
            return Outcome(entry, message=Message(Say.START_OF_GAME), error=True)
        if not self._confirmed_reopen():
            return Outcome(entry, message=Message(Say.LAST_GAME, prompt=state.awaited()))
        self.held.forget(self.log)
        path.unlink()
        self.log = last
        self.state = state
        return replace(self._undo(entry), message=Message(Say.REOPENED, then=self.asking()))

    # -- the engine and the log -----------------------------------------------------------------------
    def _accept(self, entry: Entry, inp: t.Input) -> Outcome:
        self._append(inp)
        return Outcome(entry, accepted=inp, line=self.log.lines)

    def _catch_up(self) -> None:
        """What a start (or a disk that would not write) left undone: the game's first input, and the coached
        discards a power cut may have come between the last play and its discards."""
        if self.state.phase is Phase.NEW:
            self._append(self.setup)
        self._log_discards()

    def _append(self, inp: t.Input) -> None:
        """Validate with the engine, make it durable, and only then change the state."""
        state = apply(self.state, inp)
        self.log.append(inp)
        before = self.state
        self.state = state
        self._telling += told(before, inp, state)

    def _tell(self, *, moved: bool, error: bool = False, refused: Exception | None = None) -> tuple[Fact, ...]:
        """What the entry told, as facts (with a refusal's code, and whose turn it is when that changed or a card
        was played): kept in the story, shown by the presenter, said by the announcer. `moved`: an input was
        accepted."""
        facts = list(self._telling)
        self._telling = []
        if error:
            facts.append(Refused(_refusal_code(refused, self._refusal),
                                 _engine_refusal(refused), refused))
        if moved or (facts and not error):
            prompt = self.awaited()
            if prompt != self._told_prompt or any(isinstance(fact, Played) for fact in facts):
                facts.append(Turn(prompt))
                self._told_prompt = prompt
        told_now = tuple(facts)
        if told_now:
            self.story = self.story.add(told_now)
            self.presenter.told(told_now, self.person)
            if self.announcer is not None:
                self.announcer.tell(told_now, self.state, self.prompt())
        return told_now

    def _log_discards(self) -> None:
        """Once the play is over, log each coached player's discard (hand less cards played) and review it."""
        pages: list[ScreenView] = []
        for discard in worked_out_discards(self.state):
            self._append(discard)
            pages += self.coaching.review(self.state, discard.player)
        self.coaching.show(pages, self.clock.monotonic())

    def _pegging_side(self, index: int | str | None) -> Side:
        """The side a manual peg is for: a player by seat or by name (or a partnership's), or the player whose
        turn it is."""
        players = self.state.players
        if index is None:
            if self.state.turn is None:
                raise CommandMistake(Message(Say.PEG_WHOSE, player=players[0]))
            return self.state.side_of[self.state.turn]
        if isinstance(index, str):
            named = {name.casefold(): side for name, side in self.state.side_of.items()}
            named |= {side_name(side).casefold(): side for side in self.state.sides}
            if index.casefold() not in named:
                raise CommandMistake(Message(Say.NO_PLAYER_NAMED, text=index, players=players))
            return named[index.casefold()]
        if index >= len(players):
            raise CommandMistake(Message(Say.NO_PLAYER_SEAT, count=index + 1, total=len(players)))
        return self.state.side_of[players[index]]

    def _next_to_cut(self) -> str:
        cut = dict(self.state.cuts)
        return next(p for p in self.state.players if p not in cut)

    # -- time -----------------------------------------------------------------------------------------
    def tick(self, now: float) -> None:
        """Called from the main loop: messages time out, long scores page on, the coach's review ends."""
        finished, changed = self.coaching.tick(now)
        if finished:
            self.presenter.first_page(now)  # the scores start again from their first page
        if self.presenter.tick(now, prompt=self.prompt, paging=not self.coaching.pages):
            changed = True
        if changed:
            self.render()

    def announce(self, message: Message, *, error: bool) -> None:
        """Show `message` for a while, now: the daemon's news (devices gone and back, the address, the club's seat)
        and the page's (wrong control tokens)."""
        self.presenter.say(message, error=error)
        self.render()

    # -- outputs --------------------------------------------------------------------------------------
    def awaited(self) -> Prompt:
        """What the table waits for: the engine's prompt, or a coached player's dealt cards, or a go the engine
        knows is the only move (coaching mode: the player holds no card that fits under 31)."""
        state = self.state
        hand_for = self.held.coached_player(state)
        if hand_for is not None:
            return Prompt(Wanted.HAND, (hand_for,), dealer=state.dealer)
        person = self.person
        if person is not None and state.phase is Phase.DEAL and person in state.hands and person not in state.discards:
            return Prompt(Wanted.DISCARD, (person,), count=state.discard_size, dealer=state.dealer)
        prompt = state.awaited()
        if prompt.wanted is Wanted.PLAY and legal_moves(state).must_go:
            return replace(prompt, wanted=Wanted.GO)
        return prompt

    def asking(self) -> Message:
        """What the table must do next, as a message: the card asked about, the cards held, or the game's prompt
        (at a virtual table, spoken to the person, with who cut and the starter until each has played a card)."""
        if self.doubt.card is not None:
            return self.doubt.question()
        if self.held.cards:
            return self.held.progress(self.state)
        prompt = self.awaited()
        state, person = self.state, self.person
        if person is None:
            return Message(Say.WAITING, prompt=prompt, player=state.players[0] if state.players else None)
        if state.phase is Phase.PLAY and state.starter is not None and len(state.played) < len(state.players) \
                and state.dealer is not None:
            cutter = state.players[state.players.index(state.dealer) - 1]  # the dealer's right: the pone of two
            return Message(Say.SEATED, prompt=prompt, player=person, other=cutter, card=state.starter)
        return Message(Say.SEATED, prompt=prompt, player=person)

    def prompt(self, lang: Language | None = None) -> str:
        """What the table must do next, in `lang` (the current language when not given)."""
        return message_words(self.asking(), lang or current())

    def render(self, before: GameState | None = None) -> None:
        """Send the pegs (with effects when `before` is given) and the screen."""
        review = None
        if self.coaching.pages and not self.presenter.message:
            review = self.coaching.view(self.clock.monotonic())
        self.presenter.render(self.state, prompt=self.prompt(), review=review, before=before)


def _refusal_message(error: CribbageError) -> Message:
    """What refused an entry: the table's own message, the engine's refusal, else the words raised with it (by a
    layer above the engine that made them)."""
    if isinstance(error, CommandMistake):
        return error.refusal
    if isinstance(error.refusal, Refusal):
        return Message(Say.REFUSED, refusal=error.refusal)
    return Message(Say.WORDS, text=str(error))


def _engine_refusal(error: Exception | None) -> Refusal | None:
    """The engine's refusal an error carries (the story keeps its code), if it carries one."""
    refusal = error.refusal if isinstance(error, CribbageError) else None
    return refusal if isinstance(refusal, Refusal) else None


def _voice(muted: bool) -> Message:
    return Message(Say.VOICE_OFF if muted else Say.VOICE_ON)


def _refusal_code(error: Exception | None, otherwise: str) -> str:
    """Why an entry was refused, as a code: the rules, a malformed input, a command out of place, a disk that
    would not save; `otherwise` when no error was raised."""
    if isinstance(error, CommandMistake):
        return "command"
    if isinstance(error, RuleError):
        return "rule"
    if isinstance(error, InputError):
        return "input"
    if isinstance(error, CannotSave):
        return "save"
    return "entry" if isinstance(error, CribbageError) else otherwise


def _made_by(state: GameState, inp: t.Input, person: str) -> bool:
    """Whether the person made `inp` (now taken back, `state` the game without it), rather than the deck or a
    computer player; the deal's cards and the game's start end an undo too."""
    if isinstance(inp, t.DiscardInput):
        return inp.player == person
    if isinstance(inp, t.PlayInput | t.GoInput):
        return state.turn == person
    if isinstance(inp, t.ClaimInput):
        return bool(state.counts) and state.counts[0][1] == person
    return isinstance(inp, t.PegInput | t.HandInput | t.GameInput)
