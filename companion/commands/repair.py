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
from companion.i18n import _, current, ngettext
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
            raise CommandError(_("no game log in {state_dir}: nothing to repair").format(state_dir=state_dir))
    if not path.is_file():
        raise CommandError(_("{path}: no such game log: give the path of a log (games/NNNN.jsonl)").format(path=path))
    try:
        game_log, aside = repair(path)
    except (GameLogError, OSError) as error:
        raise CommandError(str(error)) from None  # a log's finding in the language current, or the system's words
    for warning in game_log.warnings:
        print(_("crib repair: {warning}").format(warning=finding_words(warning, current())))
    count = len(game_log.inputs)
    if aside is None:
        print(ngettext("{path}: reads whole ({count} input): nothing to repair",
                       "{path}: reads whole ({count} inputs): nothing to repair", count).format(path=path, count=count))
    else:
        print(ngettext("{path}: kept the {count} input before the damage; the rest is in {aside}",
                       "{path}: kept the {count} inputs before the damage; the rest is in {aside}", count)
              .format(path=path, count=count, aside=aside))
    return 0
