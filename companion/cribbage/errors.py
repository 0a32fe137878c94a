"""The engine's error types: one for bad syntax, one for malformed inputs, one for moves the rules forbid.

The engine's own carry a `Refusal` (`err.refusal`): the rule's code and its facts, never words. The words for a
person are made at the edge in that person's language (`companion.words.phrases.error_words(err, lang)`); `str(err)`
is the code and its facts, for logs. (Layers above the engine may raise these types with words of their own, made
in the current language: then `refusal` is None.) Bad input never changes the state: the engine raises before it
builds a new one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # annotations only: the refusal's module stands beside this one
    from .refusals import Refusal


class CribbageError(Exception):
    """Base of every error the engine raises on purpose: `refusal` says why."""

    def __init__(self, reason: Refusal | str) -> None:
        super().__init__(reason)
        self.refusal: Refusal | None = None if isinstance(reason, str) else reason

    def __str__(self) -> str:
        return str(self.args[0])


class CardSyntaxError(CribbageError, ValueError):
    """Text that is not a card (or a barcode payload that is not ours)."""


class InputError(CribbageError, ValueError):
    """A table input that is malformed: unknown type, missing or unknown field, wrong value type."""


class RuleError(CribbageError):
    """A well-formed input the rules do not allow now (a play past 31, a card already seen, ...)."""
