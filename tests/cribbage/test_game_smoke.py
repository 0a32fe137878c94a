"""One two-player deal through the fold, every point with its reason."""

from __future__ import annotations

from companion.cribbage.game import apply, initial_state, replay
from companion.cribbage.transcript import UndoInput, parse_input
from companion.words.phrases import prompt_words
from tests.facts import by_name, label, name

DEAL = [
    '{"type":"game","players":["Ann","Bob"],"dealer":"Ann","target":121}',
    '{"type":"starter","card":"JS"}',  # his heels: Ann 2
    '{"type":"play","card":"4H"}',
    '{"type":"play","card":"5D"}',
    '{"type":"play","card":"6C"}',  # 15 for 2 and the run 4-5-6 for 3: Bob 5
    '{"type":"play","card":"KD"}',
    '{"type":"go"}',
    '{"type":"play","card":"2D"}',
    '{"type":"go"}',  # Ann played last at 27: go, Ann 1; Bob leads
    '{"type":"play","card":"9H"}',
    '{"type":"play","card":"9S"}',  # a pair: Ann 2
    '{"type":"play","card":"QH"}',  # last card: Bob 1; Bob's hand 4H 6C 9H QH + JS: 6-9 fifteen, 2
    '{"type":"crib","cards":["3C","3D","7H","8S"]}',
]


def test_a_deal_scores_every_point_and_moves_the_deal():
    state = initial_state()
    for line in DEAL:
        state = apply(state, parse_input(line))
    # Ann: heels 2 + go 1 + pair 2 + hand 5D KD 2D 9S (5-K, 5-J) 4 + crib (7-8, 3-3) 4 = 13
    # Bob: 15 and run 5 + last card 1 + hand 2 = 8
    assert by_name(state.scores) == {"Ann": 13, "Bob": 8}
    assert [(label(e), name(e.side), e.points) for e in state.events] == [
        ("his heels", "Ann", 2), ("pegging", "Bob", 5), ("go", "Ann", 1), ("pegging", "Ann", 2),
        ("last card", "Bob", 1), ("Bob's hand", "Bob", 2), ("Ann's hand", "Ann", 4), ("Ann's crib", "Ann", 4),
    ]
    assert prompt_words(state.awaited()) == "Bob deals. Enter the starter"
    assert by_name(state.back_pegs) == {"Ann": 9, "Bob": 6}


def test_undo_drops_the_previous_input():
    inputs = [parse_input(line) for line in DEAL]
    assert replay([*inputs, UndoInput(), UndoInput()]) == replay(inputs[:-2])
    assert prompt_words(replay(inputs[:-2]).awaited()) == "Bob to play, count 18"
