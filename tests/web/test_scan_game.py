"""A game finished at a real table with an ordinary deck and a phone: headless Chromium at 390x844 on /scan's
"Plain cards" mode, the phone's camera showing photographs rendered from letele's deck (the design the card
reader is kept out of training for, companion/vision/synth.py's scenes). The earlier deals are in the log; the
person lays away the crib, turns the starter and plays the last deal to the show, which ends the game: each card
is held up until the phone answers, a card the board asks about is confirmed with OK (one on the board's keypad,
and the phone's question goes with it; a German page of the board asks it in German), the next card held up
before the answer is refused in words while the question stays (shown again later, entered), a wrong guess is
corrected, a wrong card entered is taken back with the phone's Undo, and a go is said with its Go; New game
deals the next. axe-core finds nothing on the page, the question or the game's end. Screenshots where
CRIB_ARTEFACTS=DIR asks (DIR/web/scan-game-*.png).

The camera is a canvas stream standing in for getUserMedia (tests/web/phone.py): the person holds each card until the
phone beeps, so the pictures follow the game, not a fixed video's clock, and the phone sends a frame as soon as the
board answered the last (`?frame_ms=1`, instead of every 250 ms)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.cribbage import transcript as t
from companion.cribbage.cards import Card
from companion.entry import Entry
from tests.web.browsing import ARTEFACTS, CHROMIUM, NO_CHROMIUM, axe, small_controls
from tests.web.chromium import keep
from tests.web.held_out import empty_table, held_up, needs_renders
from tests.web.phone import CANVAS_CAMERA, phone_at_board, picture_url

playwright = pytest.importorskip("playwright.sync_api")
pytest.importorskip("cv2")
TOKEN = "3c1f9a20"
GAME = Path(__file__).parents[1] / "data" / "games" / "two_121.jsonl"  # Ann beats Bob 121 to 104
LAST_DEAL = 36  # the lines of the log before the last deal's crib: the phone enters the rest
KEYPAD_OK = "5S"  # the starter: out of focus, asked about, confirmed on the board's keypad
pytestmark = [pytest.mark.skipif(not CHROMIUM.exists(), reason=NO_CHROMIUM), needs_renders]

def card_photo(code: str, seed: int, *, blur: float = 0.0) -> str:
    """A photograph of letele's `code` held over a table, as a data URL."""
    return picture_url(held_up(code, seed, blur=blur))


def earlier_entries(lines: list[str]) -> list[str]:
    """What was entered for the log's lines after the game's: each card, each go."""
    out = []
    for line in lines:
        found = json.loads(line)
        out += found["cards"] if found["type"] == "crib" else [found["card"]] if "card" in found else ["go"]
    return out


class Person:
    """The person at the table with the phone: holds up cards, answers the board's questions, taps Go and Undo."""

    def __init__(self, page: Any, board: Any) -> None:
        self.page = page
        self.board = board
        self.table_url = picture_url(empty_table())
        self.went: dict[str, list[str]] = {"entered": [], "confirmed": [], "corrected": [], "keypad": []}
        self.seed = 0
        self.checked: list[str] = []  # the questions axe-core was run on
        self.watcher = page.context.browser.new_page(extra_http_headers={"Accept-Language": "de-DE,de;q=0.9"},
                                                     reduced_motion="reduce")  # as the shared browser's pages
        self.watcher.goto(board.web.address)  # the board's page, in German, on the English board

    def watching(self, guess: str) -> None:
        """The German page follows the board: the question in German, on its message line and prompt."""
        question = f"{pretty(guess)}? OK oder Karte eingeben"
        playwright.expect(self.watcher.locator("#message")).to_have_text(question)
        playwright.expect(self.watcher.locator("#prompt")).to_have_text(question)

    def answers(self) -> int:
        return int(self.page.evaluate("window.scanTimings.length"))

    def answered(self, before: int) -> dict[str, Any]:
        self.page.wait_for_function(f"window.scanTimings.length > {before}", timeout=15_000)
        return dict(self.page.evaluate(f"window.scanTimings[{before}]"))

    def hold_up(self, code: str, *, blur: float = 0.0, screenshot: str = "", meanwhile: str = "") -> str:
        """The card held up until the phone answers, then taken away; a question answered as a person would (with a
        `screenshot`: kept, and axe-core run on the question and its card picker; with `meanwhile`: that card held
        up first, before the answer, and refused in words while the question stays)."""
        page = self.page
        self.seed += 1
        before = self.answers()
        page.evaluate("(url) => holdUp(url)", card_photo(code, self.seed, blur=blur))
        timing = self.answered(before)
        page.evaluate("(url) => holdUp(url)", self.table_url)
        if not timing["asking"]:
            assert timing["code"] == code, f"{code} entered as {timing['code']}"  # never a confident wrong card
            self.went["entered"].append(code)
            return "entered"
        guess = str(timing["code"])
        asking = page.locator("#asking")
        playwright.expect(asking).to_be_visible()
        playwright.expect(page.locator("#result-words")).to_have_text(
            f"Is it {pretty(guess)}? Tap OK, or choose the card")
        if meanwhile:  # the next card, too soon: not entered, and the phone says so
            before = self.answers()
            page.evaluate("(url) => holdUp(url)", card_photo(meanwhile, self.seed))
            shown = self.answered(before)
            page.evaluate("(url) => holdUp(url)", self.table_url)
            assert shown["error"] and not shown["asking"]
            playwright.expect(page.locator("#result-words")).to_have_text(
                f"{pretty(shown['code'])} not entered: first answer about {pretty(guess)} (OK, or enter the card), "
                f"then show {pretty(shown['code'])} again")
            playwright.expect(asking).to_be_visible()
            playwright.expect(self.watcher.locator("#prompt")).to_have_text(f"{pretty(guess)}? OK oder Karte eingeben")
        if screenshot:
            keep(page, ARTEFACTS / f"scan-game-{screenshot}.png")
            page.click("#asking-choose")
            playwright.expect(page.locator("#choose")).to_be_visible()
            assert axe(page) == [] and small_controls(page) == []
            self.checked.append(code)
        if code == KEYPAD_OK:  # answered on the board's keypad (OK, or the card typed): the phone's question goes
            self.watching(guess)
            self.board.table.emit(Entry("ok" if guess == code else code, "keypad"))
            playwright.expect(asking).to_be_hidden()
            playwright.expect(page.locator("#result-words")).to_have_text(f"{pretty(code)} entered")
            self.went["keypad"].append(code)
            return "keypad"
        before = self.answers()
        if guess == code:
            page.click("#asking-ok")
            how = "confirmed"
        else:
            if page.locator("#choose").is_hidden():
                page.click("#asking-choose")
            page.click(f"#choose-ranks button:text-is('{code[:-1]}')")
            page.click(f"#choose-suits button[aria-label='{pretty(code)[-1]}']")
            page.click("#choose-enter")
            how = "corrected"
        self.answered(before)
        playwright.expect(asking).to_be_hidden()
        self.went[how].append(code)
        return how

    def tap(self, button: str, said: str) -> None:
        self.page.click(button)
        playwright.expect(self.page.locator("#result-words")).to_contain_text(said)


def pretty(code: str) -> str:
    return Card.parse(code).pretty


def test_the_last_deal_of_a_game_played_with_plain_cards_and_a_phone(browser: Any, tmp_path: Path) -> None:
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    lines = GAME.read_text().splitlines()
    setup = t.parse_input(lines[0])
    assert isinstance(setup, t.GameInput)
    with phone_at_board(tmp_path, browser, token=TOKEN, setup=setup) as (board, page, errors):
        table = board.table
        for text in earlier_entries(lines[1:LAST_DEAL]):
            table.emit(Entry(text, "keypad"))
        page.add_init_script(CANVAS_CAMERA)
        page.goto(board.web.secure_address + "scan?mode=cards&frame_ms=1")
        page.fill("#token", TOKEN)
        page.click("#token-send")
        playwright.expect(page.locator("#locked")).to_be_hidden()
        playwright.expect(page.locator("#prompt")).to_have_text("Enter Ann's crib")
        person = Person(page, board)
        page.evaluate("(url) => holdUp(url)", person.table_url)
        page.click("#start")
        playwright.expect(page.locator("#table-keys")).to_be_visible()
        keep(page, ARTEFACTS / "scan-game-start.png")  # axe-core: at the question and the end

        playwright.expect(page.locator("#key-go")).to_be_hidden()  # a go is said in the play only
        for code in ("AH", "3D", "8C"):  # the lay-away: the crib's cards
            person.hold_up(code)
        playwright.expect(page.locator("#prompt")).to_have_text("Crib: 3 of 4")
        keep(page, ARTEFACTS / "scan-game-crib.png")
        person.hold_up("8H", blur=4.0, screenshot="asking", meanwhile="JS")  # out of focus: asked about
        person.hold_up(KEYPAD_OK, blur=4.0)  # out of focus: asked about
        keep(page, ARTEFACTS / "scan-game-keypad.png")
        playwright.expect(page.locator("#scan-scores li").first).to_contain_text("Ann's crib")  # the deal before's

        person.hold_up("JS")
        person.hold_up("QH")  # the wrong card, by mistake: entered
        person.tap("#key-undo", "Undone")
        keep(page, ARTEFACTS / "scan-game-undone.png")
        for code in ("4C", "5C", "6C", "5D"):
            person.hold_up(code)
        person.tap("#key-go", "Go said")
        person.tap("#key-go", "Go said")
        for code in ("4D", "5H", "6H"):
            person.hold_up(code)
        playwright.expect(page.locator("#prompt")).to_contain_text("121")
        playwright.expect(page.locator("#scan-scores li").first).to_contain_text("121")  # the show's last count
        shown = page.locator("#scan-scores").inner_text()
        keep(page, ARTEFACTS / "scan-game-over.png")
        assert axe(page) == [] and small_controls(page) == []  # the scores said, New game
        german = person.watcher
        german.set_viewport_size({"width": 390, "height": 844})
        german.goto(board.web.address + "scan?mode=cards")  # not the secure page: no camera, the rest is there
        playwright.expect(german.locator("#key-new")).to_have_text("Neues Spiel")
        playwright.expect(german.locator("#scan-scores li").first).to_contain_text("Hand Ann")
        keep(german, ARTEFACTS / "scan-game-over-de.png")
        state = table.state  # the game's end, before the next
        playwright.expect(page.locator("#key-go")).to_be_hidden()
        person.tap("#key-new", "Bob deals first")  # the loser deals the next game
        playwright.expect(page.locator("#prompt")).to_contain_text("starter")
        keep(page, ARTEFACTS / "scan-game-next.png")
    assert errors == []
    assert "hand" in shown
    assert state.winner is not None and sorted(state.scores.values()) == [104, 121]
    played = [str(card) for _, card in state.played]  # each once, the wrong one taken back
    assert played == ["JS", "4C", "5C", "6C", "5D", "4D", "5H", "6H"] and str(state.starter) == KEYPAD_OK
    assert person.went["keypad"] == [KEYPAD_OK] and person.checked == ["8H"]
    (ARTEFACTS / "scan-game-figures.json").write_text(json.dumps(person.went, indent=1), encoding="utf-8")
    print("the last deal with plain cards:", json.dumps(person.went))
