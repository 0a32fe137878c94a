"""The subcommands of `crib`, one module each.

Every module here defines `register(subparsers)`, which adds its subparser and sets `func=` to a callable
taking the parsed arguments and returning an exit status. `companion.cli` finds the modules itself, so a new
command is a new file. Raise `CommandError` (from companion/errors.py) or an engine error for bad input: the
message goes to stderr and the exit status is 2, without a traceback.
"""

from companion.errors import CommandError

__all__ = ["CommandError"]
