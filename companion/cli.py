"""The `crib` command: a table of subcommands, each imported only when it is the one chosen.

Starting fast is the point: a bare `crib` or `crib --help` lists every command from the table below without
importing any of them, and `crib NAME ...` imports only `companion.commands.NAME`, whose `register` builds
its full parser (so `crib NAME --help` is complete). Heavy libraries load inside the functions that use them.
"""

from __future__ import annotations

import argparse
import importlib
import itertools
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .commands import CommandError
from .cribbage.errors import CribbageError
from .i18n import N_, Language, _, choose, speaking

DISTRIBUTION = "cribbage-companion"

# name -> (module in companion.commands, the one line `crib --help` shows; the module's own help says the same)
# (marked for the catalog; every help text is shown in the chosen language)
COMMANDS: dict[str, tuple[str, str]] = {
    "sim": ("sim", N_("run the board on simulated hardware in this terminal")),
    "run": ("run", N_("run the board with the configured devices")),
    "play": ("play", N_("play against the computer, in the browser or in this terminal")),
    "state": ("state", N_("print the current game from the board's game log")),
    "score": ("score", N_("count a hand or crib with its starter")),
    "peg": ("peg", N_("points for the last card played")),
    "replay": ("replay", N_("replay a game transcript and print the scores")),
    "advise": ("advise", N_("which cards to lay away to the crib")),
    "hint": ("hint", N_("which card to play in the play (pegging), or which two to lay away")),
    "selfplay": ("selfplay", N_("play computer levels against each other")),
    "model": ("model", N_("build the opponent model used by `crib advise --model` and the pro player")),
    "stats": ("stats", N_("per-player statistics over every logged game")),
    "bench": ("bench", N_("measure speed and strength, printed as JSON")),
    "print-deck": ("print_deck", N_("print barcode stickers (or whole cards) for a real deck")),
    "scan-test": ("scan_test", N_("check a barcode scanner: echo each code and say what it means")),
    "recognize": ("recognize", N_("read ordinary playing cards from photographs")),
    "check-config": ("check_config", N_("validate the configuration and print the effective values")),
    "repair": ("repair", N_("keep the good part of a damaged game log, set the rest aside")),
    "club": ("club", N_("the club scoreboard: every board's game live, the night's standings, a tournament")),
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
    setattr(argparse, "_", _)  # noqa: B010 (argparse looks its words up through its module's `_`)
    parser = argparse.ArgumentParser(
        prog="crib", description=_("Cribbage Companion: score cards, advise, replay games, run the board."),
        epilog=_("`crib COMMAND --help` tells more about each command."),
    )
    parser.add_argument("--version", action=_VersionAction, help=_("print the version and exit"))
    add_language_argument(parser, dest="all_lang")  # `crib --lang de --help`, `crib --lang de score ...`
    subparsers = parser.add_subparsers(dest="command", metavar=_("COMMAND"), title=_("commands"))
    for name, (module, summary) in COMMANDS.items():
        if name == command:
            importlib.import_module(f"{__package__}.commands.{module}").register(subparsers)
            add_language_argument(subparsers.choices[name])
        else:
            subparsers.add_parser(name, help=_(summary), add_help=False)
    return parser


def add_language_argument(parser: argparse.ArgumentParser, dest: str = "lang") -> None:
    """--lang, which every command takes: the words it prints (and, for the board, shows) in that language."""
    parser.add_argument("--lang", metavar="LANG", choices=["en", "de", "auto"], dest=dest,
                        help=_("en, de or auto (the system's language; the default, or [game] language where the "
                             "command reads the configuration)"))


# argparse's own words, which it looks up through its module's `_` (the catalog's, set by `build_parser`)
ARGPARSE_WORDS = (N_("usage: "), N_("options"), N_("positional arguments"), N_("show this help message and exit"),
                  N_("%(prog)s: error: %(message)s\n"), N_("argument %(argument_name)s: %(message)s"),
                  N_("invalid choice: %(value)r (choose from %(choices)s)"),
                  N_("the following arguments are required: %s"), N_("unrecognized arguments: %s"),
                  N_("expected one argument"), N_("invalid %(type)s value: %(value)r"),
                  N_("ambiguous option: %(option)s could match %(matches)s"), N_("not allowed with argument %s"),
                  N_("one of the arguments %s is required"))


def _option(argv: Sequence[str], name: str) -> list[str]:
    """The values given to option `name` in `argv` ("--lang de" or "--lang=de")."""
    found = [value for flag, value in itertools.pairwise(argv) if flag == name]
    return found + [word.split("=", 1)[1] for word in argv if word.startswith(name + "=")]


def help_language(argv: Sequence[str]) -> Language:
    """The language of the help and of argparse's messages, chosen before the parser is built: --lang, else (for
    --help) the [game] language of the configuration the options name, else the system's."""
    given = _option(argv, "--lang")
    chosen = given[-1] if given else None
    if chosen is None and {"-h", "--help"} & set(argv):
        from .config import ConfigError, load_config

        config = _option(argv, "--config")
        try:
            chosen = load_config(Path(config[-1]) if config else None, _option(argv, "--set")).game.language
        except (ConfigError, OSError, ValueError):
            chosen = None  # a configuration that does not load is said when the command runs
    try:
        return choose(chosen)
    except ValueError:
        return choose(None)  # argparse says what --lang takes


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    with speaking(help_language(argv)):
        return _main(argv)


def _main(argv: list[str]) -> int:
    values = {index + 1 for index, word in enumerate(argv) if word in ("--lang", "--config", "--set")}
    chosen = next((word for index, word in enumerate(argv) if not word.startswith("-") and index not in values), None)
    parser = build_parser(chosen if chosen in COMMANDS else None)
    args = parser.parse_args(argv)
    if getattr(args, "lang", None) is None and args.all_lang is not None:
        args.lang = args.all_lang
    if args.command is None:
        parser.print_help()
        return 2
    try:
        with speaking(choose(getattr(args, "lang", None))):
            status: int = args.func(args)
    except CribbageError as error:
        from .words.saying import error_words

        with speaking(choose(getattr(args, "lang", None))):
            print(f"crib {args.command}: {error_words(error)}", file=sys.stderr)
        return 2
    except CommandError as error:
        from .words.saying import command_words

        with speaking(choose(getattr(args, "lang", None))):
            print(f"crib {args.command}: {command_words(error)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    return status


if __name__ == "__main__":
    sys.exit(main())
