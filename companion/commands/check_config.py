"""`crib check-config [FILE]`: validate the configuration layers and print the effective configuration."""

from __future__ import annotations

import argparse
from typing import Any

from companion.config import SYSTEM_PATH, load_config
from companion.i18n import _, current
from companion.registry import check_config


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "check-config",
        help=_("validate the configuration and print the effective values"),
        description=_("Read the packaged defaults, {path} (if present) and FILE, apply --set overrides, and print "
                      "every effective value with the file and line it came from. Exit status 2 on any error.")
        .format(path=SYSTEM_PATH),
    )
    parser.add_argument("file", nargs="?", metavar="FILE", help=_("a configuration file to check on top of the others"))
    parser.add_argument("--set", metavar="KEY=VALUE", action="append", default=[], dest="overrides",
                        help=_("override one value, e.g. --set devices.scanner=serial (repeatable)"))
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    config = load_config(args.file, args.overrides)
    check_config(config)  # what only the drivers can judge: the scanner's name, the Pico's pins
    print(config.to_toml(current()), end="")
    return 0
