"""`crib state`: the current game of a state directory, read from its log, in the form of `crib replay`."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from companion.commands import CommandError, game_state_dir
from companion.config import add_config_arguments
from companion.cribbage.game import replay
from companion.devices.presence import read_status, status_json
from companion.gamelog import GameLog, GameLogError, current_log
from companion.i18n import _, current
from companion.view.history import describe
from companion.words.contract import BoardStateJSON
from companion.words.devices import device_name, device_words
from companion.words.logbook import finding_words
from companion.words.projection import state_json
from companion.words.saying import error_words


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "state", help=_("print the current game from the board's game log"),
        description=_("Print the game the board is playing (or last played), replayed from its log in the state "
        "directory, like `crib replay`. The log is only read, never repaired."),
    )
    parser.add_argument("--state-dir", type=Path, help=_("where the game logs live (default: [state] dir, else "
                        "crib sim's when the board has no game)"))
    parser.add_argument("--json", action="store_true", help=_("print the state as JSON"))
    add_config_arguments(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    state_dir = game_state_dir(args, "state")
    path = current_log(state_dir)
    assert path is not None  # game_state_dir found a log there
    try:
        game_log = GameLog.open(path, repair=False)
    except GameLogError as error:
        raise CommandError(error_words(error, current())) from None
    for warning in game_log.warnings:
        print(_("crib state: {warning}").format(warning=finding_words(warning, current())), file=sys.stderr)
    state = replay(game_log.inputs)
    devices = read_status(state_dir)  # None unless the board runs
    if args.json:
        shown: BoardStateJSON = {"log": str(path), "state": state_json(state)}
        if devices is not None:
            shown["devices"] = status_json(devices)
        print(json.dumps(shown, ensure_ascii=False))
    else:
        print(_("game log: {path}").format(path=path))
        if devices is not None:  # as the running board has them
            for what, problem in devices.items():
                name = device_name(what, current())
                print(_("{device}: missing: {problem}").format(device=name, problem=device_words(problem, current()))
                      if problem
                      else _("{device}: connected").format(device=name))
        print(describe(state))
    return 0
