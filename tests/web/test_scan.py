"""Phones at the table as the scanner: headless Chromium (Debian's, driven by Playwright) with a fake rear camera
playing a video of the deck's own labels, on the board's HTTPS page with the control token. A whole deal is
scored by the camera alone; a card played twice and a code that is not the deck's are refused in words on the
phone. Measured (printed, and kept in test-artefacts/web/scan-latency.json): from the frame a code comes into
view to the board's answer on the phone, which comes after the table has taken the card and drawn the LEDs and
the OLED."""

from __future__ import annotations

import json
import statistics
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from companion.cribbage import transcript as t
from companion.cribbage.cards import Card
from companion.cribbage.game import replay
from tests.facts import by_name
from tests.web.camera import FPS, foreign_label, label_images, write_y4m
from tests.web.chromium import ARTEFACTS, CHROMIUM, keep
from tests.web.phone import phone_filming
from tests.web.running import running_board

playwright = pytest.importorskip("playwright.sync_api")
TOKEN = "5d1c0e77"
SETUP = t.GameInput(("Ann", "Bob"), dealer="Ann")
# the starter, the play (Ann says go, then Bob; Bob's 9 makes fifteen, Ann's ace thirty-one), the crib; a card
# played twice and a code of another product on the way: every code of a deal, nothing typed or clicked
DEAL = ["C5H", "CTS", "CTS", "WRONG1", "CKH", "CTD", "XG", "XG", "C6S", "C9C", "CQH", "C5C", "CAD",
        "C2C", "C3D", "C7H", "C8S"]
REFUSED = {2: "10♠ was played by Bob", 3: "not a Cribbage Companion code"}


def inputs(codes: list[str]) -> list[t.Input]:
    out: list[t.Input] = [SETUP]
    played = [c for i, c in enumerate(codes) if i not in REFUSED]
    for code in played[:-4]:
        out.append(t.GoInput() if code == "XG" else t.StarterInput(Card.parse(code[1:])) if len(out) == 1
                   else t.PlayInput(Card.parse(code[1:])))
    out.append(t.CribInput(tuple(Card.parse(code[1:]) for code in played[-4:])))
    return out


@pytest.mark.slow
@pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed (dev.py test installs it)")
def test_a_deal_scored_by_a_phones_camera_alone(tmp_path: Path) -> None:
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    labels = label_images(tmp_path)
    labels["WRONG1"] = foreign_label("WRONG1")
    video = tmp_path / "table.y4m"
    shown = write_y4m(video, [(code, labels[code]) for code in DEAL])
    with phone_filming(tmp_path, video, token=TOKEN, setup=SETUP) as (board, page, errors):
        table = board.table
        elsewhere: list[str] = []  # nothing may come from anywhere but the board
        board_host = urlsplit(board.web.secure_address).netloc
        page.on("request", lambda request: urlsplit(request.url).netloc in ("", board_host)
                or elsewhere.append(request.url))
        page.goto(board.web.secure_address + "scan")
        fingerprint = board.web.hub.fingerprint
        playwright.expect(page.locator("#fingerprint")).to_contain_text(fingerprint)
        playwright.expect(page.locator("#locked")).to_be_visible()  # scanning is a control: the token first
        page.fill("#token", TOKEN)
        page.click("#token-send")
        playwright.expect(page.locator("#locked")).to_be_hidden()
        page.click("#start")
        seen: dict[int, str] = {}
        for index in range(len(DEAL)):
            answer = page.wait_for_function(  # the words and their look read as the answer came, in one go
                f"window.scanTimings.length > {index} && [document.querySelector('#result-words').innerText, "
                "document.querySelector('#result').className]", timeout=20_000).json_value()
            seen[index], look = answer
            if index in REFUSED:
                assert REFUSED[index] in seen[index]
                assert "refused" in look
                if index == 2:
                    keep(page, ARTEFACTS / "scan-refused.png")
        page.click("#start")  # the camera off
        timings = page.evaluate("window.scanTimings")
        decodes = page.evaluate("window.decodeTimes")
        opened = page.evaluate("window.cameraAsked")
        keep(page, ARTEFACTS / "scan-phone.png")
    assert errors == [] and elsewhere == []
    assert [timing["code"] for timing in timings] == DEAL
    assert [timing["error"] for timing in timings] == [i in REFUSED for i in range(len(DEAL))]
    assert "5♥ entered" in seen[0] and "GO entered" in seen[6]
    assert "Crib: 3 of 4" in seen[len(DEAL) - 2]
    expected = replay(inputs(DEAL))
    assert tuple(table.log.inputs) == expected.inputs
    assert table.state.scores == expected.scores and by_name(expected.scores) == {"Ann": 12, "Bob": 15}
    assert table.state.deal_number == 2
    # from the frame a code came into view to the answer: the video starts when the page asks for the camera, at
    # the earliest, so its frames are in view no earlier than their place in it says (the figures are upper bounds)
    in_view = [opened + s.first_frame * 1000 / FPS for s in shown]
    latency = [timing["answered"] - start for timing, start in zip(timings, in_view, strict=True)]
    found = [timing["frame"] - start for timing, start in zip(timings, in_view, strict=True)]
    figures = {"codes": len(DEAL), "frame_ms": 1000 / FPS,
               "in_view_to_answer_ms": {"median": statistics.median(latency), "max": max(latency)},
               "in_view_to_frame_read_ms": {"median": statistics.median(found), "max": max(found)},
               "decode_ms": {"median": statistics.median(decodes), "max": max(decodes), "frames": len(decodes)}}
    (ARTEFACTS / "scan-latency.json").write_text(json.dumps(figures, indent=1), encoding="utf-8")
    print("phone scanner:", json.dumps(figures))


@pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed (dev.py test installs it)")
def test_the_camera_button_on_the_plain_page_sends_the_phone_to_the_secure_one(browser: Any, tmp_path: Path) -> None:
    # a name other than localhost (tests/web/chromium.py's ARGS): the plain page is not a secure context there, and
    # the camera would not open
    with running_board(tmp_path, token=TOKEN, https=True) as board:
        page = browser.new_page(viewport={"width": 390, "height": 844})
        plain = urlsplit(board.url)._replace(netloc=f"cribbage.local:{urlsplit(board.url).port}")
        page.goto(plain.geturl())
        page.click("a.camera")  # the board page's Camera button, usable before the token is given
        playwright.expect(page).to_have_url(plain._replace(path="/scan").geturl())
        playwright.expect(page.locator("#insecure")).to_be_visible()
        secure = f"https://cribbage.local:{urlsplit(board.web.secure_address).port}/scan"
        playwright.expect(page.locator("#secure-link")).to_have_attribute("href", secure)
        playwright.expect(page.locator("#start")).to_be_disabled()
        playwright.expect(page.locator("#fingerprint")).to_contain_text(board.web.hub.fingerprint)
        browser.close()
