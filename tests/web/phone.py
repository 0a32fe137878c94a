"""A phone at the board (a fixture module, not tests): headless Chromium at 390x844 with touch on a board that runs
with its HTTPS page and a control token; its fake camera playing a video (a browser of its own: the camera is a
launch flag), or the session's browser where a test stands a canvas in for the camera."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from companion.cribbage import transcript as t
from tests.web.chromium import ARGS, CHROMIUM
from tests.web.running import Running, running_board

PHONE = {"viewport": {"width": 390, "height": 844}, "ignore_https_errors": True, "has_touch": True, "is_mobile": True}


@contextmanager
def phone_at_board(tmp_path: Path, browser: Any, *, token: str, setup: t.GameInput) -> Iterator[
        tuple[Running, Any, list[str]]]:
    """The board (its state in tmp_path/state), a phone's page in `browser` (conftest's) and its script errors."""
    with running_board(tmp_path / "state", token=token, https=True, setup=setup) as board:
        page = browser.new_page(**PHONE)
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        try:
            yield board, page, errors
        finally:
            browser.close()


@contextmanager
def phone_filming(tmp_path: Path, video: Path, *, token: str, setup: t.GameInput) -> Iterator[
        tuple[Running, Any, list[str]]]:
    """The board (its state in tmp_path/state), the phone's page and the script errors it has had so far."""
    from playwright.sync_api import sync_playwright

    args = [*ARGS, "--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream",
            f"--use-file-for-fake-video-capture={video}"]
    with running_board(tmp_path / "state", token=token, https=True, setup=setup) as board, \
            sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=args)
        context = browser.new_context(**PHONE)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        try:
            yield board, page, errors
        finally:
            browser.close()
