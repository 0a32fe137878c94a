"""`crib state`: the current game of a state directory, read from its log, in the form of `crib replay`."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from companion.commands import CommandError
from companion.commands.replay import describe
from companion.config import add_config_arguments, config_from_args
from companion.cribbage.game import replay
from companion.devices.presence import read_status
from companion.gamelog import GameLog, GameLogError, current_log


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "state", help="print the current game from the board's game log",
        description="Print the game the board is playing (or last played), replayed from its log in the state "
        "directory, like `crib replay`. The log is only read, never repaired.",
    )
    parser.add_argument("--state-dir", type=Path, help="where the game logs live (default: [state] dir)")
    parser.add_argument("--json", action="store_true", help="print the state as JSON")
    add_config_arguments(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    state_dir = args.state_dir or config_from_args(args).state.path
    path = current_log(state_dir)
    if path is None:
        raise CommandError(f"no game in {state_dir}: start one with `crib sim --state-dir {state_dir}` "
                           "or `crib run`")
    try:
        game_log = GameLog.open(path, repair=False)
    except GameLogError as error:
        raise CommandError(str(error)) from None
    for warning in game_log.warnings:
        print(f"crib state: {warning}", file=sys.stderr)
    state = replay(game_log.inputs)
    devices = read_status(state_dir)  # None unless the board runs
    if args.json:
        print(json.dumps({"log": str(path), **state.to_json(), **({"devices": devices} if devices is not None else {})},
                         ensure_ascii=False))
    else:
        print(f"game log: {path}")
        if devices is not None:  # as the running board has them
            for what, problem in devices.items():
                print(f"{what}: {'missing: ' + problem if problem else 'connected'}")
        print(describe(state))
    return 0
