"""The subcommands of `crib`, one module each.

Every module here defines `register(subparsers)`, which adds its subparser and sets `func=` to a callable
taking the parsed arguments and returning an exit status. A new command is a new file and a line in the
table of `companion.cli.COMMANDS` (a test checks that every module here is in it). Import only what parsing
needs at the top of a module: libraries for the work itself load inside the function that does it. Raise
`CommandError` (from companion/errors.py) or an engine error for bad input: the message goes to stderr and the
exit status is 2, without a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from pathlib import Path

from companion.errors import CommandError

__all__ = ["EXTRAS", "CommandError", "game_state_dir", "need_extra", "sim_state_dir"]


EXTRAS = {"print": "the printing libraries fpdf2 and zxing-cpp", "plots": "the plotting library matplotlib",
          "vision": "the card reader's OpenCV"}
"""The optional parts of the package: `pip install 'cribbage-companion[NAME]'` adds them."""


def need_extra(extra: str, *modules: str) -> None:
    """Import these modules of an extra now, or say which extra to install instead of failing later."""
    for module in modules:
        try:
            importlib.import_module(module)
        except ImportError:
            raise CommandError(f"this needs {EXTRAS[extra]}, not installed here: "
                               f"pip install 'cribbage-companion[{extra}]' (in a checkout, "
                               f"`python3 dev.py` installs every extra)") from None


def sim_state_dir() -> Path:
    """Where `crib sim` keeps its game: $XDG_STATE_HOME/cribbage-companion/sim (~/.local/state/...)."""
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "cribbage-companion" / "sim"


def game_state_dir(args: argparse.Namespace, command: str) -> Path:
    """The state directory to read: --state-dir if given; else the board's ([state] dir) when it has a game
    log; else `crib sim`'s when that has one (said on stderr). Neither: a message naming both places."""
    if args.state_dir is not None:
        if not any((args.state_dir / "games").glob("*.jsonl")):
            raise CommandError(f"no game in {args.state_dir}: play one with `crib sim --state-dir {args.state_dir}` "
                               "or give the --state-dir of a board or simulator that has played")
        return Path(args.state_dir)
    from companion.config import config_from_args

    board, sim = config_from_args(args).state.path, sim_state_dir()
    for state_dir in (board, sim):
        if any((state_dir / "games").glob("*.jsonl")):
            if state_dir == sim:
                print(f"crib {command}: no board game in {board}: reading crib sim's games in {sim}", file=sys.stderr)
            return state_dir
    raise CommandError(f"no game in {board} (the board's) nor in {sim} (crib sim's): play one with `crib sim` "
                       "or `crib run`, or give --state-dir")
