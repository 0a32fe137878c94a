"""The training's parts on a deck drawn here: where its indices are, views of its cards, a small network fitted
to them (a smoke test: the real training takes minutes, `python -m companion.vision.train`)."""

from __future__ import annotations

import pytest

from companion.vision.index import NO_INDEX, RANKS
from companion.vision.train import Design, Readings, _index_corners, calibrate, fit, views

pytest.importorskip("cv2", reason="the card reader needs the vision extra (python3 dev.py test installs it)")


def test_the_drawn_deck_has_its_index_top_left(drawn_deck):
    assert _index_corners(drawn_deck) == (True, False)


def test_a_small_network_learns_the_views_of_a_drawn_deck(drawn_deck):
    design = Design("drawn", drawn_deck, (True, False))
    feats, ranks, suits = views([design], per_card=1, seed=0, progress=lambda done, total: None)
    assert feats.shape[0] == len(ranks) == len(suits) and feats.shape[0] >= 4 * 52
    assert set(ranks) == {*range(len(RANKS)), NO_INDEX}
    net = fit(feats, ranks, suits, seed=0, epochs=30)
    rank_p, suit_p = net.probabilities(feats)
    assert (rank_p.argmax(axis=1) == ranks).mean() > 0.9
    has_suit = suits >= 0
    assert (suit_p.argmax(axis=1)[has_suit] == suits[has_suit]).mean() > 0.9


def test_sure_is_calibrated_so_that_wrong_readings_are_rarely_sure():
    readings = Readings(["AS"] * 1000, ["AS"] * 990 + ["2S"] * 10, [0.99] * 990 + [0.6] * 9 + [0.95])
    threshold = calibrate([readings])
    assert threshold == 0.95
    assert readings.wrong_sure(threshold) <= 0.001 and readings.sure_share(threshold) >= 0.99
