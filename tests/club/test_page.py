"""The scoreboard's page in headless Chromium (Debian's chromium, driven by Playwright): every table as the
boards themselves end, the standings (screenshots kept where CRIB_ARTEFACTS asks: tests/web/chromium.py)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from companion.club.mosquitto import Mosquitto, wait_for
from companion.club.night import Night
from tests.club.boards import SimBoard
from tests.club.night_fixtures import director_night
from tests.club.scoreboard import CLUB, PLAYERS, Scoreboard, shows_final
from tests.facts import winner_of
from tests.web.browsing import axe
from tests.web.chromium import keep

ARTEFACTS = Path(os.environ.get("CRIB_ARTEFACTS", Path(__file__).parents[2] / "test-artefacts")) / "club"

sync_api = pytest.importorskip("playwright.sync_api")


def test_the_page_shows_every_table_as_the_boards_end_and_the_standings(browser, tmp_path):
    broker = Mosquitto(tmp_path / "broker", CLUB, ["scoreboard", "t1", "t2"])
    broker.start()
    scoreboard = Scoreboard(broker, tmp_path / "night")
    boards = [SimBoard(b, tmp_path / b, broker.broker(b), CLUB, seed=20 + i, players=PLAYERS[i])
              for i, b in enumerate(["t1", "t2"])]
    try:
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(f"http://127.0.0.1:{scoreboard.port}/")
        boards[0].play()
        boards[1].play(25)
        wait_for(lambda: shows_final(scoreboard, boards), "the boards' states at the scoreboard")
        for board in boards:  # the page shows what the boards show: each side's score, pushed live
            final = board.final()["state"]
            card = page.locator("article.club-table", has_text=f"Table {board.board}")
            for side in final["sides"]:
                row = card.locator(".side-row", has_text=side["name"])
                sync_api.expect(row.locator(".score")).to_have_text(str(side["score"]))
            sync_api.expect(card.locator(".club-prompt")).to_have_text(final["prompt"])
        winner = winner_of(boards[0].final()["state"])
        assert winner is not None
        sync_api.expect(page.locator("#standings tbody tr").first).to_contain_text(winner)
        keep(page, ARTEFACTS / "scoreboard.png")
        assert axe(page) == []
        page = browser.new_page(viewport={"width": 390, "height": 844}, locale="de-DE")  # a German browser:
        page.goto(f"http://127.0.0.1:{scoreboard.port}/")  # the page's words and the script's in German
        sync_api.expect(page.locator("article.club-table").first).to_contain_text("Tisch")
        text = page.locator("body").inner_text()
        assert "Clubabend" in text and "Tabelle" in text
        assert [w for w in ("Club night", "Standings", "Table ", "Round", "live", "game over") if w in text] == []
        assert axe(page) == []
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        keep(page, ARTEFACTS / "scoreboard-de-390.png", full_page=True)
        browser.close()
    finally:
        for board in boards:
            board.publisher.close()
        scoreboard.stop()
        broker.stop()


def test_the_directors_page_lists_each_waiting_game_and_decides_by_keyboard(browser, tmp_path):
    broker = Mosquitto(tmp_path / "broker", CLUB, ["scoreboard"], anonymous=True)
    broker.start()
    night = Night(tmp_path / "night" / "night.sqlite")  # the night is made before the scoreboard reads it,
    director_night(night)  # so that no page is drawn from half of it
    night.close()
    scoreboard = Scoreboard(broker, tmp_path / "night", director="token-for-tests")
    try:  # the pages open once the scoreboard has asked the broker (its push of that is the last until a click)
        wait_for(lambda: scoreboard.get("/api/waiting")["broker"]["anonymous"] is not None, "the broker asked")
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(f"http://127.0.0.1:{scoreboard.port}/director")
        items = page.locator(".waiting-item")
        sync_api.expect(items).to_have_count(5)
        sync_api.expect(page.locator("#anonymous")).to_be_visible()
        said = {item.locator("h3").inner_text().split(":")[0]: item.inner_text() for item in items.all()}
        assert sorted(said) == ["A late card", "A result still missing its inputs",
                                "A result that does not follow the rules", "A stranger's game", "Cards that differ"]
        stranger, unfollowed = said["A stranger's game"], said["A result that does not follow the rules"]
        late, differ = said["A late card"], said["Cards that differ"]
        missing = said["A result still missing its inputs"]
        assert "Board t3, round 1" in stranger and "seated there: Eve against Fay" in stranger
        assert "Board t2" in unfollowed and "where the board says a double skunk" in unfollowed
        assert "It never counts" in unfollowed and "Approve" not in unfollowed
        assert "Board t4" in missing and "the scoreboard has 0 of the 200 inputs" in missing
        assert "Approve" not in missing
        assert "Fay 95, Eve 121" in late and "never moves the bracket" in late
        assert "Hal's card: Hal 121, Gus 118" in differ and "Gus's card: Gus 121, Hal 100" in differ
        assert "Count Gus's card" in differ and "It counted until a card changed" in differ
        tie = page.locator("#tie").inner_text()
        assert "Ann, Cat, Gus were tied for 2 place(s)" in tie and "Through: Ann, Cat." in tie
        assert axe(page) == []
        keep(page, ARTEFACTS / "director.png", full_page=True)

        page.locator("#token").focus()  # by keyboard: the token, then the stranger's "Approve"
        page.keyboard.type("token-for-tests")
        page.keyboard.press("Tab")
        approve = items.filter(has_text="A stranger's game").get_by_role("button", name="Approve: it counts")
        approve.focus()
        page.keyboard.press("Enter")
        sync_api.expect(page.locator("#decided")).to_have_text("Approved: it counts.")
        sync_api.expect(items).to_have_count(4)
        assert "stranger" not in [item["reason"] for item in scoreboard.night.waiting()]

        for label, value in (("Round", "1"), ("Player", "Ann"), ("Opponent", "Cat"), ("Player's score", "121"),
                             ("Opponent's score", "90")):  # a card from a phone: a pair not seated
            page.get_by_label(label, exact=True).fill(value)
        page.get_by_role("button", name="Enter the card").press("Enter")
        sync_api.expect(page.locator("#answer")).to_have_text(  # the scoreboard's words, in the page's language
            "Ann and Cat were not seated together in round 1: Ann played Bob at table 1")

        page.goto(f"http://127.0.0.1:{scoreboard.port}/")  # the scoreboard says it too, and what waits
        sync_api.expect(page.locator("#waiting-link")).to_have_text("Director: 4 waiting", timeout=20_000)
        sync_api.expect(page.locator("#anonymous")).to_be_visible()
        sync_api.expect(page.locator("article.club-table", has_text="Table t2").locator(".flag")).to_have_text(
            "Not counted: this result does not follow from the board's inputs")
        keep(page, ARTEFACTS / "scoreboard-anonymous.png")
        page.locator("#waiting-link").click()
        page.wait_for_url("**/director")  # the director's page, before it is reloaded at a phone's width

        page.set_viewport_size({"width": 390, "height": 844})
        page.reload()
        sync_api.expect(items).to_have_count(4)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        assert axe(page) == []
        keep(page, ARTEFACTS / "director-390.png", full_page=True)
        url = page.url
        page = browser.new_page(viewport={"width": 390, "height": 844}, locale="de-DE")  # a German director
        page.goto(url)
        items = page.locator(".waiting-item")
        sync_api.expect(items).to_have_count(4)
        text = page.locator("body").inner_text()
        assert "Wartet auf Sie" in text and "Karten, die sich widersprechen" in text and "Eine späte Karte" in text
        assert [w for w in ("Waiting for you", "Reject", "Approve", "Enter a card", "Director's token",
                            "The broker takes") if w in text] == []
        assert axe(page) == []
        keep(page, ARTEFACTS / "director-de-390.png", full_page=True)
        browser.close()
    finally:
        scoreboard.stop()
        broker.stop()
