"""Words are made at the edge and never read back: no module or script of the package takes a score's name, a
side's name or a prompt apart to learn a fact (issue 21). The engine's typed facts say it: an event's `kind`,
a side's `players`, the prompt's `wanted`, a refusal's `why`. The engine makes no words at all (issue 31): no
module of companion/cribbage translates a message or formats one for a person."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).parents[1] / "companion"
SOURCES = sorted(p for p in [*PACKAGE.rglob("*.py"), *PACKAGE.rglob("*.js")]
                 if "firmware" not in p.parts and "vendor" not in p.parts)
READING_WORDS_BACK = {
    "a side's name split into its players": re.compile(r"""split\(\s*["'] ?& ?["']\s*\)"""),
    "partners' names joined outside the phrasebook": re.compile(r"""["'] & ["']\s*\.join|join\(\s*["'] & ["']"""),
    "a score's name read for its kind": re.compile(r"""\.label\s*(==|!=|\.endswith|\.startswith|\.startsWith| in\b)"""
                                                   r"""|endswith\(\s*["']'s """),
    "a prompt's words read as a signal": re.compile(r"""prompt(\(\))?\s*\.(startswith|startsWith|includes)\("""
                                                    r"""|in\s+\w+\.prompt\(\)"""),
    "an error's words read for what to do (the HTTP status and the code say it)": re.compile(
        r"""/[^/\n]*/\.test\(\s*\w+\.message\s*\)|\.message\s*\.\s*(match|includes|startsWith)\("""),
    "pegs told apart by their LED colours (the snapshot's pegs say which)": re.compile(
        r"""colours\.(map|findIndex|indexOf)\(.*(dim|rgb|same)|\b(backs|colours)\.findIndex\("""),
    "a bye told by a stand-in name (a bye is null)": re.compile(r"""[=!]==?\s*["']\(bye\)["']"""),
    "a side found by its name (a side is its index in `sides`)": re.compile(
        r"""(names|sides)\.(index|indexOf)\(\s*\w*winner\b"""),
}
ALLOWED = {"partners' names joined outside the phrasebook": {"words/phrases.py"}}
ENGINE = sorted((PACKAGE / "cribbage").glob("*.py"))
TRANSLATORS = {"_", "N_", "ngettext", "gettext", "translate", "spell"}  # what would make words from a message


def test_the_scan_covers_the_package():
    names = {str(p.relative_to(PACKAGE)) for p in SOURCES}
    assert {"words/phrases.py", "web/static/app.js", "club/static/club.js", "stats.py"} <= names
    assert {"game.py", "facts.py", "rules.py", "scoring.py", "cards.py", "transcript.py"} <= {p.name for p in ENGINE}


def words_made(source: str) -> list[str]:
    """Where a source translates a message, or imports what translates one."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in TRANSLATORS:
            found.append(f"{node.lineno}: {node.func.id}()")
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[-1] in ("i18n", "words", "phrases"):
            found.append(f"{node.lineno}: from {node.module} import ...")
        elif isinstance(node, ast.ImportFrom) and any(a.name in TRANSLATORS for a in node.names):
            found.append(f"{node.lineno}: imports {', '.join(a.name for a in node.names)}")
    return found


@pytest.mark.parametrize("path", ENGINE, ids=lambda p: p.name)
def test_the_engine_makes_no_words(path):
    assert words_made(path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("line", ['raise RuleError(_("the count is {count}").format(count=c))',
                                  "from .words import _, ngettext", "from companion.i18n import N_",
                                  'said = ngettext("a", "b", n)'])
def test_the_engine_scan_finds_words_made(line):
    assert words_made(line) != []


@pytest.mark.parametrize("what", list(READING_WORDS_BACK))
def test_no_front_end_reads_words_back(what):
    pattern = READING_WORDS_BACK[what]
    found = [f"{path.relative_to(PACKAGE)}:{number}: {line.strip()}"
             for path in SOURCES if str(path.relative_to(PACKAGE)) not in ALLOWED.get(what, set())
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if pattern.search(line)]
    assert not found, f"{what}: " + "; ".join(found)


@pytest.mark.parametrize(("what", "line"), [
    ("a side's name split into its players", 'side.split(" & ").includes(state.dealer)'),
    ("a score's name read for its kind", 'if e.label.endswith("\'s hand"):'),
    ("a score's name read for its kind", 'e.label.startsWith(e.player)'),
    ("a prompt's words read as a signal", 'coached = "six cards" in table.prompt()'),
    ("partners' names joined outside the phrasebook", 'name = " & ".join(players)'),
    ("an error's words read for what to do (the HTTP status and the code say it)",
     'if (/control token/.test(problem.message)) showLocked(true);'),
    ("an error's words read for what to do (the HTTP status and the code say it)",
     'if (error.message.includes("token")) ask();'),
    ("pegs told apart by their LED colours (the snapshot's pegs say which)",
     'const side = backs.findIndex((b) => same(b, lit));'),
    ("pegs told apart by their LED colours (the snapshot's pegs say which)",
     'const backs = snapshot.colours.map(dim);'),
    ("a bye told by a stand-in name (a bye is null)", 'l.opponent === "(bye)" ? _("bye") : l.opponent'),
    ("a side found by its name (a side is its index in `sides`)",
     '"winner": names.index(winner) if winner in names else None'),
])
def test_the_scan_finds_what_it_looks_for(what, line):
    assert READING_WORDS_BACK[what].search(line)
