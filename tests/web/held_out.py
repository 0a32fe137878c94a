"""Photographs of a deck the card reader never saw (a fixture module, not tests): letele's design, kept out of
the reader's training (companion/vision/train.py's KEPT_OUT), rendered by companion.vision.render and held over a
table as companion.vision.synth's scenes lay a card out, 640x480."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image, ImageFilter

from companion.vision.render import cache_dir
from companion.vision.train import KEPT_OUT

RENDERS = cache_dir() / "renders" / KEPT_OUT

needs_renders = pytest.mark.skipif(not (RENDERS / "AS.png").is_file(),
                                   reason=f"{KEPT_OUT}'s card renders are not made (crib recognize --train makes them)")


def held_up(code: str, seed: int, *, blur: float = 0.0) -> Image.Image:
    """`code` held over a table (RGB), placed by `seed`; `blur` puts it out of focus."""
    from companion.vision.synth import scene, to_bgra

    rgba = np.asarray(Image.open(RENDERS / f"{code}.png").convert("RGBA"))
    frame, _ = scene(np.random.default_rng(seed), [to_bgra(rgba)], careful=True)
    picture = Image.fromarray(np.ascontiguousarray(frame[:, :, ::-1]))
    return picture.filter(ImageFilter.GaussianBlur(blur)) if blur else picture


def empty_table() -> Image.Image:
    from companion.vision.synth import table

    return Image.fromarray(np.ascontiguousarray(table(np.random.default_rng(0), 480, 640)[:, :, ::-1]))
