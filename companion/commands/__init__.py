"""The subcommands of `crib`, one module each.

Every module here defines `register(subparsers)`, which adds its subparser and sets `func=` to a callable
taking the parsed arguments and returning an exit status. A new command is a new file and a line in the
table of `companion.cli.COMMANDS` (a test checks that every module here is in it). Import only what parsing
needs at the top of a module: libraries for the work itself load inside the function that does it. Raise
`CommandError` (from companion/base/usage.py) or an engine error for bad input: the message goes to stderr and the
exit status is 2, without a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from pathlib import Path

from companion.base.usage import CommandError
from companion.i18n import N_, _

__all__ = ["EXTRAS", "CommandError", "game_state_dir", "need_extra", "play_state_dir", "sim_state_dir"]


EXTRAS = {"print": N_("the printing libraries fpdf2 and zxing-cpp"), "plots": N_("the plotting library matplotlib"),
          "vision": N_("the card reader's OpenCV")}
"""The optional parts of the package: `pip install 'cribbage-companion[NAME]'` adds them."""


def need_extra(extra: str, *modules: str) -> None:
    """Import these modules of an extra now, or say which extra to install instead of failing later."""
    for module in modules:
        try:
            importlib.import_module(module)
        except ImportError:
            raise CommandError(_("this needs {what}, not installed here: pip install 'cribbage-companion[{extra}]' "
                                 "(in a checkout, `python3 dev.py` installs every extra)")
                               .format(what=_(EXTRAS[extra]), extra=extra)) from None


def _local_state(name: str) -> Path:
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "cribbage-companion" / name


def sim_state_dir() -> Path:
    """Where `crib sim` keeps its game: $XDG_STATE_HOME/cribbage-companion/sim (~/.local/state/...)."""
    return _local_state("sim")


def play_state_dir() -> Path:
    """Where `crib play` keeps the games against the computer: $XDG_STATE_HOME/cribbage-companion/play."""
    return _local_state("play")


def _newest_log(state_dir: Path) -> float | None:
    """When the newest game log of `state_dir` was written, or None when it has none."""
    times = [path.stat().st_mtime for path in (state_dir / "games").glob("*.jsonl")]
    return max(times) if times else None


def game_state_dir(args: argparse.Namespace, command: str) -> Path:
    """The state directory to read: --state-dir if given; else the board's ([state] dir) when it has a game
    log; else the one of `crib play` (games against the computer) or `crib sim` with the newest game, said on
    stderr with where the other one is. None has a game: a message naming the three places."""
    from companion.i18n import _

    if args.state_dir is not None:
        if _newest_log(args.state_dir) is None:
            raise CommandError(_("no game in {dir}: give the --state-dir of a board, `crib play` or `crib sim` "
                                 "that has played (without --state-dir: the board's, {play} and {sim})")
                               .format(dir=args.state_dir, play=play_state_dir(), sim=sim_state_dir()))
        return Path(args.state_dir)
    from companion.config import config_from_args

    board = config_from_args(args).state.path
    if _newest_log(board) is not None:
        return board
    places = {play_state_dir(): _("crib play's games"), sim_state_dir(): _("crib sim's games")}
    found = sorted(((when, where) for where in places if (when := _newest_log(where)) is not None), reverse=True)
    if not found:
        raise CommandError(_("no game in {board} (the board's), {play} (crib play's) nor {sim} (crib sim's): play "
                             "one with `crib play`, `crib sim` or `crib run`, or give --state-dir")
                           .format(board=board, play=play_state_dir(), sim=sim_state_dir()))
    chosen = found[0][1]
    note = _("crib {command}: no board game in {board}: reading {games} in {dir}").format(
        command=command, board=board, games=places[chosen], dir=chosen)
    for _when, other in found[1:]:
        note += "; " + _("{games} are in {dir} (--state-dir {dir})").format(games=places[other], dir=other)
    print(note, file=sys.stderr)
    return chosen
