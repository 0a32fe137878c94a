"""The engine is pure: it imports nothing outside the standard library and itself."""

import ast
import sys
from pathlib import Path

import companion.cribbage

ENGINE = Path(companion.cribbage.__file__).parent


def test_engine_imports_only_the_standard_library():
    offenders = []
    for path in sorted(ENGINE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            else:
                continue
            offenders += [
                f"{path.name}: {name}" for name in names
                if name.split(".")[0] not in sys.stdlib_module_names and not name.startswith("companion.cribbage")
            ]
    assert offenders == []
