"""The engine is pure: it imports nothing outside the standard library and itself, relative imports included."""

import ast
import sys
from pathlib import Path

import companion.cribbage

ENGINE = Path(companion.cribbage.__file__).parent
PACKAGE = "companion.cribbage"


def imported_modules(source: str, package: list[str]) -> list[str]:
    """Every module a source imports, relative imports resolved against its package (`..x` is companion.x)."""
    names = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                names.append(node.module or "")
                continue
            base = package[: len(package) - node.level + 1]
            if node.module:
                names.append(".".join([*base, node.module]))
            else:  # from . import x, from .. import y: each name may be a module of the base package
                names += [".".join([*base, alias.name]) for alias in node.names]
    return names


def test_engine_imports_only_the_standard_library():
    offenders, seen = [], 0
    for path in sorted(ENGINE.rglob("*.py")):
        package = [*PACKAGE.split("."), *path.relative_to(ENGINE).parent.parts]
        for name in imported_modules(path.read_text(), package):
            seen += 1
            inside = name == PACKAGE or name.startswith(PACKAGE + ".")
            if not inside and name.split(".")[0] not in sys.stdlib_module_names:
                offenders.append(f"{path.name}: {name}")
    assert seen > 10  # the walk found the imports (relative ones included)
    assert offenders == []


def test_relative_imports_are_resolved_against_the_package():
    package = PACKAGE.split(".")
    assert "companion.cribbage.cards" in imported_modules((ENGINE / "game.py").read_text(), package)
    source = "from .. import config\nfrom ..gamelog import GameLog\nfrom . import cards\nimport numpy\n"
    assert imported_modules(source, package) == ["companion.config", "companion.gamelog", "companion.cribbage.cards",
                                                 "numpy"]
