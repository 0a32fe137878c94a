"""A phone at the table reading plain cards: headless Chromium (Debian's, driven by Playwright) on /scan's "Plain
cards" mode, its fake camera playing ordinary cards held up one after the other; the board reads the frames with
its card recognizer. The starter and three plays are entered by the camera alone, a card shown again is refused
in words, an out-of-focus card is asked about and entered by the phone's OK. Screenshots at 390x844 are kept in
test-artefacts/web/ (scan-cards-*.png)."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.cribbage import transcript as t
from companion.cribbage.cards import Card
from tests.devices.card_photos import needs_cards, photo
from tests.web.card_camera import Held, write_y4m
from tests.web.chromium import ARGS, ARTEFACTS, CHROMIUM
from tests.web.running import running_board

playwright = pytest.importorskip("playwright.sync_api")
TOKEN = "5d1c0e77"
SETUP = t.GameInput(("Ann", "Bob"), dealer="Ann")


@needs_cards
@pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed (dev.py test installs it)")
def test_plain_cards_held_up_to_a_phone_are_entered_once_and_a_doubtful_one_is_asked(tmp_path: Path) -> None:
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    shown = [Held("5H", photo("5H", 1)), Held("10S", photo("10S", 2)), Held("10S", photo("10S", 3)),
             Held("KH", photo("KH", 4)), Held("8C", photo("8C", 5, blur=4.0))]
    video = tmp_path / "cards.y4m"
    write_y4m(video, shown)
    args = [*ARGS, "--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream",
            f"--use-file-for-fake-video-capture={video}"]
    with running_board(tmp_path / "state", token=TOKEN, https=True, setup=SETUP) as board, \
            playwright.sync_playwright() as p:
        table = board.table
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=args)
        context = browser.new_context(viewport={"width": 390, "height": 844}, ignore_https_errors=True,
                                      has_touch=True, is_mobile=True)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(board.web.secure_address + "scan")
        page.fill("#token", TOKEN)
        page.click("#token-send")
        playwright.expect(page.locator("#locked")).to_be_hidden()
        page.click("#mode-cards")
        playwright.expect(page.locator("#mode-cards")).to_have_attribute("aria-pressed", "true")
        playwright.expect(page.locator("#idle-cards")).to_be_visible()
        page.screenshot(path=str(ARTEFACTS / "scan-cards-idle.png"))
        page.click("#start")
        words = page.locator("#result-words")
        seen = []
        for index in range(len(shown)):
            page.wait_for_function(f"window.scanTimings.length > {index}", timeout=30_000)
            seen.append(words.inner_text())
            if index == 0:
                page.screenshot(path=str(ARTEFACTS / "scan-cards-entered.png"))
            if index == 2:
                assert "refused" in (page.locator("#result").get_attribute("class") or "")
                page.screenshot(path=str(ARTEFACTS / "scan-cards-refused.png"))
        playwright.expect(page.locator("#asking")).to_be_visible()
        playwright.expect(page.locator("#prompt")).to_have_text("8♣? OK, or enter the card")
        page.click("#asking-choose")
        playwright.expect(page.locator("#choose")).to_be_visible()
        page.screenshot(path=str(ARTEFACTS / "scan-cards-asking.png"), full_page=True)
        page.click("#asking-ok")
        page.wait_for_function(f"window.scanTimings.length > {len(shown)}", timeout=10_000)
        playwright.expect(page.locator("#asking")).to_be_hidden()
        confirmed = words.inner_text()
        page.screenshot(path=str(ARTEFACTS / "scan-cards-confirmed.png"))
        page.click("#start")  # the camera off
        timings = page.evaluate("window.scanTimings")
        frames = page.evaluate("window.cardFrames")
        page.click("#teach-start")
        playwright.expect(page.locator("#teach")).to_be_visible()
        playwright.expect(page.locator("#teach-words")).to_have_text("Hold up A♣, alone, face to the camera")
        playwright.expect(page.locator("#teach-count")).to_have_text("0/52")
        page.screenshot(path=str(ARTEFACTS / "scan-cards-teach.png"))
        browser.close()
    assert errors == []
    assert [(timing["code"], timing["error"], timing["asking"]) for timing in timings[:len(shown)]] == [
        ("5H", False, False), ("10S", False, False), ("10S", True, False), ("KH", False, False), ("8C", False, True)]
    assert "5♥ entered" in seen[0] and "10♠ entered" in seen[1] and "10♠ was played by Bob" in seen[2]
    assert seen[4] == "8♣? OK, or enter the card"
    assert confirmed.startswith("8♣ entered")
    assert table.log.inputs[1:] == [t.StarterInput(Card.parse("5H")), t.PlayInput(Card.parse("10S")),
                                    t.PlayInput(Card.parse("KH")), t.PlayInput(Card.parse("8C"))]
    assert frames >= 20
