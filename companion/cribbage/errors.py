"""The engine's error types: one for bad syntax, one for malformed inputs, one for moves the rules forbid.

Every one carries a typed refusal (`err.refusal`): a code and its facts, never words. The engine's own is a
`refusals.Refusal`; the layers above raise these types with theirs (the advice's, the settings', the statistics'
selection). The words for a person are made at the edge in that person's language, by one dispatcher for every
kind (`companion.words.saying.error_words(err, lang)`); `str(err)` is the code and its facts, for logs. (A layer
above the engine may still raise one with words of its own: then `refusal` is None.) Bad input never changes the
state: the engine raises before it builds a new one.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Protocol


class TypedRefusal(Protocol):
    """A refusal as a value: the code a client reads (`why`) and the facts its words need, in fields of its own."""

    @property
    def why(self) -> StrEnum: ...


class CribbageError(Exception):
    """Base of every error raised on purpose about cards, inputs and choices: `refusal` says why."""

    def __init__(self, reason: TypedRefusal | str) -> None:
        super().__init__(reason)
        self.refusal: TypedRefusal | None = None if isinstance(reason, str) else reason

    def __str__(self) -> str:
        return str(self.args[0])


class CardSyntaxError(CribbageError, ValueError):
    """Text that is not a card (or a barcode payload that is not ours)."""


class InputError(CribbageError, ValueError):
    """A table input that is malformed: unknown type, missing or unknown field, wrong value type."""


class RuleError(CribbageError):
    """A well-formed input the rules do not allow now (a play past 31, a card already seen, ...)."""
