"""The `crib` command: finds the subcommands in `companion.commands` and runs one."""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence

from . import __version__, commands, i18n
from .cribbage.errors import CribbageError


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="crib", description="Cribbage Companion: score cards, advise, replay games, run the board."
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for module in sorted(m.name for m in pkgutil.iter_modules(commands.__path__)):
        importlib.import_module(f"{commands.__name__}.{module}").register(subparsers)
    for command in subparsers.choices.values():
        add_language_argument(command)
    return parser


def add_language_argument(parser: argparse.ArgumentParser) -> None:
    """--lang, which every command takes: the words it prints (and, for the board, shows) in that language."""
    parser.add_argument("--lang", metavar="LANG", choices=[*i18n.LANGUAGES, "auto"],
                        help="en, de or auto (the system's language; the default, or [game] language where the "
                             "command reads the configuration)")


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        i18n.use(getattr(args, "lang", None))
        status: int = args.func(args)
    except (CribbageError, commands.CommandError) as error:
        print(f"crib {args.command}: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    return status


if __name__ == "__main__":
    sys.exit(main())
