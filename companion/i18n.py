"""The board in the players' language: English (the source) and German, through gettext catalogs.

`use(language)` picks the language for the whole process ("en", "de", or "auto": the system's locale where a
catalog exists, English otherwise); `_()` and `ngettext()` translate a message, `N_()` marks one for the
catalog without translating it yet. The catalogs live in `companion/locale/LANG/LC_MESSAGES/companion.po`,
extracted and compiled with Babel (`python3 dev.py i18n`); the compiled `.mo` files are shipped.

The spoken count is the engine's (`companion.cribbage.scoring.Phrasebook`, whose English templates are
messages of the catalog): `phrasebook()` is the count in the chosen language, its numbers spelt by num2words.
Card names and suit letters a player types are the same in every language, and so is every barcode; JSON
output stays language-neutral (keys and codes).
"""

from __future__ import annotations

import gettext
import json
import os
import re
from collections.abc import Mapping
from pathlib import Path

from companion.cribbage import scoring, words

DOMAIN = "companion"
LOCALE_DIR = Path(__file__).with_name("locale")
LANGUAGES = {"en": "English", "de": "Deutsch"}

_chosen = {"language": "en"}  # one language for the process, like gettext.install
_page_words: dict[str, str] = {}  # the catalog's translations, for the web page's scripts


def N_(message: str) -> str:  # gettext's name for "mark for the catalog, translate later"
    return message


def _(message: str) -> str:
    return words.translate(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return words.translate_plural(singular, plural, n)


def language() -> str:
    return _chosen["language"]


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


def use(choice: str | None) -> str:
    """Switch every message to `choice` ("en", "de", "auto" or None for the system's); returns the language."""
    code = system_language() if choice in (None, "", "auto") else str(choice)
    if code not in LANGUAGES:
        raise ValueError(_("no language {code!r}: choose one of {languages} (or auto)")
                         .format(code=code, languages=", ".join(LANGUAGES)))
    translation = (gettext.NullTranslations() if code == "en"
                   else gettext.translation(DOMAIN, LOCALE_DIR, languages=[code]))
    words.translate, words.translate_plural = translation.gettext, translation.ngettext
    book = scoring.ENGLISH if code == "en" else _translated_book(code)
    words.number = book.number
    scoring.use_phrasebook(book)
    _chosen["language"] = code
    _page_words.clear()
    _page_words.update({k: v for k, v in getattr(translation, "_catalog", {}).items()
                        if isinstance(k, str) and k and v != k})
    return code


def phrasebook() -> scoring.Phrasebook:
    """The spoken count in the chosen language."""
    return scoring.phrasebook()


def say(score: scoring.Score) -> str:
    return score.say(phrasebook())


def number(n: int) -> str:
    """A number in words, as a player counts aloud, in the chosen language."""
    return words.number(n)


DECIMAL_MARKS = {"en": ".", "de": ","}


def decimal(value: float, digits: int = 1, *, sign: bool = False) -> str:
    """A number with `digits` decimals as the chosen language writes it: 10.3 (+0.25 with `sign`), in German 10,3."""
    return f"{value:{'+' if sign else ''}.{digits}f}".replace(".", DECIMAL_MARKS[language()])


def percent(share: float) -> str:
    """A share in whole percent as the chosen language writes it: 62%, in German 62 %."""
    return _("{percent}%").format(percent=round(100 * share))


def _translated_book(code: str) -> scoring.Phrasebook:
    from num2words import num2words

    english = scoring.ENGLISH
    return scoring.Phrasebook(
        number=lambda n: num2words(n, lang=code),
        templates={kind: _(template) for kind, template in english.templates.items()},
        names={kind: _(name) for kind, name in english.names.items()},
        named=_(english.named), last=_(english.last), joiner=english.joiner, nothing=_(english.nothing),
    )


def engine_messages() -> list[str]:
    """The engine's words that the catalog translates: the phrasebook's templates and names."""
    english = scoring.ENGLISH
    words = [*english.templates.values(), *english.names.values(), english.named, english.last, english.nothing]
    return list(dict.fromkeys(words))


# A page's words: the text between tags and the titles and labels read aloud, as the catalog holds them.
_HTML_TEXT = re.compile(r">(\s*)([^<>]*?[A-Za-z][^<>]*?)(\s*)<")
_HTML_ATTR = re.compile(r'\b(title|aria-label|placeholder)="([^"]*[A-Za-z][^"]*)"')


def html_messages(html: str) -> list[str]:
    """The words of a page template that the catalog translates."""
    return [m.group(2) for m in _HTML_TEXT.finditer(html)] + [m.group(2) for m in _HTML_ATTR.finditer(html)]


def translate_html(html: str) -> str:
    """A page template in the chosen language: its words translated, `lang` set, and the catalog handed to the
    page's scripts as `window.WORDS` (their `_()` looks words up there)."""
    code = _chosen["language"]
    if code == "en":
        return html
    html = _HTML_TEXT.sub(lambda m: f">{m.group(1)}{_(m.group(2))}{m.group(3)}<", html)
    html = _HTML_ATTR.sub(lambda m: f'{m.group(1)}="{_(m.group(2))}"', html)
    script = f"<script>window.WORDS = {json.dumps(_page_words, ensure_ascii=False)};</script>"
    return html.replace('<html lang="en">', f'<html lang="{code}">', 1).replace("</head>", script + "</head>", 1)
