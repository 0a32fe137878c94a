"""Golden images: the OLED pictures the tests expect, pixel for pixel.

Compare with `assert_golden(image, "name")`. When a change to the screen is intended, regenerate them:

    REGENERATE_GOLDEN=1 .venv/bin/pytest tests/view tests/table/test_table.py

and look at the new PNG files (`git diff --stat tests/golden`, open them) before committing.
"""

from __future__ import annotations

import os
from pathlib import Path

from PIL import Image, ImageChops

GOLDEN = Path(__file__).parent


def assert_golden(image: Image.Image, name: str) -> None:
    path = GOLDEN / f"{name}.png"
    if os.environ.get("REGENERATE_GOLDEN"):
        image.convert("1").save(path)
        return
    assert path.exists(), f"no golden image {path}: make it with REGENERATE_GOLDEN=1 and look at it"
    expected = Image.open(path).convert("1")
    assert expected.size == image.size, f"{name}: the image is {image.size}, the golden one {expected.size}"
    difference = ImageChops.difference(expected.convert("L"), image.convert("L")).getbbox()
    assert difference is None, (
        f"{name}: the screen differs from {path} in the box {difference}; if the change is intended, "
        "regenerate with REGENERATE_GOLDEN=1 and look at the new image"
    )
