import pytest

from companion.club.refused import Refused
from companion.club.tournament import Game, Scoring, bracket, qualifiers, scorecard, seed_order, standings
from companion.words.club import Why

ACC = Scoring("acc")


def game(winner, loser, score, *, round_number=None, at=0.0, board="t1", target=121):
    """`winner` beat `loser` `target` to `score` (the skunk as the engine's skunk lines say: 91 and 61)."""
    skunk = "double skunk" if score < 61 else "skunk" if score < 91 else None
    return Game(((winner,), (loser,)), (target, score), 0, skunk, target, {None: 1, "skunk": 2,
                "double skunk": 4}[skunk], board, round_number, at)


NIGHT = [game("Ann", "Bob", 95), game("Cat", "Dan", 80), game("Ann", "Cat", 119), game("Dan", "Bob", 50)]


def test_acc_standings_match_a_hand_count():
    rows = {s.player: s.to_json() for s in standings(NIGHT, ACC)}
    # counted by hand: a win 2, a skunk win 3, a double skunk no more than a skunk; spread won by less lost by
    assert rows["Ann"] == {**rows["Ann"], "points": 4, "wins": 2, "games": 2, "spread": 26 + 2, "skunks": 0, "rank": 1}
    assert rows["Cat"] == {**rows["Cat"], "points": 3, "wins": 1, "games": 2, "spread": 41 - 2, "skunks": 1, "rank": 2}
    assert rows["Dan"] == {**rows["Dan"], "points": 3, "wins": 1, "games": 2, "spread": 71 - 41, "skunks": 1,
                           "rank": 3}
    assert rows["Bob"] == {**rows["Bob"], "points": 0, "wins": 0, "games": 2, "spread": -26 - 71, "skunks": 0,
                           "rank": 4}


def test_players_equal_on_everything_share_a_rank_and_a_bye_is_a_win_of_two_without_spread():
    rows = standings([game("Ann", "Bob", 100), game("Cat", "Dan", 100)], ACC, byes=["Eve"])
    assert [(s.player, s.rank) for s in rows] == [("Ann", 1), ("Cat", 1), ("Eve", 3), ("Bob", 4), ("Dan", 4)]
    eve = next(s for s in rows if s.player == "Eve")
    assert (eve.points, eve.wins, eve.games, eve.spread, eve.byes) == (2, 1, 0, 0, 1)


def test_a_club_may_rank_skunks_before_spread():
    # match points: three wins each, 6 points each; Pat has the spread (103 to 96), Quin the skunks (3 to 1)
    pat = [game("Pat", "X1", 20), game("Pat", "X2", 120), game("Pat", "X3", 120)]  # 4 + 1 + 1
    quin = [game("Quin", "Y1", 89), game("Quin", "Y2", 89), game("Quin", "Y3", 89)]  # 2 + 2 + 2
    by_spread = [s.player for s in standings(pat + quin, Scoring("match"))][:2]
    by_skunks = [s.player for s in standings(pat + quin, Scoring("match", skunks_before_spread=True))][:2]
    assert by_spread == ["Pat", "Quin"] and by_skunks == ["Quin", "Pat"]


def test_match_scoring_stays_the_default_and_ranks_by_match_points():
    rows = standings(NIGHT, Scoring())
    assert [(s.player, s.points) for s in rows] == [("Dan", 4), ("Ann", 2), ("Cat", 2), ("Bob", 0)]


def test_a_scorecard_runs_in_round_order_with_the_bye_in_its_round():
    games = [game("Cat", "Ann", 119, round_number=3, at=30), game("Ann", "Bob", 80, round_number=1, at=10)]
    card = scorecard("Ann", games, ACC, byes=[2])
    assert [(c.round, c.opponent, c.won, c.points, c.spread, c.total, c.total_spread) for c in card] == [
        (1, "Bob", True, 3, 41, 3, 41), (2, None, True, 2, 0, 5, 41), (3, "Cat", False, 0, -2, 5, 39)]


def test_the_playoffs_take_the_top_quarter_rounded_up_and_byes_fill_the_second_round():
    assert [qualifiers(n) for n in (4, 8, 9, 22, 128)] == [2, 2, 3, 6, 32]
    assert seed_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    seeds = [f"S{i}" for i in range(1, 7)]  # six qualifiers: seeds 1 and 2 have byes
    first = bracket(seeds, 3, [])[0]
    assert [m.players for m in first] == [("S1", None), ("S4", "S5"), ("S2", None), ("S3", "S6")]
    assert [m.winner for m in first] == ["S1", None, "S2", None]


def test_the_bracket_fills_as_the_boards_matches_end_best_of_three():
    seeds = ["Ann", "Bob", "Cat", "Dan"]
    games = [game("Dan", "Ann", 100, at=1), game("Ann", "Dan", 100, at=2), game("Bob", "Cat", 100, at=3),
             game("Ann", "Dan", 70, at=4), game("Bob", "Cat", 110, at=5), game("Cat", "Bob", 110, at=6)]
    semis, final = bracket(seeds, 3, games)
    assert [(m.players, m.wins, m.winner) for m in semis] == [
        (("Ann", "Dan"), [2, 1], "Ann"), (("Bob", "Cat"), [2, 0], "Bob")]  # the game after Bob's second is not his
    assert final[0].players == ("Ann", "Bob") and final[0].winner is None
    with pytest.raises(Refused) as refused:
        bracket(seeds, 4, [])
    assert refused.value.why is Why.BEST_OF and refused.value.facts == {"best_of": 4}
