"""A phone at the board (a fixture module, not tests): headless Chromium at 390x844 with touch on a board that runs
with its HTTPS page and a control token; its fake camera playing a video (a browser of its own: the camera is a
launch flag), or the session's browser where a test stands a canvas in for the camera."""

from __future__ import annotations

import base64
import io
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from PIL import Image

from companion.cribbage import transcript as t
from tests.web.chromium import ARGS, CHROMIUM
from tests.web.running import Running, running_board

CANVAS_CAMERA = """(() => {
  const canvas = document.createElement("canvas");
  canvas.width = 640;
  canvas.height = 480;
  const context = canvas.getContext("2d");
  let shown = null;
  const paint = () => { if (shown) context.drawImage(shown, 0, 0); };
  const presented = (video) => new Promise((done) => video.requestVideoFrameCallback(() => done()));
  window.holdUp = async (url) => {  // resolved once the page's video shows it (a photo taken next is of it)
    shown = await createImageBitmap(await (await fetch(url)).blob());
    paint();
    const video = document.querySelector("video");
    if (video && video.srcObject && !video.paused) for (const _ of [1, 2]) await presented(video);
  };
  setInterval(paint, 50);
  navigator.mediaDevices.getUserMedia = async () => { paint(); return canvas.captureStream(20); };
})();"""
"""A page's camera (an init script): a 640x480 canvas stream standing in for getUserMedia, showing what
`holdUp(url)` was last given (`picture_url`) until it is given another, `holdUp` resolving once the page's video
has shown it; the pictures follow the test, not a video's clock."""


def picture_url(picture: Image.Image) -> str:
    """`picture` as a JPEG data URL, for `holdUp`."""
    out = io.BytesIO()
    picture.save(out, "JPEG", quality=90)
    return "data:image/jpeg;base64," + base64.b64encode(out.getvalue()).decode()


PHONE = {"viewport": {"width": 390, "height": 844}, "ignore_https_errors": True, "has_touch": True, "is_mobile": True,
         "reduced_motion": "reduce"}
"""The phone's page: with reduced motion as the shared browser's pages (tests/conftest.py), in a browser of its own
too."""


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
    with sync_playwright() as p, phone_at_board(tmp_path, p.chromium.launch(executable_path=str(CHROMIUM), args=args),
                                                token=token, setup=setup) as filming:
        yield filming
