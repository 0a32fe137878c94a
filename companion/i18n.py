"""Languages as values: English (the source) and German, through gettext catalogs.

A `Language` is one language's words: `gettext` and `ngettext` from its catalog, `number` spelt as a player
counts aloud (num2words beyond English) and `decimal` written its way ("10.3", "10,3"). `language("de")` is
cached; `choose("auto")` is the system's. Nothing switches a language for the whole process: the words of the
game are made by `companion.words.phrases`, handed a language explicitly, and one process may speak English to
one person and German to another at the same time.

The many `_()` calls of views and commands speak the *current* language, a context-local value (contextvars)
that each edge sets for what it renders: a command's main, the daemon's OLED, each web request or WebSocket
client, each asyncio task its own:

    with speaking(language("de")):
        text = _("Count {count}").format(count=15)

`N_()` marks a message for the catalog without translating it yet. The catalogs live in
`companion/locale/LANG/LC_MESSAGES/companion.po`, extracted and compiled with Babel (`python3 dev.py i18n`); the
compiled `.mo` files are shipped. Card names and suit letters a player types are the same in every language,
and so is every barcode; JSON keys and codes are language-neutral.
"""

from __future__ import annotations

import functools
import gettext as gnu
import os
import re
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

DOMAIN = "companion"
LOCALE_DIR = Path(__file__).with_name("locale")
LANGUAGES = {"en": "English", "de": "Deutsch"}

NUMBER_WORDS = (
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
    "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty",
)
_TENS = {20: "twenty", 30: "thirty", 40: "forty", 50: "fifty", 60: "sixty", 70: "seventy", 80: "eighty",
         90: "ninety"}


def number_words(n: int) -> str:
    """English words for 0..999, as a player counts aloud: 29 -> twenty-nine."""
    if n < 0:
        return "minus " + number_words(-n)
    if n < len(NUMBER_WORDS):
        return NUMBER_WORDS[n]
    if n < 100:
        tens, ones = divmod(n, 10)
        return _TENS[tens * 10] + ("-" + NUMBER_WORDS[ones] if ones else "")
    hundreds, rest = divmod(n, 100)
    return NUMBER_WORDS[hundreds] + " hundred" + (" and " + number_words(rest) if rest else "")


class Language:
    """One language's words: its catalog, its numbers in words and in figures. One value a language (`language`),
    known by itself (a cache key); a plain class, so that importing this module stays cheap (every command does)."""

    __slots__ = ("_page_words", "catalog", "code", "decimal_point", "spell")

    def __init__(self, code: str, catalog: gnu.NullTranslations, spell: Callable[[int], str],
                 decimal_point: str = ".") -> None:
        self.code = code  # "en", "de"
        self.catalog = catalog
        self.spell = spell
        self.decimal_point = decimal_point
        self._page_words: dict[str, str] | None = None

    def __repr__(self) -> str:
        return f"language({self.code!r})"

    @property
    def name(self) -> str:
        """The language's own name: "English", "Deutsch"."""
        return LANGUAGES[self.code]

    def gettext(self, message: str) -> str:
        return self.catalog.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self.catalog.ngettext(singular, plural, n)

    def number(self, n: int) -> str:
        """`n` in words, as a player counts aloud: 29 -> "twenty-nine", "neunundzwanzig"."""
        return self.spell(n)

    def decimal(self, x: float, places: int = 1, *, sign: bool = False) -> str:
        """`x` in figures, written this language's way: 10.3, 10,3 (+0.25 with `sign`)."""
        return f"{x:{'+' if sign else ''}.{places}f}".replace(".", self.decimal_point)

    @property
    def page_words(self) -> dict[str, str]:
        """The catalog's translations, for the web page's scripts (`window.WORDS`)."""
        if self._page_words is None:
            found = getattr(self.catalog, "_catalog", {})
            self._page_words = {k: v for k, v in found.items() if isinstance(k, str) and k and v != k}
        return self._page_words


def _num2words(code: str) -> Callable[[int], str]:
    def spell(n: int) -> str:
        from num2words import num2words  # loaded on the first number said, not at start-up

        return str(num2words(n, lang=code))

    return spell


@functools.cache
def language(code: str) -> Language:
    """The language of `code` ("en", "de"); ValueError (in the current language) for a language we lack."""
    if code not in LANGUAGES:
        raise ValueError(_("no language {code!r}: choose one of {languages} (or auto)")
                         .format(code=code, languages=", ".join(LANGUAGES)))
    if code == "en":
        return Language(code, gnu.NullTranslations(), number_words)
    return Language(code, gnu.translation(DOMAIN, LOCALE_DIR, languages=[code]), _num2words(code), ",")


ENGLISH = language("en")


def system_language(environ: Mapping[str, str] | None = None) -> str:
    """The language of the system's locale (LANGUAGE, LC_ALL, LC_MESSAGES, LANG) when we have it, else English."""
    env = os.environ if environ is None else environ
    for key in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        for value in env.get(key, "").split(":"):
            code = value.split("_")[0].split(".")[0].lower()
            if code in LANGUAGES:
                return code
            if code and code not in ("c", "posix"):
                break
    return "en"


def choose(choice: str | None) -> Language:
    """The language a setting names: "en", "de", or "auto" (or None, "") for the system's."""
    return language(system_language() if choice in (None, "", "auto") else str(choice))


def journal(line: str, /, **facts: object) -> str:
    """A journal line (`line` marked with N_, and its facts) in the system's language, the journal's reader's."""
    return choose(None).gettext(line).format(**facts)


def accepted(header: str | None, default: Language = ENGLISH) -> Language:
    """The language a browser asks for first among ours (an HTTP Accept-Language: "de-DE,de;q=0.9,en;q=0.8" is
    German), else `default`."""
    choices = []
    for index, part in enumerate((header or "").split(",")):
        tag, _sep, params = part.strip().partition(";")
        weight = 1.0
        name, _sep, value = params.strip().partition("=")
        if name.strip() == "q":
            try:
                weight = float(value)
            except ValueError:
                weight = 0.0
        code = tag.strip().split("-")[0].lower()
        if code in LANGUAGES and weight > 0:
            choices.append((-weight, index, code))
    return language(min(choices)[2]) if choices else default


_current: ContextVar[Language] = ContextVar("language", default=ENGLISH)


def current() -> Language:
    """The language the edge rendering now speaks (English unless it said otherwise)."""
    return _current.get()


@contextmanager
def speaking(lang: Language | str) -> Iterator[Language]:
    """Speak `lang` in this context (this task, this thread) until the block ends."""
    chosen = lang if isinstance(lang, Language) else language(lang)
    token = _current.set(chosen)
    try:
        yield chosen
    finally:
        _current.reset(token)


def N_(message: str) -> str:  # gettext's name for "mark for the catalog, translate later"
    return message


def _(message: str) -> str:
    return _current.get().catalog.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return _current.get().catalog.ngettext(singular, plural, n)


def number(n: int) -> str:
    """A number in words, as a player counts aloud, in the current language."""
    return _current.get().spell(n)


# A page's words: the text between tags and the titles and labels read aloud, as the catalog holds them.
_HTML_TEXT = re.compile(r">(\s*)([^<>]*?[A-Za-z][^<>]*?)(\s*)<")
_HTML_ATTR = re.compile(r'\b(title|aria-label|placeholder)="([^"]*[A-Za-z][^"]*)"')


def html_messages(html: str) -> list[str]:
    """The words of a page template that the catalog translates."""
    return [m.group(2) for m in _HTML_TEXT.finditer(html)] + [m.group(2) for m in _HTML_ATTR.finditer(html)]


def translate_html(html: str, lang: Language | None = None) -> str:
    """A page template in `lang` (the current language if not given): its words translated, `lang` set, and the
    catalog handed to the page's scripts as `window.WORDS` (their `_()` looks words up there)."""
    import json  # only for a page

    lang = lang or current()
    if lang.code == "en":
        return html
    html = _HTML_TEXT.sub(lambda m: f">{m.group(1)}{lang.gettext(m.group(2))}{m.group(3)}<", html)
    html = _HTML_ATTR.sub(lambda m: f'{m.group(1)}="{lang.gettext(m.group(2))}"', html)
    script = f"<script>window.WORDS = {json.dumps(lang.page_words, ensure_ascii=False)};</script>"
    return html.replace('<html lang="en">', f'<html lang="{lang.code}">', 1).replace("</head>", script + "</head>", 1)
