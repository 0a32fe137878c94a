"""The coach: the discards worked out after the play, their review paged, and the advice loaded only for it."""

from __future__ import annotations

import subprocess
import sys

from companion.cribbage.cards import Card
from companion.cribbage.game import replay
from companion.cribbage.transcript import DiscardInput, HandInput, Input, PlayInput
from companion.table import Coach
from companion.table.coaching import is_worked_out, worked_out_discards
from companion.view.screen import ScreenView
from tests.sample_deal import DEAL, GAME, deal


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(c) for c in text.split())


def coached(upto: str) -> list[Input]:
    """The sample deal with both six-card hands scanned first (Bob lays away 2C 3D, Ann 9S KH)."""
    hands: list[Input] = [HandInput("Bob", cards("10C 5H 5D JH 2C 3D")), HandInput("Ann", cards("4C 6D 7S 8H 9S KH"))]
    return [GAME, *hands, *deal(upto)[1:]]


def test_each_discard_is_the_hand_less_the_cards_played_once_the_play_is_over():
    assert worked_out_discards(replay(coached("7S"))) == []  # still playing
    assert worked_out_discards(replay(deal(DEAL[-5]))) == []  # no hands known
    state = replay(coached(DEAL[-5]))
    discards = worked_out_discards(state)
    assert discards == [DiscardInput("Bob", cards("2C 3D")), DiscardInput("Ann", cards("9S KH"))]  # pone first
    logged = replay([*state.inputs, discards[0]])
    assert worked_out_discards(logged) == discards[1:]
    assert is_worked_out(logged, logged.inputs[-1]) and not is_worked_out(logged, PlayInput(Card.parse("8H")))


def test_the_review_says_how_far_the_discard_was_from_the_best():
    played = replay(coached(DEAL[-5]))
    state = replay([*played.inputs, *worked_out_discards(played)])
    pages = Coach.review(state, "Ann")
    assert [view.prompt for view in pages] == [f"Coach: Ann {page}/4" for page in range(1, 5)]
    assert " ".join(pages[0].body).startswith("That is not the optimal discard")
    assert Coach.review(replay(deal(DEAL[-5])), "Ann") == []  # no hand known: nothing to say


def page(n: int) -> ScreenView:
    return ScreenView(scores=(), body=(f"page {n}",))


def test_the_pages_turn_with_time_and_with_ok_then_the_review_ends():
    coach = Coach(page_seconds=2.5)
    assert coach.tick(0.0) == (False, False) and coach.hide() is False
    pages = [page(0), page(1), page(2)]
    coach.show(pages, 10.0)
    assert coach.view(10.0) == page(0) and coach.tick(12.0) == (False, False)
    assert coach.tick(12.5) == (False, True) and coach.view(12.5) == page(1)
    assert coach.hide() is True and not coach.pages  # an entry: the table moved on
    coach.next_page()  # ... it was "ok": the same review, one page on
    assert coach.view(12.5) == page(2)
    assert coach.tick(15.0) == (True, True) and not coach.pages
    coach.show([], 20.0)  # nothing to say: nothing on show
    assert not coach.pages


def test_the_table_loads_the_advice_and_numpy_only_when_a_discard_is_reviewed():
    code = ("import sys; import companion.table; import companion.daemon; "
            "print(sorted(m for m in ('numpy', 'companion.advice') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
