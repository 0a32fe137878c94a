"""The training's parts and the network it ships: where a deck's indices are, views of its cards, decks drawn
from fonts, the numpy network's arithmetic, a small network fitted with PyTorch (only where the `train` extra is
installed: the board and its tests read with numpy alone), and the shipped model on photographs of the design
it never saw (the real training takes a while: `python -m companion.vision.train`)."""

from __future__ import annotations

import argparse
import json

import numpy as np
import pytest

from companion.vision import CardReading
from companion.vision.index import CHANNELS, CODES, MODEL, NO_INDEX, PATCH_H, PATCH_W, RANKS, IndexNet, _conv3
from companion.vision.train import (
    FIGURES,
    FOLDS_FILE,
    KEPT_OUT,
    Design,
    Progress,
    Readings,
    _at,
    _index_corners,
    calibrate,
    fit,
    measure_again,
    views,
)
from tests.vision.drawn import DATA

pytest.importorskip("cv2", reason="the card reader needs the vision extra (python3 dev.py test installs it)")


def test_the_drawn_deck_has_its_index_top_left(drawn_deck):
    assert _index_corners(drawn_deck) == (True, False)


def test_views_of_a_deck_label_each_corner_with_its_rank_and_suit_or_no_index(drawn_deck):
    design = Design("drawn", drawn_deck, (True, False))
    feats, ranks, suits = views([design], per_card=1, seed=0, progress=lambda done, total: None)
    assert feats.shape == (len(ranks), CHANNELS * PATCH_H * PATCH_W) and len(ranks) == len(suits) >= 4 * 52
    assert set(ranks) == {*range(len(RANKS)), NO_INDEX}
    assert (suits[ranks == NO_INDEX] == -1).all() and (suits[ranks < NO_INDEX] >= 0).all()


def test_a_deck_drawn_from_fonts_has_an_index_in_its_corners_that_differs_from_card_to_card():
    from companion.vision.render import font_deck, fonts

    rank_fonts, suit_fonts = fonts()
    assert rank_fonts and suit_fonts
    cards, corners = font_deck(np.random.default_rng(3), rank_fonts, suit_fonts)
    assert sorted(cards) == sorted(CODES)
    assert all(card.shape[2] == 4 and 1.3 < card.shape[0] / card.shape[1] < 1.5 for card in cards.values())
    assert corners[0] and _index_corners(cards)[0]


@pytest.mark.parametrize("stride", [1, 2])
def test_the_numpy_convolution_is_a_three_by_three_convolution_with_zero_padding(stride):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(2, 3, 5, 4)).astype(np.float32)
    weights = rng.normal(size=(4, 3, 3, 3)).astype(np.float32)
    padded = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    expected = np.zeros((2, 4, 5, 4), np.float32)
    for n, o, i, j in np.ndindex(expected.shape):
        expected[n, o, i, j] = (padded[n, :, i:i + 3, j:j + 3] * weights[o]).sum()
    assert np.allclose(_conv3(x, weights, stride), expected[:, :, ::stride, ::stride], atol=1e-4)


@pytest.mark.slow
def test_a_small_network_learns_the_views_of_a_drawn_deck(drawn_deck, tmp_path):
    pytest.importorskip("torch", reason="training needs PyTorch, the `train` extra (pip install -e '.[train]')")
    design = Design("drawn", drawn_deck, (True, False))
    feats, ranks, suits = views([design], per_card=1, seed=0, progress=lambda done, total: None)
    net = fit(feats, ranks, suits, seed=0, epochs=40)
    net.save(tmp_path / "model.npz")
    rank_p, suit_p = IndexNet.load(tmp_path / "model.npz").probabilities(feats.astype(np.float32))
    assert (rank_p.argmax(axis=1) == ranks).mean() > 0.9
    has_suit = suits >= 0
    assert (suit_p.argmax(axis=1)[has_suit] == suits[has_suit]).mean() > 0.9


def test_the_shipped_model_reads_each_photograph_of_the_design_it_never_saw(recognizer):
    figures = json.loads(FIGURES.read_text())
    assert KEPT_OUT not in figures["trained_on"]
    for photo in sorted(DATA.glob("*.jpg")):
        codes = [] if photo.stem == "table" else photo.stem.split("+")
        assert sorted(r.code for r in recognizer.read_bytes(photo.read_bytes())) == sorted(codes), photo.name


def test_the_shipped_thresholds_are_those_calibrated_on_designs_left_out():
    figures = json.loads(FIGURES.read_text())
    net = IndexNet.load()
    assert (round(net.sure, 4), round(net.sure_taught, 4)) == (round(figures["sure"], 4),
                                                               round(figures["sure_taught"], 4))
    assert figures["all"]["wrong_sure"] <= 0.002


def test_sure_is_calibrated_so_that_no_held_out_reading_is_wrong_and_sure():
    readings = Readings(["AS"] * 1001, ["AS"] * 990 + ["2S"] * 11,
                        [0.99] * 900 + [0.98] * 45 + [0.96] * 45 + [0.6] * 9 + [0.95, 0.97],
                        [True] * 945 + [False] * 45 + [True] * 10 + [False])  # False: corners that disagree
    threshold = calibrate([readings])
    assert threshold == 0.98  # above every wrong reading, even one the corners' disagreement keeps from being sure
    assert readings.wrong_sure(threshold) == 0 and readings.sure_share(threshold) == 945 / 1001


def test_the_reading_counted_is_the_photographed_cards_not_a_neighbours_whose_box_holds_its_centre():
    card = np.array([[300, 100], [400, 100], [400, 240], [300, 240]], np.float32)
    neighbour = CardReading("6C", 0.99, True, (120, 60, 420, 470))  # found, slanted: its box holds the card's centre
    assert _at([neighbour], card) == []
    own = CardReading("QD", 0.8, False, (296, 104, 404, 236))
    assert _at([neighbour, own], card) == [own]


def test_measuring_again_needs_the_fold_networks_of_the_training_that_made_the_model(tmp_path, capsys):
    args = argparse.Namespace(fold_dir=tmp_path, out=MODEL, figures=tmp_path / "figures.json", photos=2)
    assert measure_again([], [], args, Progress()) == 2
    assert "train first" in capsys.readouterr().err
    (tmp_path / FOLDS_FILE).write_text(json.dumps({"model": "another training", "folds": [["standard"]]}))
    assert measure_again([], [], args, Progress()) == 2
    assert "train again" in capsys.readouterr().err
    assert not args.figures.exists()
