"""`crib play`: one person against one to three computer players, on the page or in this terminal.

The daemon runs on simulated devices; the virtual deck deals and the computer players move (companion.web.
computer); the person plays on the page (its address is printed) or, with --terminal, here: type the cards to
lay away ("5H KD"), a card to play, go, undo, "claim 7" in muggins games, "sort asc|desc|none". The game is a
game log like any other: running again resumes it (--new starts another).
"""

from __future__ import annotations

import argparse
import os
import sys
import textwrap
import threading
from dataclasses import replace
from pathlib import Path
from typing import Any

from companion.commands import CommandError
from companion.config import Config, add_config_arguments, board_language, config_from_args
from companion.cribbage import transcript as t
from companion.cribbage.cards import parse_cards
from companion.cribbage.errors import CribbageError
from companion.daemon import Daemon, Notifier, open_game
from companion.devices.base import DeviceError, Emit, Entry, EntryDevice, SystemClock
from companion.gamelog import GameLogError, current_log
from companion.i18n import _, speaking
from companion.play.computer import ComputerGame, Settings, dealer_entry, read_settings, sort_cards, write_settings
from companion.table import Outcome
from companion.web.present import person_prompt, show_json
from companion.web.wiring import attach
from companion.words.phrases import error_words
from companion.words.projection import state_json

HELP_LINE = ("Type the cards to lay away (5H KD), a card to play, go, ok (after the show), undo, claim 7, "
             "sort asc|desc|none")
DEVICES = {"strip": "sim", "keypad": "none", "buttons": "none", "scanner": "none", "display": "dummy"}


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "play", help=_("play against the computer, in the browser or in this terminal"),
        description=_("A game against one to three computer players (easy, standard or pro): the daemon shuffles "
        "and deals a virtual deck. Plays on the board's web page (its address is printed), or with --terminal "
        "here. Running again resumes the game."))
    parser.add_argument("--opponents", default="standard", help=_("the computer players' levels, comma separated, "
                        "one to three of easy, standard, pro (default: standard)"))
    parser.add_argument("--name", default="Guest", help=_("your name on the board (default: Guest)"))
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
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "cribbage-companion" / "play"


def chosen_settings(args: argparse.Namespace) -> Settings:
    levels = tuple(level.strip().lower() for level in args.opponents.split(",") if level.strip())
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "big")
    try:
        return Settings(args.name.strip(), levels, args.target, args.muggins, args.match, seed, args.feedback)
    except CribbageError as error:
        raise CommandError(str(error)) from None


def run(args: argparse.Namespace) -> int:
    settings = chosen_settings(args)
    config = config_from_args(args)
    with speaking(board_language(config, args)):
        return _run(args, settings, config)


def _run(args: argparse.Namespace, settings: Settings, config: Config) -> int:
    config = replace(config, devices=replace(config.devices, **DEVICES))
    state_dir = args.state_dir or default_state_dir()
    current = current_log(state_dir)
    resumed = None if args.new or current is None else read_settings(current)
    new = resumed is None
    if resumed is not None:
        print(f"resuming the game against {', '.join(resumed.computers)} in {current}; --new starts another",
              file=sys.stderr)
    clock = SystemClock()
    try:
        board, table = open_game(config, state_dir=state_dir, clock=clock, simulate=False, new=new,
                                 setup=settings.game_input())
    except (DeviceError, GameLogError) as error:
        raise CommandError(str(error)) from None
    if new:
        write_settings(table.log.path, settings)
    try:
        attached = attach(config, board, table, state_dir=state_dir, clock=clock, simulate=True,
                          web=not args.terminal, listen=args.listen, move_seconds=args.move_seconds,
                          on_ready=lambda address: print(_("Play in your browser: {address}  (Ctrl-C ends; the "
                                                           "game is kept)").format(address=address), flush=True))
    except ValueError as error:
        board.close()
        raise CommandError(f"--listen {error}") from None
    on_outcome = None
    if args.terminal:
        terminal = TerminalPlay(attached.computer)
        board.entries.append(terminal)
        print(HELP_LINE + "; Ctrl-D ends (the game is kept).", flush=True)
        on_outcome = terminal.outcome
    daemon = Daemon(table, board, clock=clock, notifier=Notifier({}), on_outcome=attached.chain(on_outcome))
    return daemon.run(lambda: args.terminal and terminal.done)


class TerminalPlay(EntryDevice):
    """The person's side of the game in a terminal: lines typed become entries; the table is printed when it
    changes (polled on the main loop)."""

    name = "terminal"

    def __init__(self, computer: ComputerGame, stream: Any = None, out: Any = None) -> None:
        self.computer = computer
        self.stream = stream or sys.stdin
        self.out = out or sys.stdout
        self.order = "asc"
        self.ended = False
        self._emit: Emit | None = None
        self._shown: object = None

    def start(self, emit: Emit) -> None:
        self._emit = emit
        threading.Thread(target=self._read, name="terminal", daemon=True).start()

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

    def line(self, line: str) -> None:
        """One typed line (from the reading thread: only the table's state is read, entries go to emit)."""
        text = line.strip()
        if self._emit is None:
            return
        state = self.computer.table.state
        if not text:  # Enter alone: ok, while the show waits for it
            if self.computer.settings is not None and self.computer.showing(state) is not None:
                self._emit(Entry("ok", self.name))
            return
        words = text.lower().split()
        if words == ["again"] and state.winner is not None and self.computer.settings is not None:
            self._emit(self.computer.play_again())
            return
        if words[0] == "sort" and len(words) == 2 and words[1] in ("asc", "desc", "none"):
            self.order = words[1]
            self._shown = None
            return
        settings = self.computer.settings
        if settings is not None and state.phase == "deal" and settings.person in state.hands \
                and settings.person not in state.discards and len(words) == state.discard_size \
                and not (len(words) == 1 and words[0] in ("undo", "go", "ok", "menu", "new")):
            try:
                cards = parse_cards(text)
            except CribbageError as error:
                print(error_words(error), file=self.out, flush=True)
                return
            self._emit(dealer_entry(t.DiscardInput(settings.person, cards)))
            return
        self._emit(Entry(text, self.name))

    def outcome(self, outcome: Outcome) -> None:
        if outcome.error:
            print(f"! {outcome.message}", file=self.out, flush=True)

    def poll(self, now: float) -> None:
        table = self.computer.table
        if not self.computer.idle:
            return  # the deck and the computer players first: then the person sees the table once
        shown = (table.state, self.computer.feedback, self.computer.said, self.order)
        if shown == self._shown:
            return
        self._shown = shown
        print(self.picture(), file=self.out, flush=True)

    def picture(self) -> str:
        """The table as the person sees it, in a few lines; the show while it waits for ok, and at the end."""
        table = self.computer.table
        state = state_json(table.state)
        settings = self.computer.settings
        show = show_json(self.computer, table.state) if settings is not None else None
        if show is not None:
            return show_picture(state, show, person_prompt(table, self.computer))
        lines = ["", "  ".join(f"{side['name']} {side['score']}" for side in state["sides"])
                 + f"   (to {state['rules']['target']})"]
        if state["starter"]:
            lines.append(f"starter {state['starter']['pretty']}   count {state['count']}   "
                         + " ".join(c["pretty"] for c in state["pile"]))
        for event in [e for e in state["events"] if e["deal"] == state["deal"]][-3:]:
            lines.append(f"  {event['name']}: {event['points']} ({event['said']})")
        if settings is not None:
            game = table.state
            person = settings.person
            hand = game.hands.get(person, ())
            held = game.held(person) if person in game.discards else hand
            cards = sort_cards(held or (), self.order)
            if cards:
                lines.append(f"your hand: {' '.join(c.pretty for c in cards)}")
            if self.computer.feedback:
                lines.append(self.computer.feedback)
            if self.computer.said:
                lines.append(self.computer.said)
            if game.phase == "deal" and hand and person not in game.discards:
                lines.append(f"lay away {game.discard_size} (type them, like {' '.join(str(c) for c in hand[:2])})")
        lines.append(f"> {person_prompt(table, self.computer)}")
        return "\n".join(lines)


def show_picture(state: dict[str, Any], show: dict[str, Any], prompt: str) -> str:
    """The show as said: the starter, each hand in counting order with its cards and count, phrase by phrase,
    the last card, the scores; then what ok (or, at the end, new) does. Fits 80x24 for up to three hands."""
    record = state["deals"][show["deal"] - 1]
    starter = record["starter"]["pretty"] if record["starter"] else ""
    title = (_("The show and the game's end") if show["over"]
             else _("The show of deal {deal}").format(deal=show["deal"]))
    lines = ["", f"== {title} =="]
    if starter:  # a game won by pegs before the starter has no show, only its end
        lines[-1] += "   " + _("starter {card}").format(card=starter) + "   " + _("{dealer} dealt").format(
            dealer=record["dealer"])
    for item in record["show"]:
        cards = " ".join(c["pretty"] for c in item["cards"])
        heading = f"{item['name']}: {cards} + {starter}  = {item['total']}"
        if item["points"] is None:
            heading += f"  ({_('not counted: the game was over')})"
        elif item["points"] != item["total"]:
            last = show["over"] and item["event"] == len(state["events"]) - 1
            note = _("needed {points}") if last else _("pegged {points}")
            heading += f"  ({note.format(points=item['points'])})"
        lines.append(heading)
        lines += textwrap.wrap(", ".join(item["said"]), 78, initial_indent="    ", subsequent_indent="    ")
    for event in state["events"]:
        if event["deal"] == show["deal"] and event["kind"] == "last_card":
            lines.append(f"{event['name']}: {event['points']} ({event['player']})")
    lines.append("  ".join(f"{side['name']} {side['score']}" for side in state["sides"])
                 + f"   (to {state['rules']['target']})")
    if show["over"]:
        lines.append(f"> {prompt}")
        over = state["phase"] == "game over" and state["rules"]["match_target"] and state["match_winner"] is None
        lines.append(_("Type new for the next game of the match") if over
                     else _("Type again to play again with the same settings"))
    else:
        lines.append(_("> Type ok (or press Enter) for the next deal"))
    return "\n".join(lines)
