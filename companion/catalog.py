"""The message catalogs: extract every translatable message, update the German catalog, compile it.

    python3 dev.py i18n        # extract, merge into companion/locale/de/LC_MESSAGES/companion.po, compile .mo

A developer's tool (it needs Babel, in the dev extra). Messages are the arguments of `_()`, `N_()` and
`ngettext()` anywhere in the package, and the spoken count's phrasebook (`words.count.engine_messages`).
The tests run `extract()` and fail when a message has no German translation, or the catalog is stale.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from companion.i18n import DOMAIN, LOCALE_DIR, html_messages
from companion.words.count import engine_messages

PACKAGE = Path(__file__).parent
KEYWORDS = {"_": None, "N_": None, "gettext": None, "ngettext": (1, 2)}
METHODS = [("**.py", "python"), ("web/static/vendor/**", "ignore"), ("web/static/**.js", "javascript"),
           ("club/static/**.js", "javascript")]
PAGES = ("web/templates/*.html", "club/static/*.html")  # their words: translated by the server (translate_html)


def extract() -> Catalog:
    """Every message of the package, as a template catalog."""
    template = Catalog(project="cribbage-companion", charset="utf-8")
    for phrase in engine_messages():
        template.add(phrase, locations=[("companion/words/count.py", 0)])
    for filename, lineno, found, comments, _context in extract_from_dir(
            PACKAGE, METHODS, keywords=KEYWORDS, comment_tags=("TRANSLATORS:",), strip_comment_tags=True):
        if filename.startswith("catalog.py"):
            continue
        message: str | tuple[str, ...] = found
        template.add(message, locations=[(f"companion/{filename}", lineno)], auto_comments=comments)
    for page in sorted(path for pattern in PAGES for path in PACKAGE.glob(pattern)):
        for words in html_messages(page.read_text(encoding="utf-8")):
            template.add(words, locations=[(f"companion/{page.relative_to(PACKAGE)}", 0)])
    return template



def po_path(language: str) -> Path:
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def read(language: str) -> Catalog:
    with po_path(language).open("rb") as file:
        return read_po(file, locale=language, domain=DOMAIN)


def compiled(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


def update(language: str = "de") -> list[str]:
    """Merge the extracted messages into the language's catalog and compile it; returns the untranslated."""
    path = po_path(language)
    path.parent.mkdir(parents=True, exist_ok=True)
    catalog = read(language) if path.exists() else Catalog(locale=language, domain=DOMAIN, charset="utf-8")
    catalog.update(extract(), no_fuzzy_matching=True, update_creation_date=False)
    catalog.obsolete.clear()
    catalog.project, catalog.version = "cribbage-companion", ""
    catalog.fuzzy = False  # the header: the catalog is maintained, not a fresh template
    with path.open("wb") as file:
        write_po(file, catalog, width=110, omit_header=False, sort_output=False)
    path.with_suffix(".mo").write_bytes(compiled(catalog))
    return [str(m.id) for m in catalog if m.id and not (all(m.string) if isinstance(m.string, tuple) else m.string)]


def main() -> int:
    missing = update("de")
    for message in missing:
        print(f"untranslated: {message!r}", file=sys.stderr)
    print(f"{po_path('de')}: {len(missing)} untranslated", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
