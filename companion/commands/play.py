"""`crib play`: one person against one to three computer players, on the page or in this terminal.

The daemon runs on simulated devices; the virtual deck deals and the computer players move (companion.web.
computer); the person plays on the page (its address is printed) or, with --terminal, here: type the cards to
lay away ("5H KD"), a card to play, go, undo, "claim 7" in muggins games, "sort asc|desc|none". The game is a
game log like any other: running again resumes it (--new starts another).
"""

from __future__ import annotations

import argparse
import contextvars
import os
import sys
import textwrap
import threading
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path
from typing import Any, TextIO

from companion.commands import CommandError, play_state_dir
from companion.config import Config, add_config_arguments, board_language, config_from_args, given, listen_address
from companion.cribbage import transcript as t
from companion.cribbage.cards import Card, parse_cards
from companion.cribbage.errors import CribbageError
from companion.cribbage.facts import Phase, ScoreKind
from companion.cribbage.game import MAX_COUNT, GameState
from companion.cribbage.scoring import THIRTY_ONE
from companion.daemon import Daemon, Notifier, open_game
from companion.devices.base import DeviceError, Emit, Entry, EntryDevice, SystemClock
from companion.gamelog import GameLogError, current_log
from companion.i18n import N_, _, current, ngettext, speaking
from companion.i18n import current as reading
from companion.play.computer import (
    ComputerGame,
    Settings,
    dealer_entry,
    read_settings,
    sort_cards,
    write_settings,
)
from companion.play.present import Show, ShowNote, person_prompt, show_view, shown_deal
from companion.table import Outcome
from companion.table.story import (
    CutForDeal,
    DealBegun,
    Fact,
    GameStarted,
    Go,
    LaidAway,
    Played,
    Scored,
    StarterTurned,
    Undone,
)
from companion.web.wiring import attach
from companion.words.count import describe
from companion.words.phrases import listed, notes, score_name, side_name, undone_line
from companion.words.projection import state_json
from companion.words.saying import error_words

COMMANDS = frozenset(("undo", "go", "ok", "menu", "new", "help", "muggins", "mute", "unmute", "peg", "claim"))
"""Words the terminal sends to the table as they are, even at the lay-away."""
DEVICES = {"strip": "sim", "keypad": "none", "buttons": "none", "scanner": "none", "display": "dummy"}


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "play", help=_("play against the computer, in the browser or in this terminal"),
        description=_("A game against one to three computer players (easy, standard or pro): the daemon shuffles "
        "and deals a virtual deck. Plays on the board's web page (its address is printed), or with --terminal "
        "here. Running again resumes the game."))
    parser.add_argument("--opponents", default="standard", help=_("the computer players' levels, comma separated, "
                        "one to three of easy, standard, pro (default: standard)"))
    parser.add_argument("--name", help=_("your name on the board (default: Guest)"))
    parser.add_argument("--target", type=int, choices=(61, 121), default=121, help=_("points to win (default 121)"))
    parser.add_argument("--muggins", action="store_true", help=_("count your own hand; the computer takes what "
                        "you miss"))
    parser.add_argument("--match", type=int, default=1, choices=range(1, 8), metavar="N",
                        help=_("a match to N match points, 1 to 7 (default 1: a single game)"))
    parser.add_argument("--seed", type=int, help=_("shuffle the same way every time (default: random)"))
    feedback = parser.add_mutually_exclusive_group()
    feedback.add_argument("--feedback", dest="feedback", action="store_true", default=None,
                          help=_("after each discard, say whether it was the best (default: on against easy)"))
    feedback.add_argument("--no-feedback", dest="feedback", action="store_false")
    parser.add_argument("--terminal", action="store_true", help=_("play in this terminal instead of a browser"))
    parser.add_argument("--listen", metavar="HOST:PORT", help=_("the page's address (default: [web] listen, or a "
                        "free port when that one is taken)"))
    parser.add_argument("--state-dir", type=Path, help=_("where the games against the computer live (default: "
                        "$XDG_STATE_HOME/cribbage-companion/play)"))
    parser.add_argument("--new", action="store_true", help=_("start a new game instead of resuming"))
    parser.add_argument("--move-seconds", type=float, default=0.7, help=_("how long a computer player waits "
                        "before it moves (default 0.7)"))
    add_config_arguments(parser)
    parser.set_defaults(func=run)


def default_state_dir() -> Path:
    return play_state_dir()  # `crib state` and `crib stats` look there too


def chosen_settings(args: argparse.Namespace) -> Settings:
    levels = tuple(level.strip().lower() for level in args.opponents.split(",") if level.strip())
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "big")
    try:
        return Settings((args.name or _("Guest")).strip(), levels, args.target, args.muggins, args.match, seed,
                        args.feedback).named(current())
    except CribbageError as error:  # said in the board's language, which cli.py does not know
        raise CommandError(error_words(error, current())) from None


def run(args: argparse.Namespace) -> int:
    config = config_from_args(args)
    if args.listen:  # checked before anything opens, as [web] listen is
        given("--listen", listen_address, args.listen)
    with speaking(board_language(config, args)):
        return _run(args, chosen_settings(args), config)


def _run(args: argparse.Namespace, settings: Settings, config: Config) -> int:
    config = replace(config, devices=replace(config.devices, **DEVICES))
    state_dir = args.state_dir or default_state_dir()
    current = current_log(state_dir)
    resumed = None if args.new or current is None else read_settings(current)
    new = resumed is None
    if resumed is not None:
        print(fitted(_("Resuming the game against {computers} in {log}; --new starts another")
                     .format(computers=listed(list(resumed.computers)), log=current)), file=sys.stderr)
    clock = SystemClock()
    try:
        board, table = open_game(config, state_dir=state_dir, clock=clock, simulate=False, new=new,
                                 setup=settings.game_input())
    except (DeviceError, GameLogError) as error:
        raise CommandError(error_words(error, reading())) from None
    if new:
        write_settings(table.log.path, settings)
    try:
        attached = attach(config, board, table, state_dir=state_dir, clock=clock, simulate=True,
                          web=not args.terminal, listen=args.listen, move_seconds=args.move_seconds,
                          on_ready=lambda address: print(_("Play in your browser: {address}  (Ctrl-C ends; the "
                                                           "game is kept)").format(address=address), flush=True))
    except DeviceError as error:
        board.close()
        raise CommandError(error_words(error, reading())) from None
    on_outcome = None
    if args.terminal:
        terminal = TerminalPlay(attached.computer)
        board.entries.append(terminal)
        terminal.say(help_line((resumed or settings).muggins))
        on_outcome = terminal.outcome
    daemon = Daemon(table, board, clock=clock, notifier=Notifier({}), on_outcome=attached.chain(on_outcome))
    try:
        return daemon.run(lambda: args.terminal and terminal.done)
    except DeviceError as error:  # the page's address taken (after a free one was looked for)
        raise CommandError(error_words(error, reading())) from None


WIDTH = 80  # the terminal's columns: every line fits, wrapped at words


def fitted(text: str, indent: str = "  ") -> str:
    """`text` in lines of at most WIDTH columns, broken between words (the next lines indented)."""
    return "\n".join(
        "\n".join(textwrap.wrap(line, WIDTH, subsequent_indent=indent, break_long_words=False,
                                break_on_hyphens=False)) or line for line in text.split("\n"))


def help_line(muggins: bool) -> str:
    """What can be typed (claim only in muggins games)."""
    if muggins:
        return _("Type the cards to lay away (5H KD), a card to play, go, ok (after the show), undo, claim 7, "
                 "sort asc|desc|none; Ctrl-D ends (the game is kept).")
    return _("Type the cards to lay away (5H KD), a card to play, go, ok (after the show), undo, "
             "sort asc|desc|none; Ctrl-D ends (the game is kept).")


def scored_words(fact: Scored) -> str:
    """A score of the play, the starter or a peg by hand as one line: who, what for, how many, the running total
    ("Pro: pair royal for 6, now 34")."""
    event = fact.event
    who = event.player or side_name(event.side)
    if event.kind.in_show:  # "Pro's hand: 12, now 56"
        said = _("{what}: {points}, now {total}").format(what=score_name(event.kind, event.player),
                                                        points=event.points, total=fact.total)
        return "; ".join((said, *notes(event)))
    if event.kind is ScoreKind.PEGGING:
        what = listed(["31" if item.kind == THIRTY_ONE else describe(item) for item in event.score.items])
    else:
        what = score_name(event.kind, event.player)
    said = _("{who}: {what} for {points}, now {total}").format(who=who, what=what, points=event.points,
                                                               total=fact.total)
    return "; ".join((said, *notes(event)))


def fact_words(fact: Fact, person: str | None, *, muggins: bool = False) -> str | None:
    """One fact of the story as a line of the terminal (None for what the table's picture shows: whose turn it
    is, a refusal, whose words are the outcome's, and the show's counts, which the show lays out, except in
    muggins games, where each is claimed before the show is laid out)."""
    if isinstance(fact, GameStarted):
        return _("A new game: {players}").format(players=listed(list(fact.players)))
    if isinstance(fact, CutForDeal):
        return _("{player} cuts {card} for deal").format(player=fact.player, card=fact.card.pretty)
    if isinstance(fact, DealBegun):
        return _("Deal {deal}: {dealer} deals").format(deal=fact.deal, dealer=fact.dealer)
    if isinstance(fact, LaidAway):
        if fact.player == person:
            return None
        return ngettext("{player} lays away {n} card", "{player} lays away {n} cards", fact.cards).format(
            player=fact.player, n=fact.cards)
    if isinstance(fact, StarterTurned):
        return _("The starter: {card}").format(card=fact.card.pretty)
    if isinstance(fact, Played):
        if fact.count == MAX_COUNT:
            return _("{player} plays {card}: 31").format(player=fact.player, card=fact.card.pretty)
        return _("{player} plays {card}: count {count}").format(player=fact.player, card=fact.card.pretty,
                                                              count=fact.count)
    if isinstance(fact, Go):
        return _("{player}: go").format(player=fact.player)
    if isinstance(fact, Scored):
        return None if fact.event.kind.in_show and not muggins else scored_words(fact)
    if isinstance(fact, Undone):
        return undone_line([(back.input, back.player) for back in fact.taken_back])
    return None


class TerminalPlay(EntryDevice):
    """The person's side of the game in a terminal: lines typed become entries; the story of the table is
    printed as it is told (every card the computer plays, each go, each score), and the table when the person
    is to move (polled on the main loop)."""

    name = "terminal"

    def __init__(self, computer: ComputerGame, stream: Iterable[str] | None = None, out: TextIO | None = None) -> None:
        self.computer = computer
        self.stream = stream or sys.stdin
        self.out = out or sys.stdout
        self.order = "asc"
        self.ended = False
        self._emit: Emit | None = None
        self._shown: object = None
        self._next_deal: list[str] = []

    def start(self, emit: Emit) -> None:
        self._emit = emit
        context = contextvars.copy_context()  # what is typed is answered in the language the game speaks
        threading.Thread(target=context.run, args=(self._read,), name="terminal", daemon=True).start()

    def close(self) -> None:
        self._emit = None

    @property
    def done(self) -> bool:
        """Typing has ended and the computer has nothing left to do before the person's next move."""
        return self.ended and self.computer.table.queue.empty() and self.computer.idle

    def _read(self) -> None:
        for line in self.stream:
            self.line(line)
        self.ended = True

    def say(self, text: str) -> None:
        print(fitted(text), file=self.out, flush=True)

    def line(self, line: str) -> None:
        """One typed line (from the reading thread: only the table's state is read, entries go to emit)."""
        text = line.strip()
        if self._emit is None:
            return
        state = self.computer.table.state
        settings = self.computer.settings
        if not text:  # Enter alone: ok, while the show waits for it
            if settings is not None and self.computer.showing(state) is not None:
                self._emit(Entry("ok", self.name))
            return
        words = text.lower().split()
        if words == ["again"] and state.winner is not None and settings is not None:
            self._emit(self.computer.play_again())
            return
        if words[0] == "sort" and len(words) == 2 and words[1] in ("asc", "desc", "none"):
            self.order = words[1]
            self._shown = None
            return
        if words[0] == "claim" and not state.muggins:
            self.say("! " + _("this game is played without muggins: your points are pegged for you, no claim "
                              "needed"))
            return
        if settings is not None and state.phase is Phase.DEAL and settings.person in state.hands \
                and settings.person not in state.discards and words[0] not in COMMANDS:
            self._lay_away(text, state.discard_size, state.hands[settings.person], settings.person)
            return
        self._emit(Entry(text, self.name))

    def _lay_away(self, text: str, size: int, hand: tuple[Card, ...], person: str) -> None:
        """The cards typed at the lay-away: as many as are laid away, from the person's hand."""
        example = " ".join(str(c) for c in hand[:size])
        try:
            cards = parse_cards(text)
        except CribbageError as error:
            self.say(f"! {error_words(error)}")
            return
        if len(cards) != size:
            self.say("! " + ngettext("lay away {n} card, not {typed}: type it, like {example}",
                                     "lay away {n} cards, not {typed}: type them, like {example}", size)
                     .format(n=size, typed=len(cards), example=example))
            return
        assert self._emit is not None
        self._emit(dealer_entry(t.DiscardInput(person, cards)))

    def outcome(self, outcome: Outcome) -> None:
        """The story each entry told, as it is told; a refusal in its words."""
        person = self.computer.settings.person if self.computer.settings is not None else None
        state = self.computer.table.state
        for fact in outcome.told:
            said = fact_words(fact, person, muggins=state.muggins)
            if said is None:
                continue
            if isinstance(fact, DealBegun) and self.computer.showing(state) is not None:
                self._next_deal.append(said)  # said once the show of the deal before is over
            else:
                self.say(said)
        if outcome.error:
            self.say(f"! {outcome.words()}")

    def poll(self, now: float) -> None:
        table = self.computer.table
        if not self.computer.idle:
            return  # the deck and the computer players first: then the person sees the table once
        shown = (table.state, self.computer.review, self.computer.muggins, self.order)
        if shown == self._shown:
            return
        self._shown = shown
        if self._next_deal and self.computer.showing(table.state) is None:
            self.say("\n".join(self._next_deal))
            self._next_deal.clear()
        print(self.picture(), file=self.out, flush=True)

    def picture(self) -> str:
        """The table as the person sees it, in a few lines; the show while it waits for ok, and at the end."""
        table = self.computer.table
        game = table.state
        settings = self.computer.settings
        shown = shown_deal(self.computer, game) if settings is not None else None
        if shown is not None:
            show = show_view(state_json(game), shown[0], waiting=shown[1])
            return show_picture(show, person_prompt(table, self.computer, current()))
        lines = ["", scores_line(game)]
        if game.starter is not None and game.phase is Phase.PLAY:
            lines.append(_("starter {card}   count {count}").format(card=game.starter.pretty, count=game.count)
                         + ("   " + " ".join(c.pretty for c in game.pile) if game.pile else ""))
        if settings is not None:
            person = settings.person
            hand = game.hands.get(person, ())
            held = game.held(person) if person in game.discards else hand
            cards = sort_cards(held or (), self.order)
            if cards:
                lines.append(_("your hand: {cards}").format(cards=" ".join(c.pretty for c in cards)))
            counting = counted_cards(game, person)
            if counting is not None and game.starter is not None:
                lines.append(_("to count: {cards} + {starter}").format(
                    cards=" ".join(c.pretty for c in counting), starter=game.starter.pretty))
            lang = current()
            lines += [words for words in (self.computer.feedback(lang), self.computer.said(lang)) if words]
            if game.phase is Phase.DEAL and hand and person not in game.discards:
                size = game.discard_size
                lines.append(ngettext("lay away {n} (type it, like {example})",
                                      "lay away {n} (type them, like {example})", size)
                             .format(n=size, example=" ".join(str(c) for c in hand[:size])))
        lines.append(f"> {person_prompt(table, self.computer, current())}")
        return fitted("\n".join(lines))


def counted_cards(state: GameState, person: str) -> tuple[Card, ...] | None:
    """Muggins games: the hand or crib the person is to count and claim now, else None."""
    if state.phase is not Phase.CLAIM or not state.counts or state.counts[0][1] != person:
        return None
    kind = state.counts[0][0]
    return state.played_by(person) if kind is ScoreKind.HAND else state.crib


def scores_line(state: GameState) -> str:
    """Each side's score, and what wins."""
    scores = "  ".join(f"{side_name(side)} {state.scores[side]}" for side in state.sides)
    return scores + "   " + _("(to {target})").format(target=state.target)


NOTES: dict[ShowNote, str] = {"not_counted": N_("not counted: the game was over"), "needed": N_("needed {points}"),
                              "pegged": N_("pegged {points}")}
NEXT = {"ok": N_("> Type ok (or press Enter) for the next deal"), "new": N_("Type new for the next game of the match"),
        "again": N_("Type again to play again with the same settings")}


def show_picture(show: Show, prompt: str) -> str:
    """The show as said (play/present.py lays it out): the starter, each hand in counting order with its cards
    and count, phrase by phrase, the last card, the scores; then what ok (or, at the end, new) does. Fits 80x24
    for up to three hands."""
    starter = show.starter["pretty"] if show.starter else ""
    title = (_("The show and the game's end") if show.over
             else _("The show of deal {deal}").format(deal=show.deal))
    lines = ["", f"== {title} =="]
    if starter:  # a game won by pegs before the starter has no show, only its end
        lines[-1] += "   " + _("starter {card}").format(card=starter) + "   " + _("{dealer} dealt").format(
            dealer=show.dealer)
    for hand in show.hands:
        item = hand.counted
        cards = " ".join(c["pretty"] for c in item["cards"])
        heading = f"{item['name']}: {cards} + {starter}  = {item['total']}"
        if hand.note is not None:
            heading += f"  ({_(NOTES[hand.note]).format(points=hand.pegged)})"
        lines.append(heading)
        lines += textwrap.wrap(", ".join(item["said"]), 78, initial_indent="    ", subsequent_indent="    ")
    lines += [f"{event['name']}: {event['points']} ({event['player']})" for event in show.last]
    lines.append("  ".join(f"{side['name']} {side['score']}" for side in show.sides)
                 + "   " + _("(to {target})").format(target=show.target))
    if show.over:
        lines.append(f"> {prompt}")
    lines.append(_(NEXT[show.next]))
    return fitted("\n".join(lines), "    ")
