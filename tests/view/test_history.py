"""The game so far in the table's words: what the terminal shows beside the board, and the demo's summary."""

from __future__ import annotations

from companion.cribbage.game import replay
from companion.cribbage.transcript import UndoInput
from companion.view.history import deal_summary, game_history
from tests.sample_deal import deal


def test_the_sample_deal_card_by_card_with_the_count_and_each_score_as_said():
    assert game_history(replay(deal("end"))) == [
        "Game to 121: Ann, Bob",
        "Deal 1, Ann deals: starter 5♣",
        "Bob 10♣ 10",
        "Ann 4♣ 14",
        "Bob 5♥ 19",
        "Ann 6♦ 25: a run of three is three",
        "Bob 5♦ 30",
        "Ann: go",
        "Bob: go",
        "Bob: one for the go",
        "Ann 7♠ 7",
        "Bob J♥ 17",
        "Ann 8♥ 25",
        "Ann: one for last",
        "Bob's hand 20: fifteen two, fifteen four, fifteen six, fifteen eight, fifteen ten, fifteen twelve, "
        "fifteen fourteen, and a pair royal is twenty",
        "Ann's hand 9: fifteen two, fifteen four, and a run of five is nine",
        "Crib 2♣ 3♦ 9♠ K♥",
        "Ann's crib 4: fifteen two, fifteen four",
    ]


def test_an_undone_play_leaves_the_history():
    inputs = deal("6D")
    assert game_history(replay([*inputs, UndoInput()]))[-1] == "Bob 5♥ 19"


def test_the_deal_summed_up():
    assert deal_summary(replay(deal("end")), 1) == [
        "Deal 1: Ann dealt, the starter 5♣",
        "  The play: Ann 4, Bob 1",
        "  The show: Bob's hand 20, Ann's hand 9, Ann's crib 4",
        "Scores: Ann 17, Bob 21",
    ]
