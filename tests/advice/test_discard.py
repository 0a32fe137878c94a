"""The exact discard analysis against the straightforward count, and textbook hands."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from companion.advice.discard import analyse, analyse_slowly, deal_for
from companion.advice.model import OpponentModel, load
from companion.advice.tables import draw_weights, rank_table
from companion.cribbage.cards import DECK, Suit, parse_cards
from companion.cribbage.errors import RuleError
from companion.cribbage.scoring import score_show
from companion.i18n import language
from companion.words.advice import AdviceError, Unadvised, refusal_words
from companion.words.review import analysis_words, ranks_text

EN = language("en")


def same(fast, slow) -> None:
    assert [s.discard for s in fast.splits] == [s.discard for s in slow.splits]
    for f, s in zip(fast.splits, slow.splits, strict=True):
        assert f.hand == pytest.approx(s.hand, abs=1e-9)
        assert (f.hand_min, f.hand_max) == (s.hand_min, s.hand_max)
        assert f.crib == pytest.approx(s.crib, abs=1e-9)
        assert f.net == pytest.approx(s.net, abs=1e-9)


def test_rank_table_matches_the_engine_for_random_hands() -> None:
    rng = random.Random(5)
    table = rank_table(5)
    for _ in range(500):
        cards = rng.sample(DECK, 5)
        score = score_show(cards[:4], cards[4])
        rank_points = sum(i.points for i in score.items if i.kind not in ("flush", "nobs"))
        assert table[tuple(c.rank - 1 for c in cards)] == rank_points


def test_draw_weights_count_every_ordered_draw() -> None:
    left = np.array([4] * 13)
    left[4] = 1  # one five left
    weights = draw_weights(left, 3)
    assert weights.sum() == 49 * 48 * 47
    assert weights[4, 4, 0] == 0  # two fives cannot be drawn
    assert weights[0, 0, 0] == 4 * 3 * 2


@pytest.mark.parametrize("role", [True, False])
def test_six_card_analysis_equals_every_crib_counted(role: bool) -> None:
    # A hand with a jack, a four-card flush, and a suit short in the pack: every correction matters.
    cards = parse_cards("JH 5H 7H 8H JC QH")
    same(analyse(cards, dealer=role), analyse_slowly(cards, dealer=role))


def test_opponent_model_analysis_equals_every_weighted_crib_counted() -> None:
    rng = np.random.default_rng(3)
    weights = rng.random((13, 13))
    weights = weights + weights.T
    model = OpponentModel("random test weights", {"dealer": weights, "pone": weights**2})
    cards = parse_cards("5S 5H JS 4S 9S KD")
    same(analyse(cards, dealer=True, model=model), analyse_slowly(cards, dealer=True, model=model))
    same(analyse(cards, dealer=False, model=model), analyse_slowly(cards, dealer=False, model=model))


def test_five_card_deal_keeps_three() -> None:
    cards = parse_cards("JD 5D 6D 4D QC")
    fast = analyse(cards, dealer=True, variant="five-card")
    assert len(fast.splits) == 10 and all(len(s.keep) == 3 for s in fast.splits)
    same(fast, analyse_slowly(cards, dealer=True, variant="five-card"))


def test_three_player_deal_lays_away_one() -> None:
    cards = parse_cards("JH 5H 7H 8H JC")
    fast = analyse(cards, dealer=False, variant="three")
    assert len(fast.splits) == 5
    slow = analyse_slowly(cards, dealer=False, variant="three", only=parse_cards("JC"))
    chosen, expected = fast.split_for(parse_cards("JC")), slow.splits[0]
    assert chosen.hand == pytest.approx(expected.hand) and chosen.crib == pytest.approx(expected.crib)


def test_the_baseline_crib_of_a_discard_is_its_average_over_all_cribs() -> None:
    # The average crib over every deal is the published 4.7348; by symmetry so is the average over
    # all 15 discards of random hands, within sampling noise.
    rng = random.Random(11)
    cribs = [s.crib for _ in range(40) for s in analyse(rng.sample(DECK, 6), dealer=True).splits]
    assert sum(cribs) / len(cribs) == pytest.approx(4.7348, abs=0.15)


def test_five_five_five_jack_with_two_tens_as_dealer() -> None:
    # 5-5-5-J counts 14 before the starter (four fifteens with the jack, one of three fives, a pair royal)
    # and every ten-card starter adds more; the two tens go to the dealer's own crib, where they are worth
    # a pair. Breaking the fives for the tens costs far more than the crib can give back.
    analysis = analyse(parse_cards("5S 5H 5D JC 10S 10H"), dealer=True)
    assert ranks_text(analysis.best.keep) == "5-5-5-J"
    assert ranks_text(analysis.best.discard) == "10-10"
    assert analysis.best.hand_min == 14 and analysis.best.hand_max == 29  # the 5 of clubs: twenty-nine


def test_ace_two_three_four_with_junk_as_pone() -> None:
    # A-2-3-4 is a run of four, and any starter from A to 5 extends or doubles it; the nine and the king
    # are far apart and make no fifteen together, the safest pair to give the dealer.
    analysis = analyse(parse_cards("AH 2C 3D 4S KH 9C"), dealer=False)
    assert ranks_text(analysis.best.keep) == "A-2-3-4"
    assert ranks_text(analysis.best.discard) == "9-K"


def test_pone_never_gives_the_dealer_two_fives() -> None:
    analysis = analyse(parse_cards("5C 5D 9S 10H JC QD"), dealer=False)
    assert all(c.rank != 5 for c in analysis.best.discard)
    give_fives = analysis.split_for(parse_cards("5C 5D"))
    assert give_fives.crib > 8  # two fives and any ten-card: the crib's best start


def test_double_run_stays_together_for_either_role() -> None:
    for dealer in (True, False):
        analysis = analyse(parse_cards("7C 7D 8S 8H KC QD"), dealer=dealer)
        assert ranks_text(analysis.best.keep) == "7-7-8-8"


def test_explanation_speaks_as_a_player() -> None:
    analysis = analyse(parse_cards("5H 5D 6C JS 4S QD"), dealer=True)
    assert analysis_words(analysis, None, EN) == ("Keep 4-5-5-6: it averages 16.0 in hand (12 to 24); J-Q in your "
                                                  "crib adds 4.7; net +20.7.")
    pone = analyse(parse_cards("5H 5D 6C JS 4S QD"), dealer=False)
    assert "in your opponent's crib gives away" in analysis_words(pone, None, EN)
    worse = pone.splits[-1]
    assert "Best is 4-5-5-6" in analysis_words(pone, worse, EN)


def test_the_shipped_model_loads_and_changes_the_crib() -> None:
    model = load()
    assert model.name.startswith("standard-discards")
    cards = parse_cards("5H 5D 6C JS 4S QD")
    uniform = analyse(cards, dealer=True).best
    modelled = analyse(cards, dealer=True, model=model)
    assert modelled.model == model.name
    assert modelled.split_for(uniform.discard).crib != pytest.approx(uniform.crib)


@pytest.mark.parametrize(("text", "variant", "why", "message"), [
    ("5H 5D 6C JS 4S", None, Unadvised.FIVE_CARDS, "say the variant"),
    ("5H 5D 6C JS", None, Unadvised.DEAL, "six cards"),
    ("5H 5D 6C JS 4S QD", "three", Unadvised.DEAL_SIZE, "gives 5 cards"),
    ("5H 5D 6C JS 4S", "seven", Unadvised.NO_VARIANT, "no variant"),
    ("5H 5H 6C JS 4S QD", None, Unadvised.CARD_TWICE, "twice"),
])
def test_bad_hands_say_what_to_do(text: str, variant: str | None, why: Unadvised, message: str) -> None:
    with pytest.raises(RuleError) as raised:  # the engine's kind of error: the rules do not allow these cards
        analyse(parse_cards(text), dealer=True, variant=variant)
    assert isinstance(raised.value, AdviceError) and raised.value.refusal.why is why
    assert message in refusal_words(raised.value.refusal, EN)


def test_every_split_of_every_suit_pattern_is_ordered_best_first() -> None:
    for suits in itertools.product(list(Suit)[:2], repeat=3):
        cards = [DECK[(r - 1) * 4 + s.index] for r, s in zip((1, 6, 11), suits, strict=True)]
        cards += parse_cards("9D 10D 2S")
        nets = [s.net for s in analyse(cards, dealer=False).splits]
        assert nets == sorted(nets, reverse=True)
    assert deal_for(6, None).laid_away == 2
