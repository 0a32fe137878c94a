"""`crib run`: the daemon with the devices of the configuration (what systemd starts as cribbage-companion)."""

from __future__ import annotations

import argparse
import logging
from typing import Any

from companion.commands import CommandError
from companion.daemon import LOG_FORMAT, add_run_arguments, serve
from companion.devices.base import DeviceError
from companion.gamelog import GameLogError
from companion.i18n import _, current
from companion.words.saying import error_words


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "run", help=_("run the board with the configured devices"),
        description=_("Run the Cribbage Companion daemon in the foreground with the devices of the configuration "
        "(the packaged defaults, then /etc/cribbage-companion/config.toml, then --config, then --set). It resumes "
        "the current game from the state directory. Stop it with Ctrl-C or SIGTERM; the game is kept."),
    )
    add_run_arguments(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format=LOG_FORMAT)  # as cribbage-companion logs
    try:
        return serve(args)
    except (DeviceError, GameLogError) as error:
        raise CommandError(error_words(error, current())) from None
