"""The page's voice in headless Chromium: switched on from the page, it says the board's words for each input (the
same the OLED shows) in a voice of the page's language, cuts them short at a new deal; and it mutes the board's
own voice. The browser's speechSynthesis is replaced by a recorder, as headless Chromium has no voices to hear."""

from __future__ import annotations

import pytest

from companion.base.clock import ManualClock
from companion.devices.presence import Watch
from companion.devices.voice import SimulatedVoice, Speaker
from companion.entry import Entry
from companion.table.announcer import Announcer
from tests.golden import GOLDEN
from tests.web.chromium import ARTEFACTS, CHROMIUM, keep
from tests.web.running import running_board

DEAL = [line for line in (GOLDEN / "deal.txt").read_text().splitlines() if line and not line.startswith("#")]
RECORDER = """
window.SAID = []; window.CUTS = 0;
const voices = [{lang: "en-US", name: "US", localService: true}, {lang: "de-DE", name: "Anna", localService: true}];
Object.defineProperty(window, "speechSynthesis", {configurable: true, value: {
  speak(u) { if (u.text) window.SAID.push([u.text, u.lang, u.voice ? u.voice.name : null]); },
  cancel() { window.CUTS += 1; }, getVoices() { return voices; }}});
window.SpeechSynthesisUtterance = class { constructor(text) { this.text = text; } };
"""

playwright = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed (dev.py installs it)")


def said_on_the_page(page, count: int) -> list[list[str]]:
    page.wait_for_function(f"() => window.SAID.length >= {count}", timeout=10_000)
    return page.evaluate("window.SAID")


@pytest.mark.parametrize(("lang", "voice", "crib"), [("en", "US", "Ann's crib: 4; fifteen two, fifteen four"),
                                                     ("de", "Anna", "Krippe Ann: 4; fünfzehn zwei, fünfzehn vier")])
def test_switched_on_the_page_says_the_boards_words_in_a_voice_of_its_language(speak, tmp_path, lang, voice, crib, *,
                                                                               browser):
    speak(lang)
    with running_board(tmp_path) as board:
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.add_init_script(RECORDER)
        page.goto(board.url)
        playwright.expect(page.locator("#voice-board")).to_be_hidden()  # no voice on this board: nothing to mute
        page.locator("#voice-page").check()
        for text in ["ok", *DEAL]:  # no cut: Ann deals; all at once: the page catches up on every word
            board.table.emit(Entry(text, "terminal"))
        said = said_on_the_page(page, 6)
        assert [text for text, _lang, _voice in said] == [text for _n, text in board.table.spoken.said]
        assert len(said) == 6 and said[-1][0] == crib
        assert {(spoken_in, by) for _text, spoken_in, by in said} == {(f"{lang}-{lang.upper()}".replace("EN", "US"),
                                                                        voice)}
        cuts = page.evaluate("window.CUTS")
        board.table.emit(Entry("4D", "terminal"))  # the next deal's starter: what is still said is stale
        page.wait_for_function(f"() => window.CUTS > {cuts}", timeout=10_000)
        browser.close()


def test_the_page_mutes_and_unmutes_the_boards_voice(browser, tmp_path):
    with running_board(tmp_path) as board:
        voice = SimulatedVoice()
        speaker = Speaker(Watch(Speaker.name, lambda: voice, ManualClock()), thread=False)
        board.daemon.announcer = board.table.announcer = Announcer(speaker, ("scores",))
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.add_init_script(RECORDER)
        page.goto(board.url)
        button = page.locator("#voice-board")
        playwright.expect(button).to_have_text("Mute the board")
        button.click()
        playwright.expect(button).to_have_text("Unmute the board")
        assert speaker.muted
        playwright.expect(page.locator("#message")).to_have_text("Voice off: MENU twice turns it on again")
        keep(page.locator(".side-panel"), ARTEFACTS / "voice-controls.png")
        button.click()
        playwright.expect(button).to_have_text("Mute the board")
        assert not speaker.muted
        browser.close()
