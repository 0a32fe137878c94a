"""The drawn deck and the shipped reader, made once for the session."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision.index import CODES
from tests.vision.drawn import drawn_card


@pytest.fixture(scope="session")
def drawn_deck() -> dict[str, np.ndarray]:
    return {code: drawn_card(code) for code in CODES}


@pytest.fixture(scope="session")
def recognizer():
    from companion.vision import Recognizer

    return Recognizer.load()
