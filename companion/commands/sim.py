"""`crib sim`: the daemon on simulated hardware, with the OLED, the board and the game so far drawn in this
terminal (80x24 is enough: `companion.view.terminal`), redrawn in place after each entry and whenever the picture
changes by itself (a peg walks or flashes, a message times out, a long count turns its page).

The board is drawn from what the simulated Pico's LEDs hold (the real driver, protocol and firmware in between):
live as they change on a terminal, settled for snapshots and the screen printed at the end of a script; or from
the frame the table computed when the recording strip (devices.strip = "sim") stands in."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any

from companion.base.clock import Clock, SystemClock
from companion.base.demo import DEMO
from companion.commands import CommandError, sim_state_dir
from companion.config import (
    NAME_CHARS,
    Config,
    add_config_arguments,
    board_language,
    config_from_args,
    given,
    listen_address,
)
from companion.cribbage import transcript as t
from companion.cribbage.facts import Phase
from companion.cribbage.game import GameState, replay
from companion.cribbage.rules import VARIANT, VARIANTS
from companion.cribbage.transcript import input_to_json
from companion.daemon import Daemon, Notifier, club_publisher, open_game, setup_input
from companion.devices.base import DeviceError
from companion.devices.sim import LineEntry
from companion.gamelog import GameLog, GameLogError, current_log
from companion.i18n import _, current, ngettext, speaking
from companion.registry import Devices, simulated_choice
from companion.table import HELP, NEW_GAME, Outcome, Table
from companion.view.history import deal_summary, game_history
from companion.view.leds import Frame
from companion.view.picture import board_png, board_rows, legend_for, legend_text, oled_png
from companion.view.screen import screen_text
from companion.view.terminal import oled_box, terminal_screen
from companion.web.wiring import attach
from companion.words.logbook import finding_words
from companion.words.saying import error_words

DEMO_SECONDS = 1.2  # between the demo's entries
REFRESH_SECONDS = 0.05  # how often a terminal looks for changes no entry made


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "sim", help=_("run the board on simulated hardware in this terminal"),
        description=_("The Cribbage Companion daemon with simulated devices: type cards (5H, 10D, QS), go, undo, "
        "ok, 'peg Bob 5', or keypad keys as key:53. The OLED, the board and the game so far are drawn in an 80x24 "
        "terminal and kept up to date. Running again on the same --state-dir resumes the game; naming other "
        "players, a variant or a target starts a new one."),
    )
    parser.add_argument("--players", help=_("names for a new game, comma separated: two, three, or four (partners "
                        "sit opposite) (default: [game] players)"))
    parser.add_argument("--variant", choices=VARIANTS, help=_("the game for a new game: two, three or four players, "
                        "or five-card cribbage for two (to {target}) (default: from the number of players)")
                        .format(target=VARIANT["five-card"].target))
    parser.add_argument("--dealer", help=_("who deals first in a new game, skipping the cut for deal (default: "
                        "[game] dealer when one of the players, else the players cut)"))
    parser.add_argument("--target", type=int, choices=(61, 121), help=_("points to win a new game"))
    parser.add_argument("--state-dir", type=Path, help=_("where the game lives (default: "
                        "$XDG_STATE_HOME/cribbage-companion/sim, i.e. ~/.local/state/...)"))
    parser.add_argument("--new", action="store_true", help=_("start a new game instead of resuming"))
    parser.add_argument("--script", type=Path, help=_("read entries from FILE (one a line) and exit when done"))
    parser.add_argument("--snapshots", type=Path, metavar="DIR", help=_("write the OLED and LED pictures as PNG "
                        "after every input, and the OLED's lines as drawn beside its picture (NNNN-oled.txt)"))
    parser.add_argument("--demo", action="store_true", help=_("play a sample deal by itself (in a fresh game), "
                        "then sum it up"))
    parser.add_argument("--quiet", action="store_true", help=_("no pictures, only one line per entry"))
    parser.add_argument("--no-web", action="store_true", help=_("no page: by default the board is also served "
                        "as a web page ([web] listen, or a free port when that one is taken; a --script run "
                        "serves it only when --listen is given)"))
    parser.add_argument("--listen", metavar="HOST:PORT", help=_("the page's address (default: [web] listen)"))
    parser.add_argument("--speak", action="store_true", help=_("say the counts aloud through this computer's sound "
                        "card (espeak-ng; [voice] in the configuration chooses the voice, rate and what is said)"))
    parser.add_argument("--speak-to", type=Path, metavar="DIR", help=_("write each utterance as DIR/NNNN.wav, its "
                        "words in DIR/NNNN.txt, instead of playing it"))
    add_config_arguments(parser)
    parser.set_defaults(func=run)


def default_state_dir() -> Path:
    return sim_state_dir()  # `crib state` and `crib stats` look there too


def player_names(text: str) -> tuple[str, ...]:
    """The names of --players, or a CommandError saying how to write them."""
    names = tuple(name.strip() for name in text.split(","))
    example = _("like --players Ann,Bob (three: Ann,Bob,Cat; four, partners opposite: Ann,Bob,Cat,Dan)")
    if not all(names):
        raise CommandError(_("--players {text!r} has an empty name: give the names separated by commas, {example}")
                           .format(text=text, example=example))
    if not 2 <= len(names) <= 4:
        raise CommandError(ngettext("--players {text!r} names {count} player: a game has 2, 3 or 4 players, {example}",
                                    "--players {text!r} names {count} players: a game has 2, 3 or 4 players, {example}",
                                    len(names)).format(text=text, count=len(names), example=example))
    if long := [name for name in names if len(name) > NAME_CHARS]:
        raise CommandError(_("--players: a name has at most {most} characters, for the screen: shorten {name!r}")
                           .format(most=NAME_CHARS, name=long[0]))
    twice = next((name for name in names if names.count(name) > 1), None)
    if twice is not None:
        raise CommandError(_("--players names {twice} twice: give each player a different name").format(twice=twice))
    return names


def new_setup(config: Config, args: argparse.Namespace) -> t.GameInput:
    """The game a new game starts with: the configured one, with the players, variant, dealer and target given."""
    players = player_names(args.players) if args.players else None
    chosen = players or config.game.players
    variant = args.variant
    if variant is not None:
        wanted = VARIANT[variant].players
        if len(chosen) != wanted:
            where = "--players" if players else _("the configured players")
            raise CommandError(_("--variant {variant} is a game for {wanted} players but {where} name {count} "
                                 "({names}): give --players with {wanted} names")
                               .format(variant=variant, wanted=wanted, where=where, count=len(chosen),
                                       names=", ".join(chosen)))
    target = args.target
    if variant == "five-card":  # the variant table says to what it is played
        played_to = VARIANT[variant].target
        if target not in (None, played_to):
            raise CommandError(_("five-card cribbage is played to {target}: leave out --target, or give --target "
                                 "{target}").format(target=played_to))
        target = played_to
    # no dealer named: the game starts with the cut for deal (docs/rules.md); the demo's sample deal is Ann's
    dealer = args.dealer or (config.game.dealer if config.game.dealer in chosen else None)
    if args.demo and dealer is None:
        dealer = chosen[0]
    if dealer is not None and dealer not in chosen:
        raise CommandError(_("--dealer {dealer!r} is not one of the players {chosen}")
                           .format(dealer=dealer, chosen=', '.join(chosen)))
    return setup_input(config, players, dealer, target, variant)


def unfinished_game(state_dir: Path) -> tuple[Path, GameState] | None:
    """The game `crib sim` would resume from `state_dir`, unless there is none or it is over."""
    path = current_log(state_dir)
    if path is None:
        return None
    state = replay(GameLog.open(path).inputs)
    return None if state.phase in (Phase.NEW, Phase.GAME_OVER, Phase.MATCH_OVER) else (path, state)


def _game(state: GameState) -> str:
    return f"{', '.join(state.players)}, {state.variant} to {state.target}"


class Screen:
    """What the terminal shows: on a terminal, one screen kept up to date in place (the OLED, the board, the game
    so far, the last entry's outcome); otherwise a line an entry and the screen once at the end."""

    def __init__(self, table: Table, board: Devices, *, snapshots: Path | None, quiet: bool) -> None:
        self.table = table
        self.board = board
        self.snapshots = snapshots
        self.quiet = quiet
        self.colour = sys.stdout.isatty()
        self.live = self.colour and not quiet
        self.shown = 0
        self.status = ""  # the last entry and what became of it
        self.drawn: tuple[object, Frame, os.terminal_size] | None = None  # the image, LEDs and size last drawn
        self.looked = float("-inf")
        self.history: tuple[GameState, list[str]] | None = None
        if snapshots is not None:
            snapshots.mkdir(parents=True, exist_ok=True)

    def outcome(self, outcome: Outcome) -> None:
        text = outcome.entry.text.strip()
        if outcome.accepted is not None:
            line = f"ok {outcome.line} {json.dumps(input_to_json(outcome.accepted))}"
            self.status = f"{text}: {outcome.words() or _('ok')}"
        elif outcome.error:
            line = self.status = _("rejected {text!r}: {message}").format(text=text, message=outcome.words())
        else:
            line = _("noted {text!r}: {message}").format(text=text, message=outcome.words() or _("ok"))
            self.status = f"{text}: {outcome.words() or _('ok')}"
        self.shown += 1
        if self.snapshots is not None:
            stem = self.snapshots / f"{self.shown:04d}"
            oled_png(self.table.picture.image, stem.with_name(stem.name + "-oled.png"))  # type: ignore[arg-type]
            oled = "\n".join(line.rstrip() for line in screen_text(self.table.shown().screen))
            stem.with_name(stem.name + "-oled.txt").write_text(oled + "\n", encoding="utf-8")
            board_png(self.table.layout, self.leds(), stem.with_name(stem.name + "-board.png"),
                      legend_for(self.table.state, self.table.colours), self.table.state.target)
        if self.live:
            self.draw(typed=True)
        else:
            print(line, flush=True)

    def leds(self, *, settled: bool = True) -> Frame:
        """The board's LEDs: what the simulated Pico's strip holds (once `settled`: its pegs walked and flashed),
        else the frame computed."""
        pico, strip = self.board.pico, self.table.strip
        if pico is None or strip is None:
            return self.table.picture.frame
        from companion.devices.pegstrip import PicoPegStrip

        if settled and isinstance(strip, PicoPegStrip):
            pico.settle(strip)
        return pico.picture()

    def game_history(self) -> list[str]:
        state = self.table.state
        if self.history is None or self.history[0] is not state:
            self.history = state, game_history(state)
        return self.history[1]

    def lines(self, size: os.terminal_size, leds: Frame) -> list[str]:
        """The screen, a line a row but the last (where the player types)."""
        state, strip = self.table.state, self.table.strip
        help_line = _(HELP).format(new_game=NEW_GAME)
        if strip is not None and not strip.connected:
            help_line = (_("LED strip not connected: {problem}")
                         .format(problem=getattr(strip, 'problem', '') or _('unplugged')))
        return terminal_screen(
            oled=oled_box(self.table.shown().screen, colour=self.colour),
            board=board_rows(self.table.layout, leds, colour=self.colour),
            legend=legend_text(legend_for(state, self.table.colours), colour=self.colour),
            history=self.game_history(), status=[self.status, help_line], size=(size.columns, size.lines))

    def refresh(self, now: float) -> None:
        """Draw again when the picture changed without an entry: a peg walked or flashed, a message timed out, a
        long count turned its page, the terminal was resized (looked at every REFRESH_SECONDS)."""
        if not self.live or now < self.looked + REFRESH_SECONDS:
            return
        self.looked = now
        if self.drawn is None or self.drawn[0] is not self.table.picture.image or self.drawn[1:] != (
                self.leds(settled=False), shutil.get_terminal_size()):  # a new image is drawn for every change
            self.draw()

    def draw(self, *, typed: bool = False, settled: bool = False) -> None:
        """The whole screen. On a terminal in place, the pegs as they move (`settled`: once they have walked and
        flashed): after an entry (`typed`) the line typed on is cleared for the next; otherwise the cursor stays
        where it is, with whatever is being typed."""
        if self.quiet or self.table.picture.image is None:
            return
        size = shutil.get_terminal_size()
        leds = self.leds(settled=settled or not self.live)
        lines = self.lines(size, leds)
        if not self.live:
            print("\n".join(lines), flush=True)
            return
        first = self.drawn is None or self.drawn[2] != size
        self.drawn = (self.table.picture.image, leds, size)
        out = "\x1b[2J" if first else "" if typed else "\x1b7"
        out += "\x1b[H" + "".join(f"{line}\x1b[K\r\n" for line in lines)
        out += f"\x1b[{size.lines};1H\x1b[K" if typed or first else "\x1b8"
        sys.stdout.write(out)
        sys.stdout.flush()


def run(args: argparse.Namespace) -> int:
    if args.speak or args.speak_to:  # the voice for real (simulated, silent, when only [voice] enabled is set)
        args.overrides = [*args.overrides, "voice.enabled=true"]
    if args.speak_to:
        args.overrides.append(f"voice.record_to={json.dumps(str(args.speak_to))}")
    config = config_from_args(args)
    if args.listen:  # checked before anything opens, as [web] listen is
        given("--listen", listen_address, args.listen)
    with speaking(board_language(config, args)):
        return _simulate(args, config)


def _simulate(args: argparse.Namespace, config: Config) -> int:
    if simulated_choice(config, "strip"):  # unless chosen: the simulated Pico, firmware and all
        config = replace(config, devices=replace(config.devices, strip="pico-sim"))
    setup = new_setup(config, args)
    state_dir = args.state_dir or default_state_dir()
    script = args.script
    if script is not None and not script.is_file():
        raise CommandError(_("--script {script}: no such file").format(script=script))
    if args.demo:  # a fresh game in a directory of its own, removed when the demo ends
        with tempfile.TemporaryDirectory(prefix="crib-demo-") as demo_dir:
            return _play(args, config, setup, Path(demo_dir), script, new=True)
    return _play(args, config, setup, state_dir, script, new=args.new)


def _play(args: argparse.Namespace, config: Config, setup: t.GameInput, state_dir: Path, script: Path | None, *,
          new: bool) -> int:
    """The board on `state_dir` until the script, the terminal or the demo ends."""
    chosen = replay([setup])
    notes = []  # on stderr, and the first words under a live screen
    resumed = None if new else unfinished_game(state_dir)
    if resumed is not None and (args.players or args.variant or args.target):
        path, game = resumed
        if (game.players, game.variant, game.target) != (chosen.players, chosen.variant, chosen.target):
            new = True  # the game asked for, not the one left unfinished (its log stays)
            notes.append(_("a new game: {chosen}; the unfinished game ({game}) stays in {path}")
                         .format(chosen=_game(chosen), game=_game(game), path=path))
    clock = SystemClock()
    try:
        board, table = open_game(config, state_dir=state_dir, clock=clock, simulate=True, new=new, setup=setup,
                                 script=script)
    except (DeviceError, GameLogError) as error:
        raise CommandError(error_words(error, current())) from None
    screen = Screen(table, board, snapshots=args.snapshots, quiet=args.quiet)
    notes += [_("warning: {warning}").format(warning=finding_words(warning, current()))
              for warning in table.log.warnings]
    if table.state.players != setup.players and len(table.log.inputs) > 1:
        notes.append(_("resuming the game in {path} ({players}); --new starts another")
                     .format(path=table.log.path, players=', '.join(table.state.players)))
    for note in notes:
        print(note, file=sys.stderr)
    typing = "" if script is not None or args.demo else (
        _("Game log: {path}. Type an entry and Enter; Ctrl-D or Ctrl-C ends (the game is kept).")
        .format(path=table.log.path))
    if screen.live:
        screen.status = " ".join(part for part in (*notes, typing) if part)
        screen.draw()
    elif typing:
        print(typing, flush=True)

    def page_ready(address: str) -> None:
        said = _("The board in a browser: {address}").format(address=address)
        if screen.live:
            screen.status = f"{said} {screen.status}".strip()
            screen.draw()
        else:
            print(said, file=sys.stderr, flush=True)

    try:
        attached = attach(config, board, table, state_dir=state_dir, clock=clock, simulate=True,
                          web=not args.no_web and (script is None or args.listen is not None),
                          listen=args.listen, on_ready=page_ready)
    except DeviceError as error:
        board.close()
        raise CommandError(error_words(error, current())) from None
    daemon = Daemon(table, board, clock=clock, notifier=Notifier({}), on_outcome=attached.chain(screen.outcome),
                    club=club_publisher(config, state_dir))
    lines = next(d for d in board.entries if isinstance(d, LineEntry))  # the terminal's, or the script's
    if args.demo:
        return play_demo(daemon, clock, lines, screen)
    quiet_since: list[float] = []

    def done() -> bool:
        """Script or terminal input ended and everything it caused has been applied."""
        screen.refresh(clock.monotonic())
        if not lines.finished or not table.queue.empty():
            quiet_since.clear()
            return False
        quiet_since.append(clock.monotonic())
        if quiet_since[-1] - quiet_since[0] < 0.3:  # the keypad's last keys settle
            return False
        if not screen.live:
            screen.draw()  # the board as it ends, while the devices are still open
        return True

    try:
        code = daemon.run(done)
    except DeviceError as error:  # the page's address taken (after a free one was looked for)
        raise CommandError(error_words(error, current())) from None
    if screen.live:
        print(_("The game is kept in {path}: crib sim resumes it.").format(path=table.log.path))
    return code


def play_demo(daemon: Daemon, clock: Clock, lines: LineEntry, screen: Screen) -> int:
    """Feed the sample deal one entry at a time, slowly enough to watch, then sum the deal up."""
    lines.lines.clear()
    pending = list(DEMO)
    next_at = clock.monotonic() + DEMO_SECONDS

    def done() -> bool:
        nonlocal next_at
        screen.refresh(clock.monotonic())
        if pending and clock.monotonic() >= next_at:
            lines.lines.append(pending.pop(0))
            next_at = clock.monotonic() + DEMO_SECONDS
        if pending or lines.lines or not daemon.table.queue.empty() or clock.monotonic() < next_at:
            return False
        screen.draw(settled=True)  # the last frame: every peg in its hole, none caught mid-flash
        return True

    code = daemon.run(done)
    state = daemon.table.state
    print("\n".join(deal_summary(state, 1)), flush=True)
    return code
