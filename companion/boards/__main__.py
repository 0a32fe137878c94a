"""`python -m companion.boards` regenerates the builtin layout files from their parameters."""

from __future__ import annotations

from . import write_builtins

for path in write_builtins():
    print(path)
