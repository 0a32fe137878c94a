"""The engine's words in the players' language: hooks the application sets, the engine's only link to it.

The engine writes every prompt, error and note in English as `_("... {name} ...").format(name=...)` (plurals
with `ngettext`) and spells numbers with `number`; `companion.i18n.use` replaces `translate`, `translate_plural`,
`number` and `phrasebook` with the chosen language's. Standard library only, like the rest of the engine.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .scoring import Phrasebook


def _english(message: str) -> str:
    return message


def _english_plural(singular: str, plural: str, n: int) -> str:
    return singular if n == 1 else plural


def _english_number(n: int) -> str:
    from .scoring import number_words  # scoring's own messages come through this module

    return number_words(n)


translate: Callable[[str], str] = _english
translate_plural: Callable[[str, str, int], str] = _english_plural
number: Callable[[int], str] = _english_number  # 29 -> "twenty-nine", as a player counts aloud
phrasebook: Phrasebook | None = None  # the spoken count; None: scoring.ENGLISH


def N_(message: str) -> str:  # gettext's name: a message for the catalog, translated later
    return message


def _(message: str) -> str:
    return translate(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return translate_plural(singular, plural, n)


def spell(n: int) -> str:
    """`n` in words in the chosen language."""
    return number(n)
