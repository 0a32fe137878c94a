"""The engine's words in the players' language: hooks the application sets, the engine's only link to it.

The engine writes every prompt, error and note in English as `_("... {name} ...").format(name=...)` (plurals
with `ngettext`) and spells numbers with `number`; `companion.i18n.use` replaces `translate`, `translate_plural`
and `number` with the chosen language's (and scoring's phrasebook). Standard library only, like the rest of the engine.
"""

from __future__ import annotations

from collections.abc import Callable

NUMBER_WORDS = (
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
    "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty",
)
_TENS = {20: "twenty", 30: "thirty", 40: "forty", 50: "fifty", 60: "sixty", 70: "seventy", 80: "eighty",
         90: "ninety"}


def number_words(n: int) -> str:
    """English words for 0..999, as a player counts aloud: 29 -> twenty-nine."""
    if n < len(NUMBER_WORDS):
        return NUMBER_WORDS[n]
    if n < 100:
        tens, ones = divmod(n, 10)
        return _TENS[tens * 10] + ("-" + NUMBER_WORDS[ones] if ones else "")
    hundreds, rest = divmod(n, 100)
    return NUMBER_WORDS[hundreds] + " hundred" + (" and " + number_words(rest) if rest else "")



def _english(message: str) -> str:
    return message


def _english_plural(singular: str, plural: str, n: int) -> str:
    return singular if n == 1 else plural


translate: Callable[[str], str] = _english
translate_plural: Callable[[str, str, int], str] = _english_plural
number: Callable[[int], str] = number_words  # 29 -> "twenty-nine", as a player counts aloud


def N_(message: str) -> str:  # gettext's name: a message for the catalog, translated later
    return message


def _(message: str) -> str:
    return translate(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return translate_plural(singular, plural, n)


def spell(n: int) -> str:
    """`n` in words in the chosen language."""
    return number(n)
