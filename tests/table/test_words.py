"""The words a player reads at the table, entries in and the OLED's words out: a long count paged at the end of
a phrase (by itself, or with ok), pegging by a player's name, and NEW GAME as the command card says it."""

from __future__ import annotations

from companion.base.clock import ManualClock
from companion.boards import load_layout
from companion.cribbage.transcript import GameInput, PegInput
from companion.entry.barcodes import COMMAND_LABELS
from companion.gamelog import GameLog
from companion.table import Table
from companion.view.screen import screen_text
from companion.words.count import say
from tests.facts import by_name, label
from tests.sample_deal import DEAL
from tests.table.tables import enter, new_table


def words(table) -> list[str]:
    """The lines under the OLED's header and rule, as the display shows them."""
    return [line.rstrip() for line in screen_text(table.shown().screen)[2:]]


def test_a_long_count_turns_its_pages_by_itself_and_with_ok_never_mid_phrase(tmp_path):
    clock = ManualClock()
    table = new_table(tmp_path, clock, page_seconds=3.0)
    enter(table, *DEAL[:-4])  # the play ends: both hands are counted
    pages = [words(table)]
    for _ in range(5):
        clock.advance(2.9)
        table.tick(clock.monotonic())
        assert words(table) == pages[-1]  # not yet
        clock.advance(0.1)
        table.tick(clock.monotonic())
        pages.append(words(table))
    assert pages == [
        ["Ann: one for last", "Bob's hand: 20", "", "Enter Ann's crib"],
        ["Bob: fifteen two,", "fifteen four, fifteen", "six,", "Enter Ann's crib"],  # whose count it is, each page
        ["Bob: fifteen eight,", "fifteen ten, fifteen", "twelve,", "Enter Ann's crib"],
        ["Bob: fifteen", "fourteen, and a pair", "royal is twenty", "Enter Ann's crib"],  # the phrase not cut in two
        ["Ann's hand: 9", "fifteen two, fifteen", "four,", "Enter Ann's crib"],
        ["Ann: and a run of", "five is nine", "", "Enter Ann's crib"],
    ]
    clock.advance(1.0)
    enter(table, "ok")  # at once
    assert words(table) == pages[0]


def test_the_count_of_a_double_run_is_said_as_players_say_it(tmp_path):
    table = new_table(tmp_path)
    # Ann deals, the starter KH; Bob plays 7H, 7D, 8C, 9S and Ann four cards of nothing, then the crib
    enter(table, "KH", "7H", "AC", "7D", "2C", "8C", "3D", "go", "go", "9S", "4D")
    assert "Bob's hand 12: fifteen two, fifteen four, and a double run is twelve" in [
        f"{label(e)} {e.points}: {say(e.score)}" for e in table.state.events]
    assert words(table)[:3] == ["Ann: one for last", "Bob's hand: 12", "fifteen two,"]


def test_peg_by_a_players_name(tmp_path):
    table = new_table(tmp_path)
    (outcome,) = enter(table, "peg Bob 3")
    assert outcome.accepted == PegInput("Bob", 3)
    enter(table, "peg ann 2")
    assert by_name(table.state.scores) == {"Ann": 2, "Bob": 3}
    logged = list(table.log.inputs)
    (outcome,) = enter(table, "peg Eve 3")
    assert outcome.error and outcome.words() == ("there is no player Eve: peg one of Ann, Bob by name (peg Ann 5) "
                                                 "or by seat (peg 1 5)")
    assert words(table)[0].startswith("there is no player")  # said on the screen
    assert table.log.inputs == logged and by_name(table.state.scores) == {"Ann": 2, "Bob": 3}


def test_peg_a_partner_by_name_pegs_the_partnership(tmp_path):
    four = GameInput(("Ann", "Bob", "Cat", "Dan"), dealer="Ann")
    table = Table(GameLog.open(tmp_path / "game.jsonl"), setup=four, layout=load_layout("two-track-121"),
                  clock=ManualClock())
    enter(table, "peg Cat 4", "peg Bob & Dan 5")
    assert by_name(table.state.scores) == {"Ann & Cat": 4, "Bob & Dan": 5}


def test_new_game_is_called_on_the_screen_what_the_command_card_says(tmp_path):
    label = COMMAND_LABELS["new"]
    table = new_table(tmp_path)
    enter(table, "5C")
    enter(table, "new")
    assert words(table)[-2:] == [f"scan {label} again", "to abandon this game"]
    (outcome,) = enter(table, label)  # typed as the screen says it
    assert outcome.accepted is not None and table.state.starter is None
    assert table.log.path == GameLog.open(tmp_path / "games" / "0002.jsonl").path
