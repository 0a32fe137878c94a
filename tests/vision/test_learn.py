"""Teaching a deck: what the teaching walk makes of each photo (the card found in it, and whether its index reads
as the card), and the photos that read as another card named, and taught all the same."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision import learn
from companion.vision.find import CARD_H, CARD_W
from companion.vision.index import IndexNet
from companion.vision.reader import DECK_FILE, TeachingPhoto, teaching_photo
from companion.vision.synth import scene
from tests.vision.drawn import DATA, cv2, nine_with_a_sixs_index


@pytest.fixture(scope="module")
def net() -> IndexNet:
    return IndexNet.load()


def test_a_teaching_photo_reads_as_its_card_or_names_the_card_it_looks_like(net):
    found = teaching_photo(net, cv2.imread(str(DATA / "AS.jpg")))
    assert found is not None and found.card.shape == (CARD_H, CARD_W, 3)
    assert found.confirms("AS") and found.looks_like("AS") is None
    assert not found.confirms("3C") and found.looks_like("3C") == "AS"  # A♠ held up when 3♣ was asked for


def test_a_photo_of_the_table_alone_has_no_card_to_teach(net):
    assert teaching_photo(net, cv2.imread(str(DATA / "table.jpg"))) is None


def test_a_card_read_unsurely_as_another_is_not_said_to_look_like_it(net):
    found = teaching_photo(net, cv2.imread(str(DATA / "AS.jpg")))
    assert found is not None
    unsure = TeachingPhoto(found.card, "9D", 0.39)  # the drawn deck's 8♦, as the shipped model reads it
    assert not unsure.confirms("8D") and unsure.looks_like("8D") is None  # the page: "cannot read 8♦"
    assert TeachingPhoto(found.card, None, 0.0).looks_like("8D") is None  # no index read at all


def test_a_nine_whose_index_reads_six_is_taught_as_nine_by_its_pips_without_asking(net):
    card = nine_with_a_sixs_index()
    rng = np.random.default_rng(1)
    found = [teaching_photo(net, scene(rng, [card], careful=True)[0]) for _ in range(3)]
    assert sum(f is not None and f.confirms("9S") for f in found) >= 2  # the page does not ask "looks like 6♠?"


@pytest.mark.slow
def test_teaching_names_the_photos_that_read_as_another_card_and_teaches_them_all_the_same(net, teaching_photos,
                                                                                           tmp_path):
    photos, _ = teaching_photos
    swapped = photos | {"AS": photos["2D"], "2D": photos["AS"]}  # each photo under the other's name
    doubtful = learn(swapped, tmp_path / "deck", net=net)
    assert doubtful["AS"].looks_like("AS") == "2D" and doubtful["2D"].looks_like("2D") == "AS"
    for code, photo in swapped.items():
        found = teaching_photo(net, cv2.imread(str(photo)))
        assert found is not None and (code in doubtful) == (found.reads != code)
    assert (tmp_path / "deck" / DECK_FILE).is_file()  # taught all the same: the drawn deck's misread indices too
