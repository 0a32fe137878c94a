"""The subcommands of `crib`, one module each.

Every module here defines `register(subparsers)`, which adds its subparser and sets `func=` to a callable
taking the parsed arguments and returning an exit status. A new command is a new file and a line in the
table of `companion.cli.COMMANDS` (a test checks that every module here is in it). Import only what parsing
needs at the top of a module: libraries for the work itself load inside the function that does it. Raise
`CommandError` (or an engine error) for bad input: the message goes to stderr and the exit status is 2,
without a traceback.
"""

import importlib


class CommandError(Exception):
    """Bad input to a command that is not a rules or card error: a missing file, a bad option value."""


EXTRAS = {"print": "the printing libraries fpdf2 and zxing-cpp", "plots": "the plotting library matplotlib"}
"""The optional parts of the package: `pip install 'cribbage-companion[NAME]'` adds them."""


def need_extra(extra: str, *modules: str) -> None:
    """Import these modules of an extra now, or say which extra to install instead of failing later."""
    for module in modules:
        try:
            importlib.import_module(module)
        except ImportError:
            raise CommandError(f"this needs {EXTRAS[extra]}, not installed here: "
                               f"pip install 'cribbage-companion[{extra}]' (in a checkout, "
                               f"`python3 dev.py` installs every extra)") from None
