"""The table of keeps: what the standard player keeps from six ranks, and how the pro reads the opponent's hand
from it."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from companion.advice import keeps
from companion.advice.discard import analyse
from companion.advice.pegging import PlayView, opponent_holdings
from companion.cribbage.cards import DECK, parse_cards
from companion.cribbage.errors import InputError
from companion.i18n import language
from companion.words.saying import error_words


def ranks(cards: tuple[object, ...] | list[object]) -> tuple[int, ...]:
    return tuple(sorted(c.rank for c in cards))  # type: ignore[attr-defined]


def test_the_table_keeps_what_the_standard_player_keeps_from_dealt_cards() -> None:
    table = keeps.load()
    rng = random.Random(4)
    for _ in range(150):
        cards = rng.sample(DECK, 6)
        for dealer in (True, False):
            analysis = analyse(cards, dealer=dealer)
            kept = table.kept(ranks(cards), dealer=dealer)
            most = max(sum(c.suit == s for c in cards) for s in {c.suit for c in cards})
            split = next(s for s in analysis.splits if ranks(s.keep) == kept)
            if most <= 2:  # no flush in hand: the best split, or one within a tenth of a point (a crib flush)
                assert split.net >= analysis.best.net - 0.1, (cards, dealer)
            elif most == 3:  # only the crib's rare flush: within half a point of the best
                assert split.net >= analysis.best.net - 0.5, (cards, dealer)
            # four or more of a suit (one deal in nine): a flush kept is what the table, by ranks, cannot see


def test_every_six_ranks_are_in_the_table_in_both_roles() -> None:
    table = keeps.load()
    assert len(keeps.sixes()) == 18395
    # The dealer lays J-Q in his own crib; the pone keeps the jack (his nobs) and gives away the least: Q-K.
    assert table.kept((5, 5, 5, 11, 12, 13), dealer=True) == (5, 5, 5, 13)
    assert table.kept((5, 5, 5, 11, 12, 13), dealer=False) == (5, 5, 5, 11)
    assert table.kept((1, 2, 3, 11, 12, 13), dealer=False) == (1, 2, 3, 11)


def test_a_broken_table_says_how_to_make_it_again(tmp_path: Path) -> None:
    path = tmp_path / "keeps.json"
    path.write_text(json.dumps({"name": "x", "laid": {"dealer": "###", "pone": "###"}}))
    with pytest.raises(InputError) as raised:
        keeps.load(path)
    assert error_words(raised.value, language("en")).startswith("the table of keeps is not in the form `crib model "
                                                                "--keeps` writes (each role needs ")
    path.write_text("{")
    with pytest.raises(InputError) as raised:
        keeps.load(path)
    assert error_words(raised.value, language("en")).startswith("the table of keeps is not JSON (")


def test_the_pro_expects_the_opponent_to_hold_what_he_would_have_kept() -> None:
    # The pone's six cards are all the pro has not seen: he holds the four the table keeps from them.
    dealt = parse_cards("5H 5D 6C JS 4S QD")
    expected = keeps.load().kept(ranks(dealt), dealer=False)
    view = PlayView(tuple(parse_cards("2C 3C 7C 8C")), (), tuple(dealt), 4, dealer=True)
    holdings, _ = opponent_holdings(view, 32, random.Random(1))
    assert {hand for hand, _, _ in holdings} == {expected}
    # He has led one of them: the other three are what he holds.
    led = next(c for c in dealt if c.rank == expected[0])
    view = PlayView(view.hand, (led,), tuple(c for c in dealt if c != led), 3, dealer=True,
                    opponent_moves=(((), led),))
    holdings, _ = opponent_holdings(view, 32, random.Random(1))
    assert {hand for hand, _, _ in holdings} == {expected[1:]}


def test_in_other_deals_his_hand_is_drawn_from_the_unseen_cards() -> None:
    # Three players are dealt five cards each and lay one away: the table of six-card keeps does not apply.
    dealt = parse_cards("5H 5D 6C JS 4S QD")
    view = PlayView(tuple(parse_cards("2C 3C 7C 8C")), (), tuple(dealt), 4, dealer=True, variant="three")
    holdings, _ = opponent_holdings(view, 32, random.Random(1))
    assert len({hand for hand, _, _ in holdings}) > 1
