"""Words are made at the edge and never read back: no module or script of the package takes a score's name, a
side's name or a prompt apart to learn a fact (issue 21). The engine's typed facts say it: an event's `kind`,
a side's `players`, the prompt's `wanted`."""

from __future__ import annotations

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
}
ALLOWED = {"partners' names joined outside the phrasebook": {"cribbage/phrases.py"}}


def test_the_scan_covers_the_package():
    names = {str(p.relative_to(PACKAGE)) for p in SOURCES}
    assert {"cribbage/phrases.py", "web/static/app.js", "club/static/club.js", "stats.py"} <= names


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
])
def test_the_scan_finds_what_it_looks_for(what, line):
    assert READING_WORDS_BACK[what].search(line)
