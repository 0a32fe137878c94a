"""A phone at the table reading plain cards: headless Chromium (Debian's, driven by Playwright) on /scan's "Plain
cards" mode, ordinary cards held up to its camera one after the other (photographs rendered from letele's deck,
which the card reader was not trained on: tests/web/held_out.py); the board reads the frames with its card
recognizer. The starter and three plays are entered by the camera alone, a card shown again is refused
in words, an out-of-focus card is asked about and entered by the phone's OK; teaching the deck, a photo with no card
is taken again, and one of another card asked about and taken again (or kept). Screenshots at 390x844 are kept
where CRIB_ARTEFACTS=DIR asks (DIR/web/scan-cards-*.png).

The camera is a canvas stream standing in for getUserMedia (tests/web/phone.py): each card is held until the phone
answers, and the phone sends a frame as soon as the board answered the last (`?frame_ms=1`), so the test follows
the phone, not a video's clock. Two tests play the cards to Chromium's own fake camera instead (a short video in
real time, tests/web/card_camera.py): the page's getUserMedia path and its real frame clock, end to end (teaching
pauses the video on the card to photograph)."""

from __future__ import annotations

import json
import statistics
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from companion.cribbage import transcript as t
from companion.cribbage.cards import Card
from companion.web.frames import PHOTOS
from tests.web.browsing import axe, small_controls
from tests.web.card_camera import Held, write_y4m
from tests.web.chromium import ARTEFACTS, CHROMIUM, keep
from tests.web.held_out import empty_table, held_up, needs_renders
from tests.web.phone import CANVAS_CAMERA, phone_at_board, phone_filming, picture_url

playwright = pytest.importorskip("playwright.sync_api")
TOKEN = "5d1c0e77"
SETUP = t.GameInput(("Ann", "Bob"), dealer="Ann")
GONE = 10  # frames of the table before a card is held up again: it must be missing from 4 in a row (and the
# canvas's stream may lag a frame or two behind it)


@pytest.mark.slow
@needs_renders
@pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed (dev.py test installs it)")
def test_plain_cards_held_up_to_a_phone_are_entered_once_and_a_doubtful_one_is_asked(browser: Any,
                                                                                      tmp_path: Path) -> None:
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    shown = [("5H", held_up("5H", 1)), ("10S", held_up("10S", 2)), ("10S", held_up("10S", 3)),
             ("KH", held_up("KH", 4)), ("8C", held_up("8C", 5, blur=4.0))]
    with phone_at_board(tmp_path, browser, token=TOKEN, setup=SETUP) as (board, page, errors):
        table = board.table
        page.add_init_script(CANVAS_CAMERA)
        page.goto(board.web.secure_address + "scan?frame_ms=1")
        page.fill("#token", TOKEN)
        page.click("#token-send")
        playwright.expect(page.locator("#locked")).to_be_hidden()
        page.click("#mode-cards")
        playwright.expect(page.locator("#mode-cards")).to_have_attribute("aria-pressed", "true")
        playwright.expect(page.locator("#idle-cards")).to_be_visible()
        keep(page, ARTEFACTS / "scan-cards-idle.png")
        table_url = picture_url(empty_table())
        page.evaluate("(url) => holdUp(url)", table_url)
        page.click("#start")
        words = page.locator("#result-words")
        said, asked, corrected, cursor = [], [], [], 0

        def answered() -> dict[str, object]:
            nonlocal cursor
            page.wait_for_function(f"window.scanTimings.length > {cursor}", timeout=30_000)
            cursor += 1
            return page.evaluate(f"window.scanTimings[{cursor - 1}]")  # type: ignore[no-any-return]

        for index, (code, picture) in enumerate(shown):
            if index and shown[index - 1][0] == code:  # shown again: first taken out of view
                sent = page.evaluate("window.cardFrames")
                page.wait_for_function(f"window.cardFrames >= {sent + GONE}")
            page.evaluate("(url) => holdUp(url)", picture_url(picture))
            timing = answered()
            page.evaluate("(url) => holdUp(url)", table_url)
            assert timing["asking"] or timing["code"] == code  # never a confident wrong card
            if timing["asking"]:  # the board asks: the player taps OK if it is right, or chooses the card
                guess = str(timing["code"])
                asked.append(index)
                playwright.expect(page.locator("#asking")).to_be_visible()
                playwright.expect(words).to_have_text(f"Is it {named(guess)}? Tap OK, or choose the card")
                if guess != code or index == len(shown) - 1:
                    page.click("#asking-choose")
                    playwright.expect(page.locator("#choose")).to_be_visible()
                if index == len(shown) - 1:
                    keep(page, ARTEFACTS / "scan-cards-asking.png")
                    assert axe(page) == [] and small_controls(page) == []  # the question and the card picker
                if guess == code:
                    page.click("#asking-ok")
                else:
                    corrected.append(code)
                    page.click(f"#choose-ranks button:text-is('{code[:-1]}')")
                    page.click(f"#choose-suits button[aria-label='{named(code)[-1]}']")
                    page.click("#choose-enter")
                timing = answered()
                playwright.expect(page.locator("#asking")).to_be_hidden()
            said.append((timing["error"], words.inner_text()))
            if index == 0:
                keep(page, ARTEFACTS / "scan-cards-entered.png")
            if index == 2:
                assert "refused" in (page.locator("#result").get_attribute("class") or "")
                keep(page, ARTEFACTS / "scan-cards-refused.png")
        keep(page, ARTEFACTS / "scan-cards-confirmed.png")
        page.click("#start")  # the camera off
        frames = page.evaluate("window.cardFrames")
        trips = page.evaluate("window.cardTimes")
        page.click("#teach-start")
        playwright.expect(page.locator("#teach")).to_be_visible()
        playwright.expect(page.locator("#teach-words")).to_have_text("Hold up A♣, alone, face to the camera")
        playwright.expect(page.locator("#teach-count")).to_have_text("0/52")
        keep(page, ARTEFACTS / "scan-cards-teach.png")
        assert axe(page) == [] and small_controls(page) == []
        playwright.expect(page.locator("#teach-take")).to_be_enabled()  # the camera is on again
        teach = page.locator("#teach-words")
        page.click("#teach-take")  # the table alone: nothing kept, A♣ asked for again
        playwright.expect(teach).to_have_text("no card in that photo: hold A♣ whole, alone, on a plain table")
        playwright.expect(page.locator("#teach-count")).to_have_text("0/52")
        page.evaluate("(url) => holdUp(url)", picture_url(held_up("3C", 1)))  # the wrong card
        page.click("#teach-take")
        playwright.expect(teach).to_have_text("That looks like 3♣ to the board: take it again, or keep it")
        playwright.expect(page.locator("#teach-walk")).to_be_hidden()
        keep(page, ARTEFACTS / "scan-cards-teach-asking.png")
        assert axe(page) == [] and small_controls(page) == []
        page.evaluate("(url) => holdUp(url)", picture_url(held_up("AC", 2)))
        page.click("#teach-again")  # the retake replaces the photo: A♣ is taught, A♦ is next
        playwright.expect(teach).to_have_text("Hold up A♦, alone, face to the camera")
        playwright.expect(page.locator("#teach-count")).to_have_text("1/52")
        page.click("#teach-retake")
        playwright.expect(teach).to_have_text("Hold up A♣, alone, face to the camera")
        playwright.expect(page.locator("#teach-count")).to_have_text("1/52")
    assert errors == []
    assert [error for error, _ in said] == [False, False, True, False, False]
    assert said[0][1].startswith("5♥ entered") and said[1][1].startswith("10♠ entered")
    assert "10♠ was played by Bob" in said[2][1] and said[4][1].startswith("8♣ entered")
    assert len(shown) - 1 in asked  # out of focus: asked about
    assert table.log.inputs[1:] == [t.StarterInput(Card.parse("5H")), t.PlayInput(Card.parse("10S")),
                                    t.PlayInput(Card.parse("KH")), t.PlayInput(Card.parse("8C"))]
    assert frames >= 20
    kept = tmp_path / "state" / PHOTOS
    assert [p.name for p in kept.iterdir()] == ["AC.jpg"] and read_as(kept / "AC.jpg") == "AC"  # the retake
    figures = {"cards": len(shown), "asked": [shown[i][0] for i in asked], "corrected": corrected, "frames": frames,
               "frame_round_trip_ms": {"median": statistics.median(trips), "max": max(trips)}}
    (ARTEFACTS / "scan-cards-figures.json").write_text(json.dumps(figures, indent=1), encoding="utf-8")
    print("plain cards on the phone:", json.dumps(figures))


@pytest.mark.slow
@needs_renders
@pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed (dev.py test installs it)")
def test_cards_played_to_chromiums_own_fake_camera_are_entered_each_once(tmp_path: Path) -> None:
    shown = [Held("5H", held_up("5H", 1)), Held("KH", held_up("KH", 4))]
    video = tmp_path / "cards.y4m"
    write_y4m(video, shown, lead=5, gap=12, tail=30)
    with phone_filming(tmp_path, video, token=TOKEN, setup=SETUP) as (board, page, errors):
        page.goto(board.web.secure_address + "scan")  # the page's own frame clock (250 ms)
        page.fill("#token", TOKEN)
        page.click("#token-send")
        playwright.expect(page.locator("#locked")).to_be_hidden()
        page.click("#mode-cards")
        page.click("#start")
        for _ in range(600):  # the starter and a play, each once; a doubtful card is confirmed with OK
            if len(board.table.log.inputs) == 3:
                break
            if page.locator("#asking").is_visible():
                page.click("#asking-ok")
            page.wait_for_timeout(50)
        page.wait_for_function("window.cardFrames >= 20", timeout=30_000)  # the rest of the video: nothing more
        entered = board.table.log.inputs[1:]
    assert errors == []
    assert entered == [t.StarterInput(Card.parse("5H")), t.PlayInput(Card.parse("KH"))]


SHOWN = """([means, which]) => {  // whether the camera's picture is nearer means[which] than the others (mean RGB)
  const canvas = Object.assign(document.createElement("canvas"), { width: 32, height: 24 });
  const context = canvas.getContext("2d");
  context.drawImage(document.getElementById("video"), 0, 0, 32, 24);
  const pixels = context.getImageData(0, 0, 32, 24).data;
  const mean = [0, 1, 2].map((c) => pixels.filter((_, i) => i % 4 === c).reduce((a, b) => a + b) / (pixels.length / 4));
  const far = means.map((m) => m.reduce((sum, v, c) => sum + (v - mean[c]) ** 2, 0));
  return far.indexOf(Math.min(...far)) === which;
}"""
"""Which of the video's pictures the phone's camera shows now."""


@pytest.mark.slow
@needs_renders
@pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed (dev.py test installs it)")
def test_teaching_from_chromiums_own_fake_camera_asks_about_another_card_and_a_retake_replaces_it(
        tmp_path: Path) -> None:
    held = [Held("AD", held_up("AD", 1)), Held("AC", held_up("AC", 2))]
    video = tmp_path / "ad-ac.y4m"
    write_y4m(video, held, lead=0, held=10, gap=0, tail=0)  # A♦ a second, A♣ a second, again and again
    means = [np.asarray(h.picture.resize((32, 24))).reshape(-1, 3).mean(axis=0).tolist() for h in held]
    with phone_filming(tmp_path, video, token=TOKEN, setup=SETUP) as (board, page, errors):

        def hold(which: int) -> None:  # the video paused on a frame of held[which]: the photo is taken of it
            for _ in range(20):
                page.evaluate("() => document.getElementById('video').play()")
                page.wait_for_function(SHOWN, arg=[means, which], timeout=10_000)
                page.evaluate("() => document.getElementById('video').pause()")
                if page.evaluate(SHOWN, [means, which]):  # (not moved on to the other card meanwhile)
                    return
            raise AssertionError(f"the camera never stopped on {held[which].code}")

        page.goto(board.web.secure_address + "scan")
        page.fill("#token", TOKEN)
        page.click("#token-send")
        playwright.expect(page.locator("#locked")).to_be_hidden()
        page.click("#mode-cards")
        page.click("#teach-start")  # the camera starts
        teach = page.locator("#teach-words")
        playwright.expect(teach).to_have_text("Hold up A♣, alone, face to the camera")
        playwright.expect(page.locator("#teach-take")).to_be_enabled()
        hold(0)
        page.click("#teach-take")  # A♦ held up for A♣
        playwright.expect(teach).to_have_text("That looks like A♦ to the board: take it again, or keep it")
        playwright.expect(page.locator("#teach-doubt")).to_be_visible()
        playwright.expect(page.locator("#teach-count")).to_have_text("1/52")
        hold(1)
        page.click("#teach-again")  # now A♣: it replaces the photo, and A♦ is asked for
        playwright.expect(teach).to_have_text("Hold up A♦, alone, face to the camera")
        playwright.expect(page.locator("#teach-count")).to_have_text("1/52")
        page.click("#teach-take")  # A♣ held up for A♦: kept all the same
        playwright.expect(teach).to_have_text("That looks like A♣ to the board: take it again, or keep it")
        page.click("#teach-keep")
        playwright.expect(teach).to_have_text("Hold up A♥, alone, face to the camera")
        playwright.expect(page.locator("#teach-count")).to_have_text("2/52")
    assert errors == []
    kept = tmp_path / "state" / PHOTOS
    assert read_as(kept / "AC.jpg") == "AC" and read_as(kept / "AD.jpg") == "AC"


def named(code: str) -> str:
    return Card.parse(code).pretty


def read_as(photo: Path) -> str | None:
    """The card a teaching photo's index reads, as the board read it when it was posted."""
    from companion.vision import decode
    from companion.vision.index import IndexNet
    from companion.vision.reader import teaching_photo

    found = teaching_photo(IndexNet.load(), decode(photo.read_bytes()))
    return found.reads if found else None
