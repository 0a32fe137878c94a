"""The show of a game against the computer: the virtual deck waits after each show until the person says ok
(page's Continue, Enter, the keypad's OK, typed ok), and shows it again after a restart; the terminal shows it
as said; the person is spoken to as "you" and never asked to scan."""

from __future__ import annotations

import io
import random

import pytest

from companion.base.clock import ManualClock
from companion.boards import load_layout
from companion.commands.play import TerminalPlay, show_picture
from companion.cribbage.transcript import GameInput
from companion.devices.base import Entry
from companion.gamelog import GameLog
from companion.i18n import language
from companion.play.computer import Settings
from companion.play.present import person_prompt, show_view
from companion.table import Table
from companion.web.snapshot import snapshot
from companion.words.projection import state_json
from tests.golden import assert_golden_text
from tests.web.computer_games import Game, play_out


def to_the_first_show(game: Game, seed: int = 1) -> int:
    """The person plays at random until the first deal's show waits; the deal shown."""
    rng = random.Random(seed)
    for _ in range(200):
        game.settle()
        shown = game.computer.showing(game.table.state)
        if shown is not None:
            return shown
        game.person_moves(rng)
    raise AssertionError("no show")


def test_the_deck_deals_again_only_after_the_person_says_ok(tmp_path):
    game = Game(tmp_path, Settings("Guest", ("standard",), seed=4))
    assert to_the_first_show(game) == 1
    state = game.table.state
    for _ in range(20):  # time passes: nothing of the next deal comes
        game.step()
    assert game.table.state is state and state.hands == {} and state.deal_number == 2
    assert person_prompt(game.table, game.computer, language("en")) == "The show: Continue (OK) deals the next hand"
    game.table.emit(Entry("5H", "web"))  # a card now is not a starter: the deck turns it
    game.step()
    assert game.outcomes[-1].error and "virtual deck" in game.outcomes[-1].words()
    assert game.table.state is state
    game.table.emit(Entry("ok", "web keypad"))  # the keypad's OK (the page's Continue and Enter send ok too)
    game.settle()
    assert game.computer.showing(game.table.state) is None
    assert len(game.table.state.hands) == 2  # dealt


def test_the_show_is_shown_again_after_a_restart(tmp_path):
    game = Game(tmp_path, Settings("Guest", ("easy",), seed=8))
    to_the_first_show(game)
    again = Game(tmp_path, Settings("Guest", ("easy",), seed=8), resume=True)
    again.settle()
    assert again.computer.showing(again.table.state) == 1
    assert again.table.state.hands == {}
    again.table.emit(Entry("ok", "terminal"))
    again.settle()
    assert again.table.state.hands


def test_the_snapshot_carries_the_show_in_counting_order_with_each_count_as_said(tmp_path):
    game = Game(tmp_path, Settings("Guest", ("pro",), seed=12))
    deal = to_the_first_show(game)
    shot = snapshot(game.table, game.computer)
    show = shot["you"]["show"]
    assert (show["deal"], show["waiting"], show["over"], show["next"]) == (deal, True, False, "ok")
    record = shot["state"]["deals"][deal - 1]
    assert [hand["counted"] for hand in show["hands"]] == record["show"]  # the presenter's show is the deal's
    assert (show["starter"], show["dealer"], show["sides"]) == (record["starter"], record["dealer"],
                                                                shot["state"]["sides"])
    dealer = record["dealer"]
    pone = "Pro" if dealer == "Guest" else "Guest"
    assert [(i["kind"], i["player"]) for i in record["show"]] == [("hand", pone), ("hand", dealer), ("crib", dealer)]
    events = shot["state"]["events"]
    for item in record["show"]:
        assert len(item["cards"]) == 4
        event = events[item["event"]]
        assert (event["kind"], event["player"], event["points"]) == (item["kind"], item["player"], item["points"])
        assert item["total"] == event["total"] == sum(i["points"] for i in event["items"])
        said = ", ".join(item["said"])
        assert said == (event["said"] if item["total"] else "nineteen: nothing to count")
    assert record["starter"]["code"] == str(game.table.state.deals[0].starter)


def test_the_person_is_you_and_the_computer_cuts(tmp_path):
    game = Game(tmp_path, Settings("Guest", ("pro",), seed=3))
    game.settle()
    state = game.table.state
    prompt = game.table.prompt()
    assert "Scan" not in prompt and "scan" not in prompt
    assert prompt in ("Lay away two cards to your crib", "Lay away two cards to Pro's crib")
    game.person_moves(random.Random(1))
    game.settle()
    state = game.table.state
    prompt = game.table.prompt()
    cutter = "You cut" if state.dealer == "Pro" else "Pro cuts"
    assert prompt.startswith(f"{cutter}: the starter is {state.starter.pretty}. ")
    if state.turn == "Guest":
        assert prompt.endswith(f"Your turn: the count is {state.count}")


def test_the_terminal_shows_the_show_and_ok_goes_on(tmp_path):
    game = Game(tmp_path, Settings("Guest", ("standard",), seed=4))
    deal = to_the_first_show(game)
    out = io.StringIO()
    terminal = TerminalPlay(game.computer, stream=io.StringIO(), out=out)
    terminal.start(game.table.emit)
    picture = terminal.picture()
    record = state_json(game.table.state)["deals"][deal - 1]
    assert f"== The show of deal {deal} ==" in picture and record["starter"]["pretty"] in picture
    for item in record["show"]:
        assert f"{item['name']}: {' '.join(c['pretty'] for c in item['cards'])}" in picture
        assert f"= {item['total']}" in picture
    assert picture.splitlines()[-1] == "> Type ok (or press Enter) for the next deal"
    assert all(len(line) <= 80 for line in picture.splitlines()) and len(picture.splitlines()) <= 22
    terminal.line("\n")  # Enter alone
    game.settle()
    assert game.table.state.hands


def test_the_terminal_show_as_golden_text(tmp_path):
    game = Game(tmp_path, Settings("Guest", ("pro",), seed=12))
    deal = to_the_first_show(game)
    terminal = TerminalPlay(game.computer, stream=io.StringIO(), out=io.StringIO())
    assert_golden_text(terminal.picture() + "\n", "terminal-show")
    assert deal == 1


def test_at_the_game_end_every_hand_shows_its_full_count_and_the_winner_what_it_needed(tmp_path):
    table = Table(GameLog.open(tmp_path / "0001.jsonl"), setup=GameInput(("Ann", "Bob"), dealer="Ann"),
                  layout=load_layout("two-track-121"), clock=ManualClock())
    for text in ["5S", "peg Bob 100", "JS", "4C", "5C", "6C", "5D", "go", "go", "4D", "5H", "6H", "AH"]:
        table.emit(Entry(text, "terminal"))
        list(table.drain())
    assert table.state.winner is not None
    state = state_json(table.state)
    show = state["deals"][0]["show"]
    assert [(i["player"], i["total"], i["points"]) for i in show] == [("Bob", 29, 20), ("Ann", 24, None)]
    show = show_view(state, 1, waiting=False)
    assert [hand.note for hand in show.hands] == ["needed", "not_counted"] and show.next == "again"
    picture = show_picture(show, table.prompt())
    assert "Bob's hand: J♠ 5♣ 5♦ 5♥ + 5♠  = 29  (needed 20)" in picture
    assert "Ann's hand: 4♣ 6♣ 4♦ 6♥ + 5♠  = 24  (not counted: the game was over)" in picture
    assert_golden_text(picture + "\n", "terminal-show-game-end")


def test_at_the_game_end_the_terminal_shows_the_last_show_and_again_plays_again(tmp_path):
    settings = Settings("Guest", ("easy",), target=61, seed=5)
    game = Game(tmp_path, settings)
    play_out(game, 2)
    terminal = TerminalPlay(game.computer, stream=io.StringIO(), out=io.StringIO())
    terminal.start(game.table.emit)
    picture = terminal.picture()
    assert "== The show and the game's end ==" in picture
    assert picture.splitlines()[-2] == f"> {game.table.prompt()}" and "win" in picture.splitlines()[-2]
    assert picture.splitlines()[-1] == "Type again to play again with the same settings"
    old = game.table.log.path
    terminal.line("again\n")
    game.settle()
    assert game.table.log.path != old and game.table.state.winner is None
    again = game.computer.settings
    assert again is not None and again.seed != settings.seed
    assert (again.person, again.levels, again.target, again.match) == ("Guest", ("easy",), 61, 1)


def test_a_game_won_by_pegs_before_the_starter_still_ends_with_play_again(tmp_path):
    game = Game(tmp_path, Settings("Guest", ("easy",), target=61, seed=5))
    game.settle()
    game.table.emit(Entry("peg Guest 61", "terminal"))
    game.settle()
    assert game.table.state.winner is not None
    assert snapshot(game.table, game.computer)["you"]["show"]["deal"] == 1
    terminal = TerminalPlay(game.computer, stream=io.StringIO(), out=io.StringIO())
    lines = terminal.picture().splitlines()
    assert lines[1] == "== The show and the game's end ==" and lines[-1].startswith("Type again")
    game.table.emit(Entry("5H", "terminal"))  # a card now: the game is over, no word of scanning
    game.step()
    assert game.outcomes[-1].words() == f"{game.table.prompt()}: Play again deals a new game"


def test_the_menu_of_a_game_against_the_computer_speaks_of_no_scanning(tmp_path):
    game = Game(tmp_path, Settings("Guest", ("easy",), seed=5))
    game.settle()
    game.table.emit(Entry("menu", "terminal"))
    game.step()
    message = game.outcomes[-1].words()
    assert "scan" not in message.lower() and message.endswith(
        "Play a card of your hand, go, undo; ok after the show deals the next hand")


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_terminal_renders_the_show_presenter_in_both_languages_in_80_columns(tmp_path, language, speak):
    speak(language)
    game = Game(tmp_path, Settings("Maximilianus", ("pro", "standard"), seed=7))
    deal = to_the_first_show(game)
    state = state_json(game.table.state)
    show = show_view(state, deal, waiting=True)
    assert [hand.counted for hand in show.hands] == state["deals"][deal - 1]["show"]  # in counting order
    picture = TerminalPlay(game.computer, stream=io.StringIO(), out=io.StringIO()).picture()
    lines = picture.splitlines()
    assert all(len(line) <= 80 for line in lines) and len(lines) <= 24
    title = f"== Das Zählen der Runde {deal} ==" if language == "de" else f"== The show of deal {deal} =="
    assert lines[1].startswith(title)
    for hand in show.hands:  # each hand with its cards and its count, phrase by phrase
        cards = " ".join(card["pretty"] for card in hand.counted["cards"])
        assert f"{hand.counted['name']}: {cards} + " in picture
        said = " ".join(", ".join(hand.counted["said"]).split())
        assert said in " ".join(picture.split())
    assert lines[-1] == ("> Tippe ok (oder drücke Enter) für die nächste Runde" if language == "de"
                         else "> Type ok (or press Enter) for the next deal")
