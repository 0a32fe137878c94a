"""The tests' own layout: what tests share lives in helper modules (tests/facts.py, tests/sample_deal.py, ...)
or in conftest.py fixtures, never in a test module or a conftest.py imported by another module. A test module
imported elsewhere runs its tests twice under another name, and pytest owns conftest.py."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).parent


def module_name(path: Path) -> str:
    """tests/view/test_screen.py -> "tests.view.test_screen"."""
    parts = path.relative_to(TESTS.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(source: str, module: str, *, package: bool = False) -> list[tuple[int, str]]:
    """Each module of the tests that `source` (the text of `module`) imports, with its line: a name imported
    from a package counts as the module of that name ("from tests.view import test_screen")."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the module's own package upwards
                anchor = module.split(".")[: len(module.split(".")) - node.level + (1 if package else 0)]
                base = ".".join([*anchor, *([base] if base else [])])
            found.append((node.lineno, base))
            found += [(node.lineno, f"{base}.{alias.name}") for alias in node.names]
    return sorted((line, name) for line, name in found if name == "tests" or name.startswith("tests."))


def forbidden(name: str) -> bool:
    """A test module (test_*.py) or a conftest.py."""
    last = name.rsplit(".", 1)[-1]
    return last.startswith("test_") or last == "conftest"


def offences(root: Path = TESTS) -> list[str]:
    out = []
    for path in sorted(root.rglob("*.py")):
        module = module_name(path)
        for line, name in imported(path.read_text(encoding="utf-8"), module, package=path.name == "__init__.py"):
            if forbidden(name):
                out.append(f"{path.relative_to(root.parent)}:{line} imports {name}")
    return out


def test_no_test_module_or_conftest_is_imported_by_another_module():
    assert offences() == []


def test_the_check_finds_every_form_of_such_an_import():
    source = "\n".join([
        "from tests.view.test_screen import deal",
        "import tests.test_daemon",
        "from tests.devices import conftest",
        "from . import test_scanner",
        "from .conftest import texts",
        "def f():",
        "    from tests.web.test_computer import Game",
        "from tests.facts import by_name",  # a helper module: allowed
        "from tests.sample_deal import deal",
    ])
    found = [(line, name) for line, name in imported(source, "tests.devices.test_keypad") if forbidden(name)]
    assert found == [(1, "tests.view.test_screen"), (2, "tests.test_daemon"),
                     (3, "tests.devices.conftest"), (4, "tests.devices.test_scanner"), (5, "tests.devices.conftest"),
                     (7, "tests.web.test_computer")]

