"""Enum members, not their strings: a phase, what the table waits for and a refusal's reason are compared with
the engine's enums (`Phase.PLAY`, `Wanted.GO`, `Why.PAST_31`), never with the text of their values (issue 31).
A StrEnum equals its value, so such a comparison works until a value is renamed; this keeps it from coming back."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).parents[1] / "companion"
TYPED = {"phase", "wanted", "why", "counting"}  # attributes that hold the engine's enums


def _named(node: ast.expr) -> str | None:
    if isinstance(node, ast.Attribute) and node.attr in TYPED:
        return node.attr
    return None


def _text(node: ast.expr) -> bool:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return True
    return isinstance(node, (ast.Tuple, ast.List, ast.Set)) and any(_text(e) for e in node.elts)


def string_comparisons(source: str) -> list[int]:
    """The lines where an enum-holding attribute is compared with a string (or strings)."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            if any(_named(o) for o in operands) and any(_text(o) for o in operands):
                lines.append(node.lineno)
    return lines


def test_enums_are_compared_as_members():
    found = {f"{path.relative_to(PACKAGE)}:{line}" for path in sorted(PACKAGE.rglob("*.py"))
             for line in string_comparisons(path.read_text(encoding="utf-8"))}
    assert not found, f"compare with the enum's member (Phase.PLAY), not its string: {sorted(found)}"


def test_the_check_catches_the_old_forms():
    old = ('if state.phase == "play": pass\nif state.phase in ("game over", "match over"): pass\n'
           'if prompt.wanted != "go": pass\nif state.phase is Phase.PLAY: pass\n')
    assert string_comparisons(old) == [1, 2, 3]
