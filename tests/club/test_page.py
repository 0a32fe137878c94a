"""The scoreboard's page in headless Chromium (Debian's chromium, driven by Playwright): every table as the
boards themselves end, the standings, and a screenshot kept as a test artefact."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from companion.club.mosquitto import Mosquitto, wait_for
from tests.club.boards import SimBoard
from tests.club.scoreboard import CLUB, PLAYERS, Scoreboard, shows_final
from tests.facts import winner_of
from tests.web.browsing import axe

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run"]
ARTEFACTS = Path(os.environ.get("CRIB_ARTEFACTS", Path(__file__).parents[2] / "test-artefacts")) / "club"

sync_api = pytest.importorskip("playwright.sync_api")


def test_the_page_shows_every_table_as_the_boards_end_and_the_standings(tmp_path):
    broker = Mosquitto(tmp_path / "broker", CLUB, ["scoreboard", "t1", "t2"])
    broker.start()
    scoreboard = Scoreboard(broker, tmp_path / "night")
    boards = [SimBoard(b, tmp_path / b, broker.broker(b), CLUB, seed=20 + i, players=PLAYERS[i])
              for i, b in enumerate(["t1", "t2"])]
    try:
        with sync_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.goto(f"http://127.0.0.1:{scoreboard.port}/")
            boards[0].play()
            boards[1].play(25)
            wait_for(lambda: shows_final(scoreboard, boards), "the boards' states at the scoreboard")
            for board in boards:  # the page shows what the boards show: each side's score, pushed live
                final = board.final()
                card = page.locator("article.club-table", has_text=f"Table {board.board}")
                for side in final["sides"]:
                    row = card.locator(".side-row", has_text=side["name"])
                    sync_api.expect(row.locator(".score")).to_have_text(str(side["score"]))
                sync_api.expect(card.locator(".club-prompt")).to_have_text(final["prompt"])
            winner = winner_of(boards[0].final())
            assert winner is not None
            sync_api.expect(page.locator("#standings tbody tr").first).to_contain_text(winner)
            ARTEFACTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(ARTEFACTS / "scoreboard.png"))
            assert axe(page) == []
            page = browser.new_page(viewport={"width": 390, "height": 844}, locale="de-DE")  # a German browser:
            page.goto(f"http://127.0.0.1:{scoreboard.port}/")  # the page's words and the script's in German
            sync_api.expect(page.locator("article.club-table").first).to_contain_text("Tisch")
            text = page.locator("body").inner_text()
            assert "Clubabend" in text and "Tabelle" in text
            assert [w for w in ("Club night", "Standings", "Table ", "Round", "live", "game over") if w in text] == []
            assert axe(page) == []
            assert page.evaluate("document.documentElement.scrollWidth") <= 390
            page.screenshot(path=str(ARTEFACTS / "scoreboard-de-390.png"), full_page=True)
            browser.close()
    finally:
        for board in boards:
            board.publisher.close()
        scoreboard.stop()
        broker.stop()
