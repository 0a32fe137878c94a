"""Errors that many layers raise. Rules and card errors are the engine's (companion/cribbage/errors.py);
device, log and layout errors stay with the module that raises them."""


class CommandError(Exception):
    """Bad input that is not a rules or card error: a missing file, a bad option value, a configuration to fix.
    The message says what to do; `crib` prints it and exits with status 2, without a traceback."""
