"""`crib replay`: replay a game's transcript (JSON Lines table inputs) and print the scores, deal by deal."""

from __future__ import annotations

import argparse
import json
from typing import Any

from companion.base.textlines import open_text
from companion.gamelog import replay_lines
from companion.i18n import _
from companion.view.history import describe
from companion.words.projection import state_json


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "replay", help=_("replay a game transcript and print the scores"),
        description=_("Replay a transcript: one table input a line as JSON, e.g. {\"type\":\"play\",\"card\":\"5H\"} "
        "(the format of the game log; see RULES.md). Prints every deal's points and the state of the game."),
    )
    parser.add_argument("file", metavar="FILE", help=_("the transcript ('-' for standard input)"))
    parser.add_argument("--json", action="store_true", help=_("print the state as JSON"))
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    with open_text(args.file) as lines:
        state = replay_lines(lines)
    if args.json:
        print(json.dumps(state_json(state), ensure_ascii=False))
    else:
        print(describe(state))
    return 0
