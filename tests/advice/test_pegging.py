"""The play: rank-level pegging points against the engine, and the pegging hint."""

from __future__ import annotations

import random

import pytest

from companion.advice.pegging import (
    PlayView,
    evaluate,
    hint,
    moves_seen,
    opponent_hands,
    opponent_holdings,
    peg_points,
    sensible_choice,
)
from companion.advice.tables import rank_table
from companion.cribbage.cards import DECK, VALUES, parse_cards
from companion.cribbage.scoring import score_pegging
from companion.i18n import language
from companion.words.advice import Because, Reason, hint_words

EN = language("en")


def test_peg_points_equal_the_engine_for_random_series() -> None:
    rng = random.Random(2)
    checked = 0
    while checked < 3000:
        pile = []
        for card in rng.sample(DECK, 8):
            if sum(c.value for c in pile) + card.value > 31:
                break
            pile.append(card)
            count = sum(c.value for c in pile)
            assert peg_points([c.rank for c in pile], count) == score_pegging(pile).total, pile
            checked += 1


def test_peg_points_named_cases() -> None:
    assert peg_points([9, 6, 8, 7], 30) == 4  # a run of four on the 7
    assert peg_points([8, 7, 7, 6], 28) == 0  # no run through a pair
    assert peg_points([6, 5, 6], 17) == 0  # no pair across another card
    assert peg_points([4, 6, 5], 15) == 5  # fifteen and a run
    assert peg_points([7, 7, 7, 10], 31) == 2


def view(hand: str, pile: str = "", seen: str = "", opponent_cards: int = 4, **kw: object) -> PlayView:
    mine = parse_cards(hand)
    played = parse_cards(pile)
    known = set(mine) | set(played) | set(parse_cards(seen))
    unseen = tuple(c for c in DECK if c not in known)
    return PlayView(mine, played, unseen, opponent_cards, **kw)  # type: ignore[arg-type]


def test_hint_takes_points() -> None:
    h = hint(view("AH 9C 3D", pile="10S JD", opponent_cards=2))
    assert str(h.card) == "9C" and h.points == 3  # a run of three, 9-10-J
    h = hint(view("KH 2C 4D", pile="5S 6D", opponent_cards=2))
    assert str(h.card) == "4D" and h.points == 5  # fifteen and a run of three
    assert h.reasons[0] == Reason(Because.PEGS, count=15, points=5)
    assert hint_words(h, EN).startswith("Play the four (4): it makes fifteen and pegs 5 now")


def test_hint_does_not_lead_a_five() -> None:
    h = hint(view("5H 4C KD 9S", seen="3H 2S"))
    assert h.card.rank != 5
    assert hint_words(h, EN).startswith(f"Play the {('four', 'king', 'nine')[(4, 13, 9).index(h.card.rank)]}")


def test_hint_plays_on_to_win_the_game() -> None:
    # One point wins: the 2 is a sure go or last card.
    h = hint(view("2H", pile="10S 9D 3S", opponent_cards=0, need=1))
    assert str(h.card) == "2H" and h.racing and "it wins the game 100% of the time" in hint_words(h, EN)


def test_hint_is_the_same_for_the_same_seed() -> None:
    v = view("5H 4C KD 9S 7C", seen="3H")
    assert hint(v, seed=3) == hint(v, seed=3)


def test_the_search_plays_out_the_rest_of_the_play_against_a_known_hand() -> None:
    # Only the opponent's card is unseen, so he holds it. My 5 lets his 10 make fifteen (2), then my 4 makes
    # 19 and the last card (1): -1. My 4, his 10 (14), my 5 (19) and the last card: +1.
    v = PlayView(tuple(parse_cards("5H 4C")), (), tuple(parse_cards("10S")), 1)
    values = {str(c): x for c, x in evaluate(v).items()}
    assert values == {"5H": pytest.approx(-1.0), "4C": pytest.approx(1.0)}


def test_a_go_rules_out_hands_with_a_card_that_fits() -> None:
    v = view("KH", pile="10S JD 8C", opponent_cards=2, opponent_go=True)  # count 28: he holds nothing under 4
    for hand, _ in opponent_hands(v, 40, random.Random(1)):
        assert all(VALUES[r] > 3 for r in hand)


def test_the_opponent_hands_follow_what_he_kept_and_how_he_played() -> None:
    mine, played = parse_cards("2H 2D 9S QC"), parse_cards("KS")
    unseen = tuple(c for c in DECK if c not in mine and c not in played)
    # He led a king: a sensible player leads a card under five when he holds one (and a ten before a king).
    # (The pro is sure here that he plays by the standard player's rules, not the ev rules.)
    v = PlayView(mine, played, unseen, 3, opponent_moves=(((), played[0]),), ev_chance=0.02)
    # Few hands a player keeps hold a king and nothing a sensible player would rather lead, so a king lead
    # makes those hands four times as likely as when the lead is not known to be his.
    hands = opponent_hands(v, 400, random.Random(3))
    led_king = sum(share for hand, share in hands if sensible_choice(tuple(sorted((*hand, 13))), (), 0) == 13)
    blind = PlayView(mine, played, unseen, 3, ev_chance=0.02)
    unknown = sum(share for hand, share in opponent_hands(blind, 400, random.Random(3))
                  if sensible_choice(tuple(sorted((*hand, 13))), (), 0) == 13)
    assert led_king > 0.35 and unknown < 0.15


def test_how_he_plays_tells_which_rules_he_follows() -> None:
    mine = parse_cards("2H 2D 9S QC")

    def after(moves: str, ev_chance: float = 0.5) -> tuple[float, float]:
        """The evidence for the ev rules, and the share of holdings searched as an ev player's."""
        cards = parse_cards(moves)
        pile = cards[:-1]
        unseen = tuple(c for c in DECK if c not in mine and c not in cards)
        v = PlayView(mine[:4 - len(pile)], (*pile, cards[-1]), unseen, 3,
                     opponent_moves=((tuple(pile), cards[-1]),), ev_chance=ev_chance)
        holdings, evidence = opponent_holdings(v, 400, random.Random(5))
        return evidence, sum(share for _, style, share in holdings if style == "ev")

    # He led an ace: the ev rules lead the lowest card, the standard player a four, three or two before an ace.
    evidence, ev_share = after("AS")
    assert evidence > 0.5 and ev_share > 0.6
    # On my 3 he played a queen, not a lower card that scores nothing: the standard player keeps low cards back,
    # the ev rules play them first.
    evidence, ev_share = after("3C QS")
    assert evidence < -0.5 and ev_share < 0.4
    # What the game so far says weighs in: sure of the standard rules, the ace lead does not turn him.
    assert after("AS", ev_chance=0.02)[1] < 0.2


def test_the_opponent_is_expected_to_have_kept_cards_that_count_well() -> None:
    mine = parse_cards("2H 2D 9S QC")
    unseen = tuple(c for c in DECK if c not in mine)
    table = rank_table(5)

    def points(hand: tuple[int, ...]) -> float:  # four ranks, averaged over every starter rank
        return float(table[tuple(r - 1 for r in hand)].mean())

    drawn = opponent_hands(PlayView(mine, (), unseen, 4), 400, random.Random(3))
    rng = random.Random(3)
    at_random = [tuple(sorted(c.rank for c in rng.sample(unseen, 4))) for _ in range(400)]
    assert sum(share * points(hand) for hand, share in drawn) > sum(map(points, at_random)) / 400 + 1.5


def test_near_the_end_the_pro_plays_not_to_give_away_the_points_the_opponent_needs() -> None:
    # I am pone and count first: my hand (5-5-10-K and a 5 starter, 20 points) wins the game unless my
    # opponent pegs his last 2 holes in the play. Leading the 5 lets any ten-card make fifteen.
    kept = parse_cards("5H 5D 10S KC")
    starter = parse_cards("5C")[0]
    unseen = tuple(c for c in DECK if c not in kept and c != starter)
    racing = PlayView(kept, (), unseen, 4, need=15, opponent_need=2, dealer=False, starter=starter, kept=kept)
    h = hint(racing)
    assert h.racing and h.card.rank != 5
    values = {c.rank: v for c, v in h.values.items()}
    assert values[5] < values[h.card.rank] - 0.1


def test_the_opponents_moves_are_read_from_the_cards_played_as_self_play_saw_them() -> None:
    # The web page's computer player knows only the table's record (who played what); self-play follows every
    # go as it is said. Both must give the pro the same picture of the opponent's plays and goes.
    from companion.advice.players import make
    from companion.advice.selfplay import play_game
    from companion.cribbage.game import apply, replay
    from companion.cribbage.transcript import PlayInput, parse_input

    seen: list[list[tuple]] = []

    class Recording:
        def __init__(self, level: str, rng: random.Random) -> None:
            self.inner = make(level, rng)
            self.level = level
            self.views: list[tuple] = []
            seen.append(self.views)

        def discard(self, cards, seat):
            return self.inner.discard(cards, seat)

        def play(self, view):
            self.views.append(view.opponent_moves)
            return self.inner.play(view)

    compared = goes = 0
    for n in range(6):
        seen.clear()
        game = play_game(("standard", "easy"), n % 2, f"moves:{n}", record=True, maker=Recording)
        expected = {"A": iter(seen[0]), "B": iter(seen[1])}
        state = replay([parse_input(game.inputs[0])])
        for line in game.inputs[1:]:
            step = parse_input(line)
            if isinstance(step, PlayInput):
                mover = state.turn
                opponent = state.left_of(mover)
                moves = moves_seen(state.played, opponent, state.hand_size, state.count,
                                   opponent in state.gone)
                assert moves == next(expected[mover]), (n, len(state.inputs))
                compared += 1
                goes += sum(card is None for _, card in moves)
            state = apply(state, step)
    assert compared > 300 and goes > 50
