"""The subcommands of `crib`, one module each.

Every module here defines `register(subparsers)`, which adds its subparser and sets `func=` to a callable
taking the parsed arguments and returning an exit status. `companion.cli` finds the modules itself, so a new
command is a new file. Raise `CommandError` (or an engine error) for bad input: the message goes to stderr
and the exit status is 2, without a traceback.
"""


class CommandError(Exception):
    """Bad input to a command that is not a rules or card error: a missing file, a bad option value."""
