"""Debian's chromium as the browser tests start it (never a browser that Playwright downloads)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run", "--host-resolver-rules=MAP cribbage.local 127.0.0.1"]
"""Chromium's flags; cribbage.local is this machine: a board's name other than localhost, where a plain page is no
secure context (tests/web/test_scan.py)."""
ARTEFACTS = Path(os.environ.get("CRIB_ARTEFACTS", Path(__file__).parents[2] / "test-artefacts")) / "web"
SCREENSHOTS = bool(os.environ.get("CRIB_ARTEFACTS") or os.environ.get("CRIB_README_IMAGES"))


def keep(shown: Any, path: Path, **options: Any) -> None:
    """A screenshot of `shown` (a page or an element) kept at `path`, only where asked for: `CRIB_ARTEFACTS=DIR`
    (or `CRIB_README_IMAGES`, which copies some into docs/images/). A screenshot proves nothing a test asserts,
    and each costs Chromium about a tenth of a second of CPU (a whole page more)."""
    if SCREENSHOTS:
        path.parent.mkdir(parents=True, exist_ok=True)
        shown.screenshot(path=str(path), **options)
