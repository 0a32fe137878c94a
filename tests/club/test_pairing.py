import itertools

import pytest

from companion.club.pairing import BYE, Seat, acc_movement, ladder, round_robin, seat
from companion.club.refused import Refused
from companion.i18n import language
from companion.words.club import Why, refusal_words


def said(refused: pytest.ExceptionInfo[Refused]) -> str:
    return refusal_words(refused.value.why, refused.value.facts, language("en"))


@pytest.mark.parametrize("size", range(2, 11))
def test_over_a_round_robin_everyone_meets_everyone_exactly_once(size):
    players = [f"P{i}" for i in range(size)]
    rounds = size - 1 if size % 2 == 0 else size
    met = [frozenset(pair) for n in range(1, rounds + 1) for pair in round_robin(players, n)]
    field = players + ([BYE] if size % 2 else [])
    assert sorted(met, key=sorted) == sorted((frozenset(p) for p in itertools.combinations(field, 2)), key=sorted)
    for n in range(1, rounds + 1):  # and nobody plays twice in a round
        seated = [p for pair in round_robin(players, n) for p in pair]
        assert len(seated) == len(set(seated)) == len(field)


def test_a_round_past_the_last_is_refused_naming_how_many_there_are():
    with pytest.raises(Refused) as refused:
        round_robin(["A", "B", "C", "D"], 4)
    assert refused.value.why is Why.ROUND_RANGE and said(refused).startswith("4 players play 3 rounds")


def test_the_ladder_pairs_neighbours_and_gives_the_last_a_bye():
    assert ladder(["Ann", "Bob", "Cat", "Dan", "Eve"]) == [("Ann", "Bob"), ("Cat", "Dan"), ("Eve", BYE)]


def test_tables_are_given_in_board_order_and_a_bye_needs_none():
    pairs = [("Ann", "Bob"), ("Cat", BYE)]
    assert seat(pairs, ["t1"]) == ([Seat(1, "t1", ("Ann", "Bob"))], ["Cat"])
    with pytest.raises(Refused) as refused:
        seat([("A", "B"), ("C", "D")], ["t1"])
    assert said(refused) == "2 games need 2 boards, but 1 are named: name more boards with --boards"


@pytest.mark.parametrize(("size", "move"), [(8, 1), (10, 1), (9, 1), (7, 1), (128, 1), (12, 5)])
def test_the_acc_movement_keeps_one_side_seated_and_nobody_meets_twice(size, move):
    players = [f"P{i}" for i in range(size)]
    tables = (size + 1) // 2
    staying = players[:size // 2]  # an odd field: the bye sits at the last staying table
    rounds = [acc_movement(players, n, move) for n in range(1, tables + 1)]
    met = [frozenset(pair) for r in rounds for pair in r]
    assert len(met) == len(set(met))  # no pair twice
    for r in rounds:
        assert [a for a, _ in r][:len(staying)] == staying  # the staying side keeps its table
        assert sorted(p for pair in r for p in pair if p != BYE) == sorted(players)
    if size % 2:  # the bye goes round the moving side: each moving player has it once
        byes = [b for r in rounds for a, b in r if a == BYE]
        assert len(byes) == len(set(byes)) == tables


def test_the_acc_movement_says_when_the_moving_side_comes_round_again():
    with pytest.raises(Refused) as refused:
        acc_movement([f"P{i}" for i in range(8)], 3, move=2)
    assert said(refused) == ("8 players at 4 tables moving 2 a round meet again after 2 rounds: choose a round from 1 "
                             "to 2")


def test_seven_players_on_three_boards_the_staying_players_keep_their_boards_all_night():
    players = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"]
    boards_of = {}
    for number in range(1, 5):
        seats, byes = seat(acc_movement(players, number), ["t1", "t2", "t3"])
        assert len(seats) == 3 and len(byes) == 1 and byes[0] in ("Dan", "Eve", "Fay", "Gus")
        for s in seats:
            boards_of.setdefault(s.players[0], set()).add(s.board)
    assert boards_of == {"Ann": {"t1"}, "Bob": {"t2"}, "Cat": {"t3"}}
