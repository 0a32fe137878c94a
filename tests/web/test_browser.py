"""A whole deal against the computer played by clicking in headless Chromium (Debian's chromium, driven by
Playwright), checked against the engine: the board's pegs, the count and the scores; the page reloaded
mid-deal; screenshots of the board, the scoreboard and the statistics kept where CRIB_ARTEFACTS asks."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from companion.play.computer import Settings
from companion.words.count import say
from companion.words.phrases import prompt_words
from tests.facts import by_name, label, name
from tests.web.chromium import ARTEFACTS, CHROMIUM, keep
from tests.web.running import running_board

playwright = pytest.importorskip("playwright.sync_api")


def page_scores(page) -> dict[str, int]:
    return {side.get_attribute("data-side"): int(side.locator(".score").inner_text())
            for side in page.locator(".big-side").all()}


def lit_holes(page) -> dict[int, str]:
    """The holes the page shows lit, by LED, with their fill."""
    found = page.eval_on_selector_all("svg.board circle.peg", "els => els.map(e => [e.id, e.style.fill])")
    return {int(led.removeprefix("led-")): fill for led, fill in found}


def rgb(hex_colour: str) -> str:
    r, g, b = (int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    return f"rgb({r}, {g}, {b})"


def engine_lit(table) -> dict[int, str]:
    from companion.view.pegs import FINISH, MARKER

    return {led: rgb("#{:02x}{:02x}{:02x}".format(*c)) for led, c in enumerate(table.picture.frame)
            if c != (0, 0, 0) and c not in (MARKER, FINISH)}


@pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed (dev.py test installs it)")
def test_a_whole_deal_against_the_computer_by_clicking(browser, tmp_path):
    settings = Settings("Guest", ("standard",), seed=21, feedback=True)
    with running_board(tmp_path, settings, move_seconds=0.05) as board:
        table = board.table
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(board.url)
        hand = page.locator("#hand .card.active")
        playwright.expect(hand).to_have_count(6)
        cards = [c.get_attribute("data-card") for c in hand.all()]
        hand.nth(0).click()
        hand.nth(1).click()
        playwright.expect(page.locator("#starter .card")).to_have_count(1)
        assert table.state.discards["Guest"] == tuple(sorted(table.state.discards["Guest"]))  # asc: first two
        assert {str(c) for c in table.state.discards["Guest"]} == set(cards[:2])
        playwright.expect(page.locator("#feedback")).not_to_be_empty()
        reloaded = False
        deal = table.state.deal_number
        for _ in range(400):
            state = table.state
            if state.deal_number != deal or state.phase != "play":
                break
            page.wait_for_function(f"() => Number(document.body.dataset.inputs) >= {len(state.inputs)}")
            if state.turn != "Guest" or table.state is not state \
                    or page.evaluate("document.body.dataset.inputs") != str(len(state.inputs)):  # shown: the state
                page.wait_for_timeout(50)
                continue
            playwright.expect(page.locator("#count")).to_have_text(str(state.count))
            if not page.locator("#go").is_disabled():
                assert all(state.count + c.value > 31 for c in state.held("Guest"))
                page.locator("#go").click()
            else:
                playable = page.locator("#hand .card.active")
                code = playable.first.get_attribute("data-card")
                assert state.count + next(c for c in state.held("Guest") if str(c) == code).value <= 31
                playable.first.click()
                if not reloaded and len(table.state.played) >= 3:
                    page.reload()  # mid-deal: the page comes back with the same deal
                    playwright.expect(page.locator("#starter .card")).to_have_attribute(
                        "data-card", str(table.state.starter))
                    reloaded = True
            page.wait_for_function(f"() => document.body.dataset.inputs !== '{len(state.inputs)}'")
        assert reloaded
        page.wait_for_function(f"() => document.querySelector('#sides').textContent.includes("
                               f"'Guest {table.state.score('Guest')}')", timeout=10_000)
        state = table.state
        assert state.deal_number == deal + 1, prompt_words(state.awaited())  # the whole deal was played and counted
        shown = page.locator("#said li").all_inner_texts()
        said = [e for e in state.events if e.deal == deal]
        for event in said:
            who = label(event) if event.kind.in_show else event.player  # as a player says it: who, the count
            assert any(line.startswith(f"{who}: ") and say(event.score) in line for line in shown)
        page.wait_for_function("() => document.querySelectorAll('svg.board circle.peg').length >= 4")
        assert lit_holes(page) == engine_lit(table)
        for side in state.sides:
            assert f"{name(side)} {state.scores[side]}" in page.locator("#sides").inner_text()
        page.wait_for_function("() => !document.querySelector('svg.board .hole.walk, svg.board .hole.flash, "
                               "svg.board .hole.celebrate')")  # the flashes and walks of the last scores ended
        keep(page, ARTEFACTS / "board.png", full_page=True)
        page.set_viewport_size({"width": 1280, "height": 720})  # the same browser opens the other pages
        page.goto(board.url + "scoreboard")
        page.wait_for_selector(".big-side")
        assert page_scores(page) == by_name(state.scores)
        keep(page, ARTEFACTS / "scoreboard.png")
        page.set_viewport_size({"width": 1200, "height": 1100})
        page.goto(board.url + "stats")
        playwright.expect(page.locator("#players tbody tr")).to_have_count(2)
        page.wait_for_selector("#race svg")
        page.wait_for_selector("#hands svg")
        keep(page, ARTEFACTS / "stats.png", full_page=True)
        browser.close()
        assert errors == []
    if os.environ.get("CRIB_README_IMAGES"):
        for page_name in ("board", "scoreboard", "stats"):
            shutil.copy(ARTEFACTS / f"{page_name}.png",
                        Path(__file__).parents[2] / "docs" / "images" / f"web-{page_name}.png")


@pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed (dev.py test installs it)")
def test_the_page_reconnects_by_itself_after_the_daemon_restarts_and_shows_the_resumed_game(browser, tmp_path):
    settings = Settings("Guest", ("easy",), seed=30)
    page = browser.new_page()
    with running_board(tmp_path, settings) as board:
        port = int(board.url.rsplit(":", 1)[1].strip("/"))
        page.goto(board.url)
        playwright.expect(page.locator("#hand .card.active")).to_have_count(6)
        hand = page.locator("#hand .card").evaluate_all("cards => cards.map(c => c.dataset.card)")
        playwright.expect(page.locator("#link")).to_have_text("live")
    playwright.expect(page.locator("#link")).to_have_text("reconnecting…")
    with running_board(tmp_path, port=port) as again:
        assert again.computer.settings == settings  # the game resumed from its log
        playwright.expect(page.locator("#link")).to_have_text("live", timeout=10_000)
        playwright.expect(page.locator("#hand .card.active")).to_have_count(6)
        assert page.locator("#hand .card").evaluate_all("cards => cards.map(c => c.dataset.card)") == hand
        chosen = [page.locator("#hand .card.active").nth(i).get_attribute("data-card") for i in (2, 3)]
        page.locator("#hand .card.active").nth(2).click()
        page.locator("#hand .card.active").nth(3).click()
        playwright.expect(page.locator("#starter .card")).to_have_count(1)
        assert [str(c) for c in again.table.state.discards["Guest"]] == chosen
    browser.close()


@pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed (dev.py test installs it)")
def test_on_a_real_board_the_page_asks_for_the_token_once_and_keeps_it(browser, tmp_path):
    with running_board(tmp_path, Settings("Guest", ("easy",), seed=2), token="c0ffee42") as board:
        page = browser.new_page()
        page.goto(board.url)
        playwright.expect(page.locator("#locked")).to_be_visible()
        page.fill("#token", "wrong")
        page.click("#token-send")
        playwright.expect(page.locator("#token-problem")).to_contain_text("control token")
        playwright.expect(page.locator("#hand .card")).to_have_count(6)  # watching needs no token
        page.fill("#token", "c0ffee42")
        page.click("#token-send")
        playwright.expect(page.locator("#locked")).to_be_hidden()
        page.reload()  # kept by the page: not asked again
        playwright.expect(page.locator("#hand .card.active")).to_have_count(6)
        playwright.expect(page.locator("#locked")).to_be_hidden()
        page.locator("#hand .card.active").nth(0).click()
        page.locator("#hand .card.active").nth(1).click()
        playwright.expect(page.locator("#starter .card")).to_have_count(1)
        assert "Guest" in board.table.state.discards
        browser.close()


@pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed (dev.py test installs it)")
def test_two_browsers_watching_the_same_game_see_the_same_updates(browser, tmp_path):
    with running_board(tmp_path, Settings("Guest", ("standard",), seed=13)) as board:
        player, watcher = browser.new_page(), browser.new_page()  # two profiles, as two browsers
        player.goto(board.url)
        watcher.goto(board.url + "scoreboard")
        playwright.expect(player.locator("#hand .card.active")).to_have_count(6)
        player.locator("#hand .card.active").nth(0).click()
        player.locator("#hand .card.active").nth(1).click()
        playwright.expect(player.locator("#starter .card")).to_have_count(1)
        for _ in range(200):  # the person plays until four cards are down
            state = board.table.state
            if len(state.played) >= 4 or state.phase != "play":
                break
            shows = player.evaluate("document.body.dataset.inputs")
            if state.turn != "Guest" or shows != str(len(state.inputs)):
                player.wait_for_timeout(50)
                continue
            move = player.locator("#go") if not player.locator("#go").is_disabled() else \
                player.locator("#hand .card.active").first
            move.click()
            player.wait_for_function(f"() => document.body.dataset.inputs !== '{len(state.inputs)}'")
        for _ in range(200):  # the computer answers, then waits for the person
            if board.computer.idle:
                break
            player.wait_for_timeout(50)
        state = board.table.state
        for page in (player, watcher):
            page.wait_for_function(f"() => document.body.dataset.inputs === '{len(state.inputs)}'")
        for page in (player, watcher):
            playwright.expect(page.locator("#board svg circle.peg")).to_have_count(len(engine_lit(board.table)))
        assert lit_holes(player) == lit_holes(watcher) == engine_lit(board.table)
        playwright.expect(watcher.locator("#status")).to_contain_text(f"count {state.count}")
        assert page_scores(watcher) == by_name(state.scores)
        browser.close()


@pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed (dev.py test installs it)")
def test_a_new_game_from_the_page_offers_the_game_on_the_table_and_says_in_german_why_a_bigger_one_does_not_fit(
        browser, tmp_path):
    """`crib play --target 61` puts its game on the 61-hole board for two: the page's form offers a new game to 61
    under the person's name; three sides on it are refused beside the form, in the page's German, which stays open
    to change them; then the new game is dealt."""
    with running_board(tmp_path, Settings("Maximilianus", ("easy",), seed=6, target=61)) as board:
        assert board.table.layout.name == "two-track-61"
        page = browser.new_page(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True,
                                locale="de-DE")
        page.goto(board.url)
        playwright.expect(page.locator("#hand .card.active")).to_have_count(6)
        page.locator("#new-game summary").tap()
        form = page.locator("#computer-form")
        playwright.expect(form.locator("input[name=person]")).to_have_value("Maximilianus")
        playwright.expect(form.locator("select[name=target]")).to_have_value("61")
        form.locator("select[name=level1]").select_option("pro")
        form.locator("select[name=level2]").select_option("easy")  # three sides: a track too many
        page.locator("#start-computer").tap()
        problem = page.locator("#computer-problem")
        playwright.expect(problem).to_have_text("dieses Brett (two-track-61) hat 2 Bahnen, eine für jeden Spieler "
                                                "oder jedes Team, und Löcher bis 61: wähle weniger Computerspieler "
                                                "oder ein Spiel bis 61")
        playwright.expect(page.locator("#new-game")).to_have_attribute("open", "")
        assert problem.evaluate("e => { const b = e.getBoundingClientRect(); return b.top >= 0 && "
                                "b.bottom <= innerHeight + 1; }"), "the refusal is where the person is looking"
        form.locator("select[name=level2]").select_option("")
        page.locator("#start-computer").tap()
        playwright.expect(page.locator("#you-name")).to_have_text("Maximilianus gegen Profi")
        playwright.expect(page.locator("#hand .card.active")).to_have_count(6)
        playwright.expect(problem).to_be_empty()
        assert page.locator("#new-game").get_attribute("open") is None
        assert board.table.state.target == 61 and board.computer.settings.levels == ("pro",)
        browser.close()


@pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed (dev.py test installs it)")
def test_the_computers_cards_are_shown_face_down_in_the_play_and_its_name_never_alone(browser, tmp_path):
    with running_board(tmp_path, Settings("Guest", ("pro",), seed=3, target=61), move_seconds=0.01) as board:
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(board.url)
        playwright.expect(page.locator("#hand .card.active")).to_have_count(6)
        others = page.locator("#others")
        playwright.expect(others).to_be_empty()  # dealt: no name beside nothing
        page.locator("#hand .card.active").nth(0).click()
        page.locator("#hand .card.active").nth(1).click()
        playwright.expect(page.locator("#starter .card")).to_have_count(1)
        for _ in range(200):  # the computer has played its card and waits for the person
            if board.computer.idle and board.table.state.turn == "Guest":
                break
            page.wait_for_timeout(50)
        page.wait_for_function(f"() => document.body.dataset.inputs === '{len(board.table.state.inputs)}'")
        left = board.table.state.cards_left("Pro")
        assert 0 < left < 4
        playwright.expect(others.locator(".row")).to_have_text("Pro")
        playwright.expect(others.locator(".card.back")).to_have_count(left)
        browser.close()


@pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed (dev.py test installs it)")
def test_what_the_page_tells_the_person_stays_while_the_computer_lays_away(browser, tmp_path):
    """GO tapped before laying away says what to do; the computer laying away its own cards a moment later
    leaves the words there, and the person's next move takes them away."""
    with running_board(tmp_path, Settings("Guest", ("easy",), seed=2), move_seconds=3.0) as board:
        page = browser.new_page()
        page.goto(board.url)
        playwright.expect(page.locator("#hand .card.active")).to_have_count(6)
        assert "Easy" not in board.table.state.discards
        page.locator("[data-entry=go]").click()
        message = page.locator("#message")
        playwright.expect(message).to_have_text("Lay away 2 cards first: choose them in your hand")
        playwright.expect(page.locator("#crib .card.back")).to_have_count(2, timeout=10_000)  # the computer's two
        assert "Easy" in board.table.state.discards
        playwright.expect(message).to_have_text("Lay away 2 cards first: choose them in your hand")
        page.locator("#hand .card.active").nth(0).click()
        page.locator("#hand .card.active").nth(1).click()
        playwright.expect(page.locator("#starter .card")).to_have_count(1)
        playwright.expect(message).not_to_have_text("Lay away 2 cards first: choose them in your hand")
        browser.close()


@pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed (dev.py test installs it)")
def test_the_oled_pictures_words_are_read_out_whole_to_a_screen_reader(browser, tmp_path):
    """The OLED's picture shows a long prompt a page at a time; its text alternative has the screen's lines and
    the whole prompt."""
    with running_board(tmp_path, Settings("Maximilianus", ("pro",), seed=3, target=61), move_seconds=0.01) as board:
        page = browser.new_page()
        page.goto(board.url)
        page.locator("#hand .card.active").nth(0).click()
        page.locator("#hand .card.active").nth(1).click()
        for _ in range(200):  # the computer has played and waits for the person
            if board.computer.idle and board.table.state.turn == "Maximilianus":
                break
            page.wait_for_timeout(50)
        state = board.table.state
        page.wait_for_function(f"() => document.body.dataset.inputs === '{len(state.inputs)}'")
        (played,) = (card.pretty for _, card in state.played)
        starter = state.starter.pretty
        alt = page.get_attribute("#oled", "alt")
        browser.close()
    assert alt == (f"the board's screen: Pro {played}: {state.count}  Starter {starter}; {played}; "
                   f"Pro cuts: the starter is {starter}. Your turn: the count is {state.count}"), alt


@pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed (dev.py test installs it)")
def test_with_muggins_the_hand_and_the_crib_to_claim_are_shown_face_up_with_the_starter(browser, tmp_path):
    """Muggins against the computer: the person claims their hand, then their crib (they deal): each is laid out
    face up under "Your hand" with the starter, the hint says which, and the keyboard is in the count's box."""
    with running_board(tmp_path, Settings("Maximilianus", ("pro",), seed=3, target=61, muggins=True),
                       move_seconds=0.01) as board:
        page = browser.new_page(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
        page.goto(board.url)
        page.locator("#hand .card.active").nth(0).tap()
        page.locator("#hand .card.active").nth(1).tap()
        asked: list[tuple[str, list[str], str]] = []
        for _ in range(400):
            state = board.table.state
            if len(asked) == 2 or state.deal_number > 1:
                break
            if not board.computer.idle or page.evaluate("document.body.dataset.inputs") != str(len(state.inputs)):
                page.wait_for_timeout(40)
                continue
            if state.phase == "claim" and state.counts[0][1] == "Maximilianus":
                kind = state.counts[0][0]
                cards = state.crib if kind == "crib" else state.played_by("Maximilianus")
                assert state.starter is not None and cards is not None
                playwright.expect(page.locator("#hand .card")).to_have_count(5)
                shown = page.eval_on_selector_all("#hand .card", "cards => cards.map(c => c.dataset.card)")
                assert sorted(shown[:4]) == sorted(str(c) for c in cards) and shown[4] == str(state.starter)
                assert page.locator("#hand .card.starter").count() == 1 and page.locator("#hand .idle").count() == 0
                assert page.evaluate("document.activeElement.id") == "claim"
                # as when the last card was a Go: the page drawn again with focus lost keeps it in the count's box
                page.evaluate("""() => {
                    document.getElementById("go").disabled = false;
                    document.activeElement.blur();
                    document.getElementById("sort").dispatchEvent(new Event("change"));
                }""")
                assert page.evaluate("document.activeElement.id") == "claim"
                asked.append((kind, shown, page.locator("#you-hint").inner_text()))
                page.locator("#claim").fill("0")
                page.locator("#claim-send").tap()
            elif state.phase == "play" and state.turn == "Maximilianus":
                go = not page.locator("#go").is_disabled()
                (page.locator("#go") if go else page.locator("#hand .card.active").first).tap()
            else:
                page.wait_for_timeout(40)
                continue
            page.wait_for_function(f"() => document.body.dataset.inputs !== '{len(state.inputs)}'")
        browser.close()
    assert [(kind, hint) for kind, _, hint in asked] == [
        ("hand", "Count your hand and claim it: the computer takes what you miss"),
        ("crib", "Count your crib and claim it: the computer takes what you miss")]
