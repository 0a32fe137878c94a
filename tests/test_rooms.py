"""The package's rooms are named after their jobs (issue 31): no two modules share a file name, and the package's
root holds no module a base package could hold."""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).parents[1] / "companion"


def test_no_two_modules_of_the_package_share_a_file_name():
    """A name says one job: `history.py` is either the game so far or the board's past games, never both
    (commands/ and bench/ hold one module a command, named after it, and are set aside)."""
    seen: dict[str, list[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE).parts
        if path.name == "__init__.py" or parts[0] in ("commands", "bench", "firmware"):
            continue
        seen.setdefault(path.name, []).append("/".join(parts))
    assert {name: places for name, places in seen.items() if len(places) > 1} == {}


def test_the_packages_root_keeps_the_composition_and_its_big_rooms_only():
    root = sorted(p.stem for p in PACKAGE.glob("*.py") if p.name != "__init__.py")
    assert root == ["batch", "catalog", "cli", "config", "daemon", "gamelog", "i18n", "registry", "schemagen", "stats"]
