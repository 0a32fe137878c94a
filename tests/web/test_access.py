"""The pages as everyone uses them, in headless Chromium: whole games against the computer by keyboard alone, by
tapping on a phone's 390 px and in German; axe-core (from the npm registry) on every page; every control at
least 44 px on a phone. Screenshots are kept where CRIB_ARTEFACTS=DIR asks (DIR/web/)."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from companion.cribbage.cards import Card
from companion.i18n import language
from companion.play.computer import Settings
from companion.words.phrases import prompt_words
from tests.web.browsing import ARTEFACTS, CHROMIUM, NO_CHROMIUM, axe, controls_measured, small_controls
from tests.web.chromium import keep
from tests.web.running import Running, running_board

playwright = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason=NO_CHROMIUM)
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 1, "has_touch": True, "is_mobile": True}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
TABLE = ["#sides", "#count", "#played", "#hand", "#go"]  # what a player follows, always in view during the play


def out_of_view(page: Any, selectors: list[str]) -> list[str]:
    """The elements of `selectors` not wholly inside the viewport (with their boxes), without scrolling."""
    return list(page.evaluate("""(selectors) => selectors.flatMap((s) => [...document.querySelectorAll(s)]
        .filter((e) => e.offsetParent !== null).map((e) => [s, e.getBoundingClientRect()])
        .filter(([, b]) => b.top < 0 || b.left < 0 || b.bottom > innerHeight || b.right > innerWidth)
        .map(([s, b]) => `${s}: ${[b.left, b.top, b.right, b.bottom].map(Math.round).join(",")}`))""",
                              selectors))


def ring_contrast(page: Any, selector: str = ":focus") -> float:
    """The contrast of the outline of `selector` (the element in focus) with the nearest opaque background
    around it (WCAG's relative luminance)."""
    return float(page.evaluate("""(selector) => {
        const node = document.querySelector(selector);
        const rgb = (text) => text.match(/[\\d.]+/g).map(Number);
        const lum = ([r, g, b]) => [r, g, b].map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 :
            ((v + 0.055) / 1.055) ** 2.4; }).reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
        let around = node.parentElement;
        while (around && rgb(getComputedStyle(around).backgroundColor)[3] === 0) around = around.parentElement;
        const back = around ? rgb(getComputedStyle(around).backgroundColor) : [255, 255, 255];
        const [a, b] = [lum(rgb(getComputedStyle(node).outlineColor)), lum(back)];
        return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    }""", selector))


SAMPLE = Path(__file__).parents[1] / "data" / "games" / "two_121.jsonl"  # Ann beats Bob 121 to 104


def shows_state(page: Any, board: Running) -> bool:
    """Whether the page shows the table's latest state (every input taken so far)."""
    return page.evaluate("document.body.dataset.inputs") == str(len(board.table.state.inputs))


def play_whole_game(page: Any, board: Running, discard: Callable[[], None], move: Callable[[bool], None],
                    proceed: Callable[[], None] | None = None) -> int:
    """Play the person's part until the game is over: `discard()` when six cards are dealt, `move(go)` on the
    person's turn (go: no card fits), `proceed()` when the show waits (by default Continue is clicked). Returns
    the deals played."""
    deals = set()
    person = board.computer.settings.person if board.computer.settings else "Guest"
    for _ in range(1500):
        state = board.table.state
        if state.winner is not None:
            return len(deals)
        if not board.computer.idle or not shows_state(page, board):  # the computer's move first, then the page's
            page.wait_for_timeout(40)
            continue
        if board.computer.showing(state) is not None:
            playwright.expect(page.locator("#show-continue")).to_be_visible()
            (proceed or (lambda: page.click("#show-continue")))()
        elif (state.phase != "play" and person not in state.discards
              and page.evaluate("document.querySelectorAll('#hand .card.active').length") == 6):
            deals.add(state.deal_number)
            discard()
        elif state.phase == "play" and state.turn == person:
            move(not page.locator("#go").is_disabled())
        else:
            page.wait_for_timeout(40)
            continue
        page.wait_for_function(f"() => document.body.dataset.inputs !== '{len(state.inputs)}'", timeout=10_000)
    raise AssertionError(f"the game did not end: {prompt_words(board.table.state.awaited())}")


def focused(page: Any) -> str:
    return str(page.evaluate("(() => { const e = document.activeElement; "
                             "return e.id || e.dataset.card || e.tagName; })()"))


def test_a_whole_game_to_61_by_keyboard_alone(browser, tmp_path):
    settings = Settings("Guest", ("easy",), seed=61, target=61)
    with running_board(tmp_path, settings, move_seconds=0.01) as board:
        page = browser.new_page(**DESKTOP)
        errors: list[str] = []
        sockets: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("websocket", lambda socket: sockets.append(socket.url))
        page.goto(board.url)
        playwright.expect(page.locator("#hand .card.active")).to_have_count(6)
        assert out_of_view(page, [*TABLE, "#hand .card"]) == []
        for _ in range(40):  # Tab from the top of the page reaches the hand
            page.keyboard.press("Tab")
            if page.evaluate("!!document.activeElement.closest('#hand')"):
                break
        else:
            raise AssertionError("Tab never reaches the cards")
        outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
        assert outline == "solid", "the card in focus is not marked"
        assert ring_contrast(page) >= 3
        page.keyboard.press("ArrowRight")
        keep(page.locator("#you"), ARTEFACTS / "keyboard-focus.png")
        page.keyboard.press("ArrowLeft")

        def discard() -> None:
            first = focused(page)
            page.keyboard.press("Enter")
            assert ring_contrast(page, "#hand .card.chosen") >= 3, "the chosen card's outline"
            page.keyboard.press("ArrowRight")
            second = focused(page)
            assert second != first, "the arrows move along the hand"
            page.keyboard.press(" ")
            playwright.expect(page.locator("#hand .card")).to_have_count(4)
            assert {str(c) for c in board.table.state.discards["Guest"]} == {first, second}
            assert focused(page) != "BODY", "after laying away the keyboard stays at the hand"

        def move(go: bool) -> None:
            page.wait_for_function("() => document.activeElement.matches('#hand .card.active, #go:enabled')")
            if go:
                assert focused(page) == "go", "with no card that fits, the keyboard is on GO"
            else:
                state = board.table.state
                fits = {str(c) for c in state.held("Guest") if state.count + c.value <= 31}
                assert focused(page) in fits, "the keyboard is on a card that can be played"
            assert out_of_view(page, TABLE) == []
            if "play" not in checked and page.locator("#played .play.done").count():  # an earlier count greyed
                checked["play"] = axe(page)
            taken = len(board.table.state.inputs)
            page.keyboard.press("Enter")
            page.wait_for_function(f"() => document.body.dataset.inputs !== '{taken}'")
            assert focused(page) != "BODY", "after a card or GO the keyboard stays at the hand"

        def proceed() -> None:  # the show waits: Continue has the focus, in view with the hands, and Enter is OK
            playwright.expect(page.locator("#show-continue")).to_be_focused()
            assert out_of_view(page, ["#sides", "#show-continue", "#show .show-hand h3"]) == []
            assert ring_contrast(page) >= 3
            checked.setdefault("show", axe(page))
            page.keyboard.press("Enter")
            page.wait_for_function("() => !document.querySelector('#show-continue').offsetParent")
            assert focused(page) != "BODY", "after Continue the keyboard goes back to the hand"

        checked: dict[str, list[str]] = {}  # axe-core during the play and at the show
        deals = play_whole_game(page, board, discard, move, proceed)
        assert deals >= 2 and board.table.state.winner is not None
        assert checked == {"play": [], "show": []}, checked
        playwright.expect(page.locator("#sides")).to_contain_text("61")
        playwright.expect(page.locator("#play-again")).to_be_focused()  # no Tab to Play again
        assert ring_contrast(page) >= 3
        assert out_of_view(page, ["#sides", "#show-end", "#play-again"]) == []
        keep(page, ARTEFACTS / "keyboard-game-over.png")
        page.keyboard.press("Enter")
        playwright.expect(page.locator("#hand .card.active")).to_have_count(6)
        page.wait_for_function("() => document.activeElement !== document.body")
        assert page.evaluate("!!document.activeElement.closest('#you')"), "after Play again the keyboard is at the hand"
        browser.close()
        assert errors == []
        assert len(sockets) == 1, sockets  # one live connection for the page's scripts


def test_a_whole_game_to_61_on_a_phone_by_tapping(browser, tmp_path):
    settings = Settings("Guest", ("standard",), seed=39, target=61)
    with running_board(tmp_path, settings, move_seconds=0.01) as board:
        page = browser.new_page(**PHONE)
        page.goto(board.url)
        playwright.expect(page.locator("#hand .card.active")).to_have_count(6)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        assert out_of_view(page, [*TABLE, "#hand .card"]) == [], "the six cards and the table in view"
        page.locator("[data-entry=go]").tap()  # GO before laying away says what to do, and is not sent
        playwright.expect(page.locator("#message")).to_have_text("Lay away 2 cards first: choose them in your hand")
        playwright.expect(page.locator("#board svg")).to_be_visible()  # (drawn again as the message changes)
        board_box = page.locator("#board svg").bounding_box()
        assert board_box is not None and board_box["height"] >= 150  # the street in play, large enough to read
        tallest = page.evaluate("Math.min(...[...document.querySelectorAll('#board svg text')].map(t => "
                                "t.getBoundingClientRect()).filter(box => box.width).map(box => box.height))")
        assert tallest >= 10, f"the board's numbers are {tallest:.1f} px tall"
        shot = [False]

        def discard() -> None:
            page.locator("#hand .card.active").nth(0).tap()
            page.locator("#hand .card.active").nth(1).tap()

        def move(go: bool) -> None:
            assert out_of_view(page, TABLE) == []
            (page.locator("#go") if go else page.locator("#hand .card.active").first).tap()
            if not shot[0] and board.table.state.back_pegs and any(board.table.state.back_pegs.values()):
                page.wait_for_selector("#board circle.peg.back")
                ring = page.evaluate("getComputedStyle(document.querySelector('#board circle.peg.back')).strokeWidth")
                assert float(ring.removesuffix("px")) >= 1.4  # a back peg is a ring in its side's colour
                keep(page, ARTEFACTS / "phone-game.png")
                shot[0] = True

        def proceed() -> None:
            assert out_of_view(page, ["#sides", "#show-continue", "#show .show-cards .starter"]) == []
            page.locator("#show-continue").tap()

        play_whole_game(page, board, discard, move, proceed)
        assert board.table.state.winner is not None
        playwright.expect(page.locator("#sides")).to_contain_text("61")
        assert out_of_view(page, ["#play-again", "#show-end"]) == []
        page.goto(board.url + "stats")  # the game as the statistics name it, and its costliest discards as cards
        playwright.expect(page.locator("#game option").first).to_contain_text(" v Standard (standard) ")
        playwright.expect(page.locator("#players tbody tr")).to_have_count(2)
        page.wait_for_selector("#hands svg")
        laid = page.locator("#discards li").first
        if "Guest" in page.locator("#discards").inner_text():  # a perfect player's list stays empty
            assert laid.locator(".card").count() == 4  # two laid away, two the coach would have
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        assert axe(page) == [] and small_controls(page) == []
        keep(page, ARTEFACTS / "stats-after-a-game-390.png", full_page=True)
        browser.close()


def play_through(page: Any, board: Running, deals: int, turn: Callable[[], None],
                 show: Callable[[], None]) -> None:
    """Play the person's part through the first `deals` deals, tapping where the page has touch: the first cards
    to lay away, the first card that fits (else GO), Continue at the show; `turn()` before each play, `show()`
    before each Continue."""
    def press(control: Any) -> None:
        control.tap() if page.evaluate("navigator.maxTouchPoints > 0") else control.click()

    person = board.computer.settings.person if board.computer.settings else "Guest"
    for _ in range(800):
        state = board.table.state
        if state.deal_number > deals or state.winner is not None:
            return
        if not board.computer.idle or not shows_state(page, board):
            page.wait_for_timeout(40)
            continue
        if board.computer.showing(state) is not None:
            show()
            press(page.locator("#show-continue"))
        elif state.phase != "play" and person not in state.discards and \
                page.locator("#hand .card.active").count() == state.dealt_size:
            for _ in range(state.discard_size):
                press(page.locator("#hand .card.active:not(.chosen)").first)
        elif state.phase == "play" and state.turn == person:
            turn()
            go = not page.locator("#go").is_disabled()
            press(page.locator("#go") if go else page.locator("#hand .card.active").first)
        else:
            page.wait_for_timeout(40)
            continue
        page.wait_for_function(f"() => document.body.dataset.inputs !== '{len(state.inputs)}'")
    raise AssertionError("the deals did not end")


@pytest.mark.parametrize("screen", ["phone", "laptop"])
def test_four_at_the_table_the_hand_the_computers_cards_and_all_five_counted_stay_in_view(browser, tmp_path,
                                                                                         screen):
    """Three computer players (partners), in German: four names under the cards played, a crib and three hands
    face down, and still the person's cards and GO in view at each turn of two deals; at the show all five hands
    with their cards and phrases; without scrolling."""
    settings = Settings("Maximilianus", ("easy", "standard", "pro"), seed=12, target=61).named(language("de"))
    with running_board(tmp_path, settings, move_seconds=0.01) as board:
        page = browser.new_page(**(PHONE if screen == "phone" else DESKTOP), locale="de-DE")
        page.goto(board.url)
        turns, shows = [], []

        def turn() -> None:
            state = board.table.state
            turns.append((state.deal_number, len(state.played), out_of_view(page, [*TABLE, "#others"])))

        def show() -> None:
            playwright.expect(page.locator("#show .show-hand")).to_have_count(5)
            shows.append(out_of_view(page, ["#sides", "#show-continue", "#show .show-hand", "#show .show-said"]))
            keep(page, ARTEFACTS / f"{screen}-four-players-show.png")

        play_through(page, board, 2, turn, show)
        assert page.evaluate("scrollY") == 0
        keep(page, ARTEFACTS / f"{screen}-four-players.png")
        browser.close()
    assert {deal for deal, _, _ in turns} == {1, 2} and max(played for _, played, _ in turns) >= 12, turns
    assert [turn for turn in turns if turn[2]] == []
    assert shows and all(not out for out in shows), shows


@pytest.mark.parametrize("screen", ["phone", "laptop"])
def test_three_at_the_table_the_show_has_every_hand_and_the_crib_in_view(browser, tmp_path, screen):
    """Two computer players, in German: the show's four hands, each with its cards and its phrases, and Continue
    beside the heading (with the starter on a laptop), all on the screen without scrolling."""
    settings = Settings("Maximilianus", ("easy", "pro"), seed=14, target=61).named(language("de"))
    with running_board(tmp_path, settings, move_seconds=0.01) as board:
        page = browser.new_page(**(PHONE if screen == "phone" else DESKTOP), locale="de-DE")
        page.goto(board.url)
        shows = []

        def show() -> None:
            playwright.expect(page.locator("#show .show-hand")).to_have_count(4)
            shows.append(out_of_view(page, ["#sides", "#show-continue", "#show .show-hand", "#show .show-said"]))
            keep(page, ARTEFACTS / f"{screen}-three-players-show.png")

        play_through(page, board, 2, lambda: None, show)
        browser.close()
    assert shows and all(not out for out in shows), shows


def test_on_a_phone_undo_is_beside_the_hand_and_what_it_took_back_is_said_in_view(browser, tmp_path):
    """The person plays a card, the computer answers; "Undo the last" under the hand (UNDO is at the page's foot on
    a phone) takes back both, and the page says so where the person is looking, without scrolling."""
    with running_board(tmp_path, Settings("Maximilianus", ("pro",), seed=3, target=61), move_seconds=0.01) as board:
        page = browser.new_page(**PHONE)
        page.goto(board.url)
        page.locator("#hand .card.active").nth(0).tap()
        page.locator("#hand .card.active").nth(1).tap()

        def persons_turn(played: int) -> None:
            """Wait until `played` cards are on the table (a tap's request is on its way when tap() returns), the
            computer has answered and the page shows it."""
            for _ in range(200):
                if (len(board.table.state.played) == played and board.computer.idle
                        and board.table.state.turn == "Maximilianus"):
                    break
                page.wait_for_timeout(50)
            page.wait_for_function(f"() => document.body.dataset.inputs === '{len(board.table.state.inputs)}'")

        persons_turn(1)  # the computer leads
        opened = [str(card) for _, card in board.table.state.played]
        mine = page.locator("#hand .card.active").first.get_attribute("data-card")
        page.locator("#hand .card.active").first.tap()
        persons_turn(3)
        answer = str(board.table.state.played[-1][1])
        assert [str(card) for _, card in board.table.state.played] == [*opened, mine, answer]
        assert out_of_view(page, ["#you-undo"]) == []
        page.locator("#you-undo").tap()
        message = page.locator("#message")
        playwright.expect(message).to_have_text(f"Undone: Maximilianus's {pretty(mine)} and Pro's {pretty(answer)}")
        persons_turn(1)
        assert [str(card) for _, card in board.table.state.played] == opened
        playwright.expect(page.locator(f"#hand .card[data-card='{mine}']")).to_have_count(1)
        assert out_of_view(page, ["#message", "#hand"]) == [] and page.evaluate("scrollY") == 0
        assert small_controls(page) == []
        browser.close()


def pretty(code: str | None) -> str:
    return Card.parse(code or "").pretty


def test_axe_finds_nothing_and_every_control_is_44_px_on_every_page(browser, tmp_path):
    """The board (during the play, every panel open), the scoreboard, the statistics, a game's replay and the
    phone's scanner, at 1280 px and at a phone's 390 px."""
    (tmp_path / "games").mkdir()
    shutil.copy(SAMPLE, tmp_path / "games" / "0001.jsonl")  # a finished game: figures, charts, best hands
    settings = Settings("Guest", ("standard",), seed=21, target=61)
    with running_board(tmp_path, settings, move_seconds=0.01) as board:
        page = browser.new_page(**DESKTOP)
        page.goto(board.url)
        page.locator("#hand .card.active").nth(0).click()
        page.locator("#hand .card.active").nth(1).click()
        playwright.expect(page.locator("#starter .card")).to_have_count(1)
        page.wait_for_function("() => document.querySelector('#announce').textContent !== ''"
                               " || document.querySelectorAll('#said li').length === 0")
        found: dict[str, list[str]] = {}
        measured: dict[str, int] = {}
        for name, view in (("1280", page), ("390", browser.new_page(**PHONE))):  # the desktop's browser, a phone's
            # each page drawn from its data: what is drawn last (the board's pegs, the chart of hands, the race, the
            # scores from the snapshot)
            for path, drawn in (("", "#board svg"), ("scoreboard", "#board svg"), ("stats", "#hands svg"),
                                ("games/0001.jsonl/1", "#race svg"), ("scan", "#scan-sides > *")):
                view.goto(board.url + path)
                view.wait_for_selector(drawn, timeout=10_000)
                for details in view.locator("details").all():
                    details.evaluate("d => d.open = true")
                key = f"{path or 'board'} at {name}"
                found[key] = axe(view)
                if name == "390":
                    found[key + " (small)"] = small_controls(view)
                    measured[key] = controls_measured(view)
                    assert view.evaluate("document.documentElement.scrollWidth") <= 390, key
                keep(view, ARTEFACTS / f"{(path or 'board').split('/')[0]}-{name}.png", full_page=True)
            view.close()
        browser.close()
    assert all(not problems for problems in found.values()), {k: v for k, v in found.items() if v}
    assert measured["board at 390"] >= 55, measured  # the hand, GO, the menu, the keypad, the picker, the form


def test_the_board_announces_the_count_and_each_score_to_screen_readers(browser, tmp_path):
    settings = Settings("Guest", ("easy",), seed=8)
    with running_board(tmp_path, settings, move_seconds=0.01) as board:
        page = browser.new_page(**DESKTOP)
        page.goto(board.url)
        assert page.get_attribute("#announce", "aria-live") == "polite"
        page.locator("#hand .card.active").nth(0).click()
        page.locator("#hand .card.active").nth(1).click()
        heard: list[str] = []

        def hear(words: str) -> None:
            heard.append(words)

        page.expose_function("heard", hear)
        page.evaluate("new MutationObserver(() => heard(document.querySelector('#announce').textContent))"
                      ".observe(document.querySelector('#announce'), {childList: true, characterData: true, "
                      "subtree: true})")
        for _ in range(400):
            state = board.table.state
            if len(state.played) >= 4 or any(e.deal == 1 and e.kind.in_play for e in state.events):
                break
            if state.turn == "Guest" and shows_state(page, board) and board.computer.idle:
                (page.locator("#go") if not page.locator("#go").is_disabled()
                 else page.locator("#hand .card.active").first).click()
            page.wait_for_timeout(40)
        page.wait_for_function(f"() => document.body.dataset.inputs === '{len(board.table.state.inputs)}'")
        announced = page.evaluate("document.querySelector('#announce').textContent")
        for _ in range(500):  # the observer's last call has reached the test
            if heard[-1:] == [announced]:
                break
            page.wait_for_timeout(20)
        state = board.table.state
        assert any(f"count {state.count}" in words for words in heard), heard
        scores = [e for e in state.events if e.deal == state.deal_number]
        assert scores, "a score was pegged"
        totals: dict[object, int] = {}
        for event in state.events:
            totals[event.side] = totals.get(event.side, 0) + event.points
            if event.deal == state.deal_number:
                assert any(f"{event.player} pegs {event.points}" in words and f": {totals[event.side]}" in words
                           for words in heard), heard
        svg = page.get_attribute("#board svg", "aria-label") or ""
        assert "front peg" in svg and "back peg" in svg
        browser.close()


def test_a_whole_game_in_german_speaks_german_on_every_page(browser, speak, tmp_path):
    speak("de")
    settings = Settings("Gast", ("easy",), seed=77, target=61)
    with running_board(tmp_path, settings, move_seconds=0.01) as board:
        page = browser.new_page(**DESKTOP, locale="de-DE")  # the browser asks for German (Accept-Language)
        page.goto(board.url)
        assert page.get_attribute("html", "lang") == "de"
        playwright.expect(page.locator("#hand .card.active")).to_have_count(6)
        english = ["Lay away", "click", "Your hand", "NEW GAME", "Scores as said", "Statistics", "against",
                   "Keypad", "Card picker", "Start the game", "Computer players", "deals", "live", "Guest"]
        text = page.locator("body").inner_text()
        assert [w for w in english if w in text] == []
        playwright.expect(page.locator("select[name=level1] option[value=pro]")).to_have_text("Profi")  # the levels
        assert page.get_attribute("#hand .card >> nth=0", "aria-label").split(", ")[1].split()[0] in (
            "Kreuz", "Karo", "Herz", "Pik")
        assert axe(page) == []
        page.locator("#hand .card.active").nth(0).click()
        page.locator("#hand .card.active").nth(1).click()
        playwright.expect(page.locator("#starter .card")).to_have_count(1)
        keep(page, ARTEFACTS / "board-de.png", full_page=True)

        def discard() -> None:
            page.locator("#hand .card.active").nth(0).click()
            page.locator("#hand .card.active").nth(1).click()

        def move(go: bool) -> None:
            (page.locator("#go") if go else page.locator("#hand .card.active").first).click()

        play_whole_game(page, board, discard, move)
        playwright.expect(page.locator("#sides")).to_contain_text("61")
        assert [w for w in english if w in page.locator("body").inner_text()] == []
        keep(page, ARTEFACTS / "board-de-game-over.png", full_page=True)
        for path, drawn, words in (("stats", "#hands svg", ["Games finished", "Players", "given away", "Best hands",
                                                            "Score race", "Costliest"]),
                                   ("scoreboard", "#board svg", ["count ", "deals", "Scoreboard"]),
                                   ("games/0001.jsonl/1", "#race svg", ["previous deal", "Dealer", "Starter",
                                                                        "laid away", "deal 1", " won"])):
            page.goto(board.url + path)  # the same German browser opens each page
            page.wait_for_selector(drawn)  # the page has its data and has drawn it
            text = page.locator("body").inner_text()
            assert [w for w in words if w in text] == [], path
            assert axe(page) == [], path
            keep(page, ARTEFACTS / f"{path.split('/')[0]}-de.png", full_page=True)
        browser.close()


def test_the_live_region_tells_the_tables_story_with_running_totals(browser, tmp_path):
    """The story's facts (docs/architecture.md) as the snapshot carries them: the computer's card with the count
    it made, a score with what it was for and the side's total, a go."""
    with running_board(tmp_path, Settings("Guest", ("pro",), seed=5), move_seconds=0.01) as board:
        page = browser.new_page(**DESKTOP)
        page.goto(board.url)
        playwright.expect(page.locator("#hand .card.active")).to_have_count(6)
        said = page.evaluate("""() => {
            const region = document.createElement("p");
            const state = {sides: [{name: "Guest"}, {name: "Pro"}], phase: "play", count: 25, events: [], played: [],
                           deal: 1, game: 1};
            Crib.announce(region, {state, you: {person: "Guest"}, story: {count: 3, facts: []}});
            Crib.announce(region, {state, you: {person: "Guest"}, story: {count: 6, facts: [
                {n: 3, type: "go", player: "Pro"},
                {n: 4, type: "played", player: "Pro", card: {code: "KC", suit: "C"}, count: 25},
                {n: 5, type: "scored", kind: "pegging", side: 1, player: "Pro", points: 2, total: 34,
                 items: [{kind: "pair", cards: ["KD", "KC"], points: 2}]},
                {n: 6, type: "played", player: "Guest", card: {code: "5H", suit: "H"}, count: 30}]}});
            return region.textContent;
        }""")
        browser.close()
    assert said == "Pro plays K♣, king of clubs, count 25. Pro pegs 2 for a pair: 34"


@pytest.mark.skipif(not CHROMIUM.exists(), reason=NO_CHROMIUM)
def test_a_person_who_asked_for_less_motion_sees_no_flashing_pegs(browser):
    """The pegs flash when they score and celebrate a win; with the system's reduced motion they simply stand."""
    css = (Path(__file__).parents[2] / "companion/web/static/style.css").read_text(encoding="utf-8")
    html = (f"<style>{css}</style><svg class='board'><circle class='hole celebrate' r='3'/></svg>"
            "<p class='result ok flash'>5♠ entered</p>")
    seen = {}
    page = browser.new_page()
    for motion in ("no-preference", "reduce"):
        page.emulate_media(reduced_motion=motion)
        page.set_content(html)
        seen[motion] = page.evaluate("[...document.querySelectorAll('.celebrate, .flash')]"
                                     ".map(e => getComputedStyle(e).animationName)")
    assert seen == {"no-preference": ["flash", "scan-ok"], "reduce": ["none", "none"]}
