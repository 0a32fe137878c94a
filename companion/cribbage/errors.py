"""The engine's error types: one for bad syntax, one for moves the rules forbid.

Every message is written for the person at the table and says what to do next.
Bad input never changes the state: the engine raises before it builds a new one.
"""


class CribbageError(Exception):
    """Base of every error the engine raises on purpose."""


class CardSyntaxError(CribbageError, ValueError):
    """Text that is not a card (or a barcode payload that is not ours)."""


class InputError(CribbageError, ValueError):
    """A table input that is malformed: unknown type, missing or unknown field, wrong value type."""


class RuleError(CribbageError):
    """A well-formed input the rules do not allow now (a play past 31, a card already seen, ...)."""
