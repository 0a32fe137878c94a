"""The drawn deck, the photographs to teach it from and the shipped reader, made once for the session."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from companion.vision.index import CODES
from tests.vision.drawn import careful_photos, drawn_card


@pytest.fixture(scope="session")
def drawn_deck() -> dict[str, np.ndarray]:
    return {code: drawn_card(code) for code in CODES}


@pytest.fixture(scope="session")
def teaching_photos(drawn_deck, tmp_path_factory) -> tuple[dict[str, Path], dict[str, Any]]:
    """The drawn deck's careful photographs to teach from, and the random generator's state after them (they take
    4.7 s of CPU, teaching from them 0.8: the reader's taught deck and `crib recognize --learn` share them)."""
    rng = np.random.default_rng(3)
    photos = careful_photos(drawn_deck, rng, tmp_path_factory.mktemp("photos"))
    return photos, rng.bit_generator.state


@pytest.fixture(scope="session")
def recognizer():
    from companion.vision import Recognizer

    return Recognizer.load()
