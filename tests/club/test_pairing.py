import itertools

import pytest

from companion.club.pairing import BYE, at_tables, ladder, round_robin


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
    with pytest.raises(ValueError, match="4 players play 3 rounds"):
        round_robin(["A", "B", "C", "D"], 4)


def test_the_ladder_pairs_neighbours_and_gives_the_last_a_bye():
    assert ladder(["Ann", "Bob", "Cat", "Dan", "Eve"]) == [("Ann", "Bob"), ("Cat", "Dan"), ("Eve", BYE)]


def test_tables_are_given_in_board_order_and_a_bye_needs_none():
    pairs = [("Ann", "Bob"), ("Cat", BYE)]
    assert at_tables(pairs, ["t1", "t2"]) == [("t1", "Ann", "Bob")]
    with pytest.raises(ValueError, match="need 2 boards"):
        at_tables([("A", "B"), ("C", "D")], ["t1"])
