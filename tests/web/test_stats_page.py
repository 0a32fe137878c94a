"""The statistics page finds a game as a player remembers it: it opens on the latest finished game (not a newer
one under way), names each game by its day and minute, players, final scores and skunk, and the legend of
"Hands by score" shows the colours of its bars (headless Chromium)."""

from __future__ import annotations

import os
from datetime import datetime

import pytest

from companion.cribbage.cards import Card
from companion.cribbage.transcript import GameInput, PegInput, PlayInput, StarterInput
from tests.game_logs import copy_sample, write_log
from tests.web.chromium import ARTEFACTS, CHROMIUM, keep
from tests.web.running import running_board

playwright = pytest.importorskip("playwright.sync_api")


@pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed (dev.py test installs it)")
def test_the_statistics_open_on_the_latest_finished_game_named_so_it_can_be_told_apart(browser, tmp_path):
    copy_sample(tmp_path, 1)  # Ann beats Bob 121 to 104
    write_log(tmp_path, 2, [GameInput(("Cat", "Bob"), dealer="Cat"), PegInput("Bob", 80), PegInput("Cat", 121)])
    write_log(tmp_path, 3, [GameInput(("Ann", "Bob"), dealer="Ann"), StarterInput(Card.parse("9H")),
                            PlayInput(Card.parse("KS"))])  # newer, under way at 0-0 in its first deal
    for number, minute in ((1, 0), (2, 5), (3, 9)):
        when = datetime(2026, 3, 14, 20, minute).timestamp()
        os.utime(tmp_path / "games" / f"{number:04d}.jsonl", (when, when))
    with running_board(tmp_path, setup=GameInput(("Ann", "Bob"))) as board:
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(board.url + "stats")
        options = page.locator("#game option")
        playwright.expect(options).to_have_count(3)
        names = options.all_inner_texts()
        assert names[0].endswith("Ann 0 v Bob 0 (under way)") and "8:09" in names[0]
        assert names[1].endswith("Cat 121 v Bob 80 (a skunk): Cat won") and "8:05" in names[1]
        assert names[2].endswith("Ann 121 v Bob 104: Ann won") and "8:00" in names[2]
        selected = page.eval_on_selector("#game", "s => s.options[s.selectedIndex].textContent")
        assert selected == names[1]  # the latest finished game, not the newer one under way
        assert "Cat 121" in page.locator("#race svg").get_attribute("aria-label")
        page.wait_for_selector("#hands svg rect.key")
        keys = page.eval_on_selector_all("#hands rect.key", "rs => rs.map(r => getComputedStyle(r).fill)")
        bars = page.eval_on_selector_all("#hands rect:not(.key)",
                                         "rs => rs.slice(0, 2).map(r => getComputedStyle(r).fill)")
        assert keys == bars and len(set(keys)) == 2  # the player's bars and all hands', each square as its bars
        keep(page.locator("#hands"), ARTEFACTS / "stats-hands-legend.png")
        keep(page, ARTEFACTS / "stats-latest-finished.png")
        browser.close()
    assert errors == []
