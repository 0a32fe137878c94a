"""Debian's chromium as the browser tests start it (never a browser that Playwright downloads)."""

from __future__ import annotations

import os
from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run", "--host-resolver-rules=MAP cribbage.local 127.0.0.1"]
"""Chromium's flags; cribbage.local is this machine: a board's name other than localhost, where a plain page is no
secure context (tests/web/test_scan.py)."""
ARTEFACTS = Path(os.environ.get("CRIB_ARTEFACTS", Path(__file__).parents[2] / "test-artefacts")) / "web"
