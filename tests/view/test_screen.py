"""The OLED: the words a player reads, and golden images pinning every pixel."""

from __future__ import annotations

from companion.cribbage.cards import parse_cards
from companion.cribbage.game import GameState, replay
from companion.cribbage.transcript import CribInput, GameInput, GoInput, Input, PlayInput, StarterInput
from companion.view.screen import ScreenView, header, render_screen, screen_view, spoken_lines
from tests.golden import GOLDEN, assert_golden

GAME = GameInput(("Ann", "Bob"), dealer="Ann", target=121)


DEAL = [line for line in (GOLDEN / "deal.txt").read_text().splitlines() if line and not line.startswith("#")]


def deal(upto: str) -> list[Input]:
    """The inputs of the sample deal (tests/golden/deal.txt) up to and including the entry `upto`."""
    starter, plays, crib = DEAL[0], DEAL[1:-4], DEAL[-4:]
    inputs: list[Input] = [GAME, StarterInput(parse_cards(starter)[0])]
    for text in plays:
        inputs.append(GoInput() if text == "go" else PlayInput(parse_cards(text)[0]))
        if text == upto:
            return inputs
    inputs.append(CribInput(parse_cards(crib)))
    return inputs


def recent(before: GameState, after: GameState) -> tuple:
    return after.events[len(before.events):]


def test_during_the_play_the_screen_shows_scores_dealer_turn_count_and_pile():
    state = replay(deal("5H"))
    view = screen_view(state)
    assert header(view) == "Ann* 0          Bob 0"  # * marks the dealer
    assert view.body == ("Count 19   Starter 5♣", "10♣ 4♣ 5♥")  # the starter stays in sight
    assert view.prompt == "Ann to play, count 19"
    assert_golden(render_screen(view), "play-count-19")


def test_a_score_is_said_one_line_at_a_time():
    before, after = replay(deal("8H")[:-1]), replay(deal("8H"))
    lines = spoken_lines(recent(before, after))
    assert lines[:2] == ["Ann: last card 1", "last card is one"]
    assert lines[2:6] == ["Bob's hand: 20", "fifteen two", "fifteen four", "fifteen six"]
    assert lines[-5:] == ["Ann's hand: 9", "fifteen two", "fifteen four", "and a run of five is", "nine"]
    first = screen_view(after, recent=recent(before, after), page=0)
    second = screen_view(after, recent=recent(before, after), page=1)
    assert first.body == ("Ann: last card 1", "last card is one", "Bob's hand: 20")
    assert second.body == ("fifteen two", "fifteen four", "fifteen six")
    assert first.prompt == "Scan the crib (Ann's)"
    assert_golden(render_screen(first), "show-page-1")


def test_an_error_is_shown_in_plain_words_instead_of_the_prompt():
    state = replay(deal("6D"))
    view = screen_view(state, error="the count is 25: 9H would make 34; play a lower card or say go")
    image = render_screen(view)
    assert_golden(image, "error-over-31")
    assert image != render_screen(screen_view(state))


def test_long_names_and_big_scores_fit_the_header():
    view = ScreenView(scores=(("Maximilian", 118), ("Bob", 121)), dealer="Bob")
    assert len(header(view)) <= 21
    assert header(view).endswith("Bob* 121")
