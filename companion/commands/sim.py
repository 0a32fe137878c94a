"""`crib sim`: the daemon on simulated hardware, with the board and the OLED drawn in this terminal.

The board is drawn from what the simulated Pico's LEDs hold once it has settled (the real driver, protocol and
firmware in between), or from the frame the table computed when the recording strip (devices.strip = "sim")
stands in."""

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

from companion.clock import Clock, SystemClock
from companion.commands import CommandError
from companion.config import Config, add_config_arguments, config_from_args
from companion.cribbage.transcript import GameInput, input_to_json
from companion.daemon import Daemon, Notifier, club_publisher, open_game, setup_input
from companion.devices.base import DeviceError
from companion.devices.registry import Devices, simulated_choice
from companion.devices.sim import LineEntry
from companion.gamelog import GameLogError
from companion.table import HELP, Outcome, Table
from companion.view.leds import Frame
from companion.view.picture import board_png, board_text, legend_for, legend_text, oled_png, oled_text

# The sample deal `--demo` plays: Ann deals; Bob holds 10C 5H 5D JH, Ann 4C 6D 7S 8H; the crib 2C 3D 9S KH.
DEMO = ["5C", "10C", "4C", "5H", "6D", "5D", "go", "go", "7S", "JH", "8H", "2C", "3D", "9S", "KH"]
DEMO_SECONDS = 1.2  # between the demo's entries


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "sim", help="run the board on simulated hardware in this terminal",
        description="The Cribbage Companion daemon with simulated devices: type cards (5H, 10D, QS), go, undo, "
        "ok, 'peg 2 5', or keypad keys as key:53. The board and the OLED are drawn after every input. Running "
        "again on the same --state-dir resumes the game.",
    )
    parser.add_argument("--players", help="names for a new game, comma separated (default: [game] players)")
    parser.add_argument("--dealer", help="who deals first in a new game, skipping the cut for deal (default: "
                        "[game] dealer when one of the players, else the players cut)")
    parser.add_argument("--target", type=int, choices=(61, 121), help="points to win a new game")
    parser.add_argument("--state-dir", type=Path, help="where the game lives (default: "
                        "$XDG_STATE_HOME/cribbage-companion/sim, i.e. ~/.local/state/...)")
    parser.add_argument("--new", action="store_true", help="start a new game instead of resuming")
    parser.add_argument("--script", type=Path, help="read entries from FILE (one a line) and exit when done")
    parser.add_argument("--snapshots", type=Path, metavar="DIR", help="write the OLED and LED pictures as PNG "
                        "after every input")
    parser.add_argument("--demo", action="store_true", help="play a sample deal by itself (in a fresh game)")
    parser.add_argument("--quiet", action="store_true", help="no pictures, only one line per entry")
    add_config_arguments(parser)
    parser.set_defaults(func=run)


def default_state_dir() -> Path:
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "cribbage-companion" / "sim"


class Screen:
    """What the terminal shows: a line per entry, and the pictures (redrawn in place on a terminal)."""

    def __init__(self, table: Table, board: Devices, *, snapshots: Path | None, quiet: bool) -> None:
        self.table = table
        self.board = board
        self.snapshots = snapshots
        self.quiet = quiet
        self.live = sys.stdout.isatty() and not quiet
        self.wide = shutil.get_terminal_size().columns >= 132
        self.shown = 0
        if snapshots is not None:
            snapshots.mkdir(parents=True, exist_ok=True)

    def outcome(self, outcome: Outcome) -> None:
        if outcome.accepted is not None:
            line = f"ok {outcome.line} {json.dumps(input_to_json(outcome.accepted))}"
        elif outcome.error:
            line = f"rejected {outcome.entry.text!r}: {outcome.message}"
        else:
            line = f"noted {outcome.entry.text!r}: {outcome.message or 'ok'}"
        self.shown += 1
        if self.snapshots is not None:
            stem = self.snapshots / f"{self.shown:04d}"
            oled_png(self.table.picture.image, stem.with_name(stem.name + "-oled.png"))  # type: ignore[arg-type]
            board_png(self.table.layout, self.leds(), stem.with_name(stem.name + "-board.png"),
                      legend_for(self.table.state, self.table.colours), self.table.state.target)
        if self.live:
            self.draw(clear=True)
        print(line, flush=True)

    def leds(self) -> Frame:
        """The board's LEDs: what the simulated Pico's strip holds once settled, else the frame computed."""
        pico, strip = self.board.pico, self.table.strip
        if pico is None or strip is None:
            return self.table.picture.frame
        from companion.devices.pegstrip import PicoPegStrip

        if isinstance(strip, PicoPegStrip):
            pico.settle(strip)
        return pico.picture()

    def draw(self, *, clear: bool = False) -> None:
        if self.quiet or self.table.picture.image is None:
            return
        if clear:
            print("\x1b[2J\x1b[H", end="")
        print(oled_text(self.table.picture.image, wide=self.wide))
        print(board_text(self.table.layout, self.leds(), colour=sys.stdout.isatty()))
        print(legend_text(legend_for(self.table.state, self.table.colours), colour=sys.stdout.isatty()))
        strip = self.table.strip
        if strip is not None and not strip.connected:
            print(f"LED strip not connected: {getattr(strip, 'problem', '') or 'unplugged'}")
        print(f"\n{self.table.prompt()}    ({HELP})", flush=True)


def run(args: argparse.Namespace) -> int:
    config = config_from_args(args)
    if simulated_choice(config, "strip"):  # unless chosen: the simulated Pico, firmware and all
        config = replace(config, devices=replace(config.devices, strip="pico-sim"))
    players = [p.strip() for p in args.players.split(",")] if args.players else None
    chosen = players or list(config.game.players)
    # no dealer named: the game starts with the cut for deal (docs/rules.md); the demo's sample deal is Ann's
    dealer = args.dealer or (config.game.dealer if config.game.dealer in chosen else None)
    if args.demo and dealer is None:
        dealer = chosen[0]
    if dealer is not None and dealer not in chosen:
        raise CommandError(f"--dealer {dealer!r} is not one of the players {', '.join(chosen)}")
    setup = setup_input(config, players, dealer, args.target)
    state_dir = args.state_dir or default_state_dir()
    script, new = args.script, args.new
    if script is not None and not script.is_file():
        raise CommandError(f"--script {script}: no such file")
    if args.demo:  # a fresh game in a directory of its own, removed when the demo ends
        with tempfile.TemporaryDirectory(prefix="crib-demo-") as demo_dir:
            return _run(args, config, setup, Path(demo_dir), script, new=True)
    return _run(args, config, setup, state_dir, script, new=new)


def _run(args: argparse.Namespace, config: Config, setup: GameInput, state_dir: Path, script: Path | None, *,
         new: bool) -> int:
    clock = SystemClock()
    try:
        board, table = open_game(config, state_dir=state_dir, clock=clock, simulate=True, new=new, setup=setup,
                                 script=script)
    except (DeviceError, GameLogError) as error:
        raise CommandError(str(error)) from None
    screen = Screen(table, board, snapshots=args.snapshots, quiet=args.quiet)
    for warning in table.log.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    if table.state.players != setup.players and len(table.log.inputs) > 1:
        print(f"resuming the game in {table.log.path} ({', '.join(table.state.players)}); --new starts another",
              file=sys.stderr)
    screen.draw()
    daemon = Daemon(table, board, clock=clock, notifier=Notifier({}), on_outcome=screen.outcome,
                    club=club_publisher(config, state_dir))
    lines = next(d for d in board.entries if isinstance(d, LineEntry))  # the terminal's, or the script's
    if args.demo:
        return play_demo(daemon, clock, lines)
    if script is None:
        print(f"Game log: {table.log.path}. Type an entry and Enter; Ctrl-D or Ctrl-C ends (the game is kept).",
              flush=True)
    quiet_since: list[float] = []

    def done() -> bool:
        """Script or terminal input ended and everything it caused has been applied."""
        if not lines.finished or not table.queue.empty():
            quiet_since.clear()
            return False
        quiet_since.append(clock.monotonic())
        if quiet_since[-1] - quiet_since[0] < 0.3:  # the keypad's last keys settle
            return False
        if not screen.live:
            screen.draw()  # the board as it ends, while the devices are still open
        return True

    return daemon.run(done)


def play_demo(daemon: Daemon, clock: Clock, lines: LineEntry) -> int:
    """Feed the sample deal one entry at a time, slowly enough to watch."""
    lines.lines.clear()
    pending = list(DEMO)
    next_at = clock.monotonic() + DEMO_SECONDS

    def done() -> bool:
        nonlocal next_at
        if pending and clock.monotonic() >= next_at:
            lines.lines.append(pending.pop(0))
            next_at = clock.monotonic() + DEMO_SECONDS
        return not pending and not lines.lines and daemon.table.queue.empty() and clock.monotonic() >= next_at

    return daemon.run(done)
