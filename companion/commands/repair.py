"""`crib repair`: make a game log that cannot be resumed readable again, losing nothing.

The lines before the first one that cannot be used are kept; that line and everything after it are set aside
in a file beside the log (`NNNN.jsonl.set-aside`), so they can be looked at or entered again. The daemon does
the same by itself when it starts on such a log, and says so on the board's screen.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from companion.commands import CommandError
from companion.config import add_config_arguments, config_from_args
from companion.gamelog import GameLogError, current_log, repair
from companion.i18n import _, current
from companion.words.logbook import finding_words


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "repair", help=_("keep the good part of a damaged game log, set the rest aside"),
        description=_("Repair the board's current game log (or FILE): keep every line before the first one that "
        "cannot be resumed, and move the rest into FILE.set-aside beside it. A log that reads whole is left alone."),
    )
    parser.add_argument("file", nargs="?", type=Path, metavar="FILE", help=_("a game log (default: the current one)"))
    parser.add_argument("--state-dir", type=Path, help=_("where the game logs live (default: [state] dir)"))
    add_config_arguments(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    path = args.file
    if path is None:
        state_dir = args.state_dir or config_from_args(args).state.path
        path = current_log(state_dir)
        if path is None:
            raise CommandError(f"no game log in {state_dir}: nothing to repair")
    if not path.is_file():
        raise CommandError(f"{path}: no such game log: give the path of a log (games/NNNN.jsonl)")
    try:
        game_log, aside = repair(path)
    except (GameLogError, OSError) as error:
        raise CommandError(f"{error}") from None
    for warning in game_log.warnings:
        print(f"crib repair: {finding_words(warning, current())}")
    if aside is None:
        print(f"{path}: reads whole ({len(game_log.inputs)} inputs): nothing to repair")
    else:
        print(f"{path}: kept the {len(game_log.inputs)} inputs before the damage; the rest is in {aside}")
    return 0
