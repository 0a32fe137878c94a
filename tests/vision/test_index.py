import numpy as np
import pytest

from companion.vision.find import CARD_H, CARD_W
from companion.vision.index import _pool, card_features, corner, features, percentiles


@pytest.mark.parametrize("rows", [1, 3, 8])
def test_percentiles_are_numpys_to_the_last_bit(rows):
    rng = np.random.default_rng(rows)
    values = rng.integers(0, 256, (rows, 2047), dtype=np.uint8)
    values[0, :1500] = 7  # ties, and ranks that fall between two values
    shares = (0.0, 5.0, 37.3, 50.0, 90.0, 99.5, 100.0)
    assert percentiles(values, shares).tobytes() == np.percentile(values, shares, axis=-1).tobytes()
    assert percentiles(values[0], shares).tobytes() == np.percentile(values[0], shares).tobytes()


def test_a_cards_corners_read_together_have_the_features_each_has_alone():
    rng = np.random.default_rng(4)
    cards = [rng.integers(0, 256, (CARD_H, CARD_W, 3), dtype=np.uint8) for _ in range(2)]
    alone = [features(corner(turned, right)) for card in cards for turned in (card, card[::-1, ::-1])
             for right in (False, True)]
    assert card_features(*cards).tobytes() == np.stack(alone).tobytes()


@pytest.mark.parametrize(("height", "width"), [(4, 6), (5, 7)])
def test_the_max_pool_keeps_the_greatest_of_each_two_by_two_block(height, width):
    x = np.random.default_rng(height).normal(size=(2, 3, height, width)).astype(np.float32)
    blocks = x[:, :, :height // 2 * 2, :width // 2 * 2].reshape(2, 3, height // 2, 2, width // 2, 2)
    assert np.array_equal(_pool(x), blocks.max(axis=(3, 5)))


def test_a_card_not_rectified_to_the_cards_size_is_refused():
    with pytest.raises(ValueError, match="rectified"):
        card_features(np.zeros((150, 224, 3), np.uint8))
