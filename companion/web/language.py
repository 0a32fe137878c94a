"""The page's language, person by person: the one chosen on the page (remembered in the `crib-lang` cookie),
else the first the browser asks for (Accept-Language) that we speak, else the board's.

`page_language(request)` picks it; `translate_page(html, lang)` is a page template in it, with the catalog
handed to the page's scripts (`window.WORDS`, and `window.PLURALS` for their `ngettext`). The OLED keeps the
board's language whatever a page speaks.
"""

from __future__ import annotations

import functools
import json

from aiohttp import web

from companion import i18n

COOKIE = "crib-lang"


def page_language(request: web.Request) -> i18n.Language:
    """The language of the page asked for: the person's choice, else the browser's, else the board's."""
    chosen = request.cookies.get(COOKIE, "")
    if chosen in i18n.LANGUAGES:
        return i18n.language(chosen)
    return i18n.accepted(request.headers.get("Accept-Language"), i18n.current())


@functools.cache
def _plurals(lang: i18n.Language) -> str:
    found = getattr(lang.catalog, "_catalog", {})
    plurals: dict[str, list[str]] = {}
    for key, form in sorted((k, v) for k, v in found.items() if isinstance(k, tuple)):
        plurals.setdefault(key[0], []).append(form)
    return f"<script>window.PLURALS = {json.dumps(plurals, ensure_ascii=False)};</script>"


def translate_page(html: str, lang: i18n.Language) -> str:
    """A page template in `lang`: its words translated, `lang` set, the catalog for its scripts (with plurals)."""
    if lang.code == "en":
        return html
    return i18n.translate_html(html, lang).replace("</head>", _plurals(lang) + "</head>", 1)
