"""The show of a game against the computer in headless Chromium: after the play, the starter, both hands and the
crib face up with each count as said; nothing of the next deal before Continue (or Enter); at the game's end every
hand with its count, the winner, and Play again with the same settings. Screenshots at 1280 and 390 px wide where
CRIB_ARTEFACTS asks."""

from __future__ import annotations

import pytest

from companion.devices.base import Entry
from companion.play.computer import Settings
from companion.words.projection import state_json
from tests.web.chromium import ARTEFACTS, CHROMIUM, keep
from tests.web.running import running_board

playwright = pytest.importorskip("playwright.sync_api")


def lay_away(page) -> None:
    hand = page.locator("#hand .card.active")
    playwright.expect(hand).to_have_count(6)
    hand.nth(0).click()
    hand.nth(1).click()


def play_until_the_show(page, board) -> None:
    """The person's moves by clicking (the first card that fits, or go) until the deck waits or the game ends."""
    for _ in range(400):
        state = board.table.state
        if board.computer.showing(state) is not None or state.winner is not None:
            return
        inputs = str(len(state.inputs))
        if state.phase != "play" or state.turn != "Guest" or page.evaluate("document.body.dataset.inputs") != inputs:
            page.wait_for_timeout(40)
            continue
        go = page.locator("#go")
        move = go if not go.is_disabled() else page.locator("#hand .card.active").first
        move.click()
        page.wait_for_function(f"() => document.body.dataset.inputs !== '{inputs}'")
    raise AssertionError(f"no show: {board.table.prompt()}")


def check_the_show(page, board, deal: int) -> None:
    """Each hand in counting order with its four cards, its count and each phrase as said; the starter."""
    record = state_json(board.table.state)["deals"][deal - 1]
    hands = page.locator("#show .show-hand")
    playwright.expect(hands).to_have_count(len(record["show"]))
    assert [(h.get_attribute("data-kind"), h.get_attribute("data-player")) for h in hands.all()] == [
        (i["kind"], i["player"]) for i in record["show"]]
    for shown, item in zip(hands.all(), record["show"], strict=True):
        cards = shown.locator(".show-cards .card").evaluate_all("els => els.map(e => e.dataset.card)")
        assert cards == [c["code"] for c in item["cards"]] + [record["starter"]["code"]]
        assert shown.locator(".show-total").inner_text() == str(item["total"])
        assert shown.locator(".show-said li").all_inner_texts() == item["said"]
    playwright.expect(page.locator("#show-starter .card")).to_have_attribute("data-card", record["starter"]["code"])


@pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed (dev.py test installs it)")
def test_the_show_waits_for_continue_and_the_game_ends_with_play_again(browser, tmp_path):
    settings = Settings("Guest", ("standard",), target=61, seed=21)
    with running_board(tmp_path, settings, move_seconds=0.02) as board:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(board.url)
        playwright.expect(page.locator("#prompt")).not_to_contain_text("can")  # no word of scanning
        lay_away(page)
        playwright.expect(page.locator("#crib .card.back")).to_have_count(4)  # laid away, face down
        play_until_the_show(page, board)
        playwright.expect(page.locator("#show")).to_be_visible()
        check_the_show(page, board, 1)
        playwright.expect(page.locator("#show-continue")).to_be_focused()
        for _ in range(500):  # the computer has seen the show and has no move: nothing of the next deal comes
            if board.computer.idle:
                break
            page.wait_for_timeout(20)
        else:
            raise AssertionError("the computer is still moving at the show")
        assert board.table.state.hands == {} and board.table.state.deal_number == 2
        playwright.expect(page.locator("#hand .card")).to_have_count(0)
        assert "Scan" not in page.locator("#prompt").inner_text()
        keep(page, ARTEFACTS / "show-1280.png", full_page=True)
        page.set_viewport_size({"width": 390, "height": 844})
        page.locator("#show").scroll_into_view_if_needed()
        keep(page, ARTEFACTS / "show-390.png")
        page.set_viewport_size({"width": 1280, "height": 900})
        page.keyboard.press("Enter")  # the Continue button has the focus: Enter is OK
        playwright.expect(page.locator("#show")).to_be_hidden()
        playwright.expect(page.locator("#hand .card.active")).to_have_count(6)  # the next deal, dealt
        first = page.locator("#hand .card.active").nth(0).get_attribute("data-card")
        page.locator("#picker").evaluate("el => el.closest('details').open = true")
        page.locator(f"#picker [data-rank='{first[:-1]}']").click()  # the picker chooses from your hand
        page.locator(f"#picker [data-suit='{first[-1]}']").click()
        playwright.expect(page.locator(f"#hand .card.chosen[data-card='{first}']")).to_have_count(1)
        assert board.table.state.starter is None
        page.locator("#hand .card.active").nth(1).click()
        play_until_the_show(page, board)
        if board.table.state.winner is None:
            check_the_show(page, board, 2)
            page.locator("body").click(position={"x": 5, "y": 5})  # Enter on the page itself is OK as well
            page.keyboard.press("Enter")
            playwright.expect(page.locator("#show")).to_be_hidden()
            brink = 60 - board.table.state.score("Guest")  # to the brink: the next points end the game
            board.table.emit(Entry(f"peg Guest {brink}", "web"))
            lay_away(page)
            play_until_the_show(page, board)
        state = board.table.state
        assert state.winner is not None
        playwright.expect(page.locator("#play-again")).to_be_visible()
        shown = state_json(state)["deals"][-1]["show"]
        playwright.expect(page.locator("#show .show-hand")).to_have_count(len(shown))
        for item in shown:
            if item["points"] is not None and item["points"] < item["total"]:
                playwright.expect(page.locator(f"#show .show-hand[data-kind={item['kind']}] .show-note")).to_have_text(
                    f"needed {item['points']}")
        playwright.expect(page.locator("#show-end")).to_contain_text("61")
        keep(page, ARTEFACTS / "game-end-1280.png", full_page=True)
        page.set_viewport_size({"width": 390, "height": 844})
        page.locator("#play-again").scroll_into_view_if_needed()
        keep(page, ARTEFACTS / "game-end-390.png")
        top = page.evaluate("document.getElementById('play-again').getBoundingClientRect().top + scrollY")
        assert top < 600  # on a phone, right under the board (the form is far down)
        old = board.table.log.path
        page.locator("#play-again").click()
        lay_away_ready = page.locator("#hand .card.active")
        playwright.expect(lay_away_ready).to_have_count(6, timeout=10_000)
        assert board.table.log.path != old
        again = board.computer.settings
        assert again is not None and (again.person, again.levels, again.target, again.match) == (
            "Guest", ("standard",), 61, 1)
        browser.close()
        assert errors == []
