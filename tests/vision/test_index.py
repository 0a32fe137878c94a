import numpy as np
import pytest

from companion.vision.index import percentiles


@pytest.mark.parametrize("rows", [1, 3, 8])
def test_percentiles_are_numpys_to_the_last_bit(rows):
    rng = np.random.default_rng(rows)
    values = rng.integers(0, 256, (rows, 2047), dtype=np.uint8)
    values[0, :1500] = 7  # ties, and ranks that fall between two values
    shares = (0.0, 5.0, 37.3, 50.0, 90.0, 99.5, 100.0)
    assert percentiles(values, shares).tobytes() == np.percentile(values, shares, axis=-1).tobytes()
    assert percentiles(values[0], shares).tobytes() == np.percentile(values[0], shares).tobytes()
