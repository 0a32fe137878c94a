"""The `crib` command: a table of subcommands, each imported only when it is the one chosen.

Starting fast is the point: a bare `crib` or `crib --help` lists every command from the table below without
importing any of them, and `crib NAME ...` imports only `companion.commands.NAME`, whose `register` builds
its full parser (so `crib NAME --help` is complete). Heavy libraries load inside the functions that use them.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import Any

from .commands import CommandError
from .cribbage.errors import CribbageError

DISTRIBUTION = "cribbage-companion"

# name -> (module in companion.commands, the one line `crib --help` shows; the module's own help says the same)
COMMANDS: dict[str, tuple[str, str]] = {
    "sim": ("sim", "run the board on simulated hardware in this terminal"),
    "run": ("run", "run the board with the configured devices"),
    "play": ("play", "play against the computer, in the browser or in this terminal"),
    "state": ("state", "print the current game from the board's game log"),
    "score": ("score", "count a hand or crib with its starter"),
    "peg": ("peg", "points for the last card played"),
    "replay": ("replay", "replay a game transcript and print the scores"),
    "advise": ("advise", "which cards to lay away to the crib"),
    "hint": ("hint", "which card to play in the play (pegging)"),
    "selfplay": ("selfplay", "play computer levels against each other"),
    "model": ("model", "build the opponent model used by `crib advise --model` and the pro player"),
    "stats": ("stats", "per-player statistics over every logged game"),
    "bench": ("bench", "measure speed and strength, printed as JSON"),
    "print-deck": ("print_deck", "print barcode stickers (or whole cards) for a real deck"),
    "scan-test": ("scan_test", "check a barcode scanner: echo each code and say what it means"),
    "check-config": ("check_config", "validate the configuration and print the effective values"),
    "repair": ("repair", "keep the good part of a damaged game log, set the rest aside"),
    "club": ("club", "the club scoreboard: every board's game live, the night's standings, a tournament"),
}


def version() -> str:
    """The installed package's version: the one number, kept in pyproject.toml."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed_version

    try:
        return installed_version(DISTRIBUTION)
    except PackageNotFoundError:
        return "unknown (not installed: run `pip install -e .` in the checkout)"


class _VersionAction(argparse.Action):
    """`--version`, looking the version up only when asked (importlib.metadata costs start-up time)."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, *_: Any) -> None:
        print(f"{parser.prog} {version()}")
        parser.exit()


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The `crib` parser; only `command` (if any) gets its full subparser, the others just their name and line."""
    parser = argparse.ArgumentParser(
        prog="crib", description="Cribbage Companion: score cards, advise, replay games, run the board.",
        epilog="`crib COMMAND --help` tells more about each command.",
    )
    parser.add_argument("--version", action=_VersionAction, help="print the version and exit")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands")
    for name, (module, summary) in COMMANDS.items():
        if name == command:
            importlib.import_module(f"{__package__}.commands.{module}").register(subparsers)
            add_language_argument(subparsers.choices[name])
        else:
            subparsers.add_parser(name, help=summary, add_help=False)
    return parser


def add_language_argument(parser: argparse.ArgumentParser) -> None:
    """--lang, which every command takes: the words it prints (and, for the board, shows) in that language."""
    parser.add_argument("--lang", metavar="LANG", choices=["en", "de", "auto"],
                        help="en, de or auto (the system's language; the default, or [game] language where the "
                             "command reads the configuration)")


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    chosen = next((word for word in argv if not word.startswith("-")), None)
    parser = build_parser(chosen if chosen in COMMANDS else None)
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    try:
        from . import i18n

        i18n.use(getattr(args, "lang", None))
        status: int = args.func(args)
    except (CribbageError, CommandError) as error:
        print(f"crib {args.command}: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    return status


if __name__ == "__main__":
    sys.exit(main())
