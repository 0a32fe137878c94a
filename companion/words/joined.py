"""Choices joined as a sentence says them, for the words of the game and of the configuration alike (which
imports nothing of the game's words: every command reads the configuration)."""

from __future__ import annotations

from collections.abc import Sequence

from companion.i18n import Language


def either(choices: Sequence[object], lang: Language) -> str:
    """"61 or 121", "Ann or Bob or Cat": one of the choices."""
    said = str(choices[0]) if choices else ""
    for choice in choices[1:]:
        said = lang.gettext("{first} or {second}").format(first=said, second=choice)
    return said
