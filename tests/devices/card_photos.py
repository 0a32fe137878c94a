"""Photographs of ordinary cards for the camera tests: a card of a deck Debian ships (kdegames-card-data-kf5's
"Nicu White", rendered from its SVG by rsvg-convert, as companion/vision's training renders its decks) held over a
wooden table, turned a little, as a camera 640x480 sees it. Nothing is shipped: the cards are rendered when a test
first needs them (a third of a second a card) and kept in the user's cache, as companion/vision keeps its renders."""

from __future__ import annotations

import gzip
import os
import shutil
import subprocess
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageFilter

DECK = Path("/usr/share/carddecks/svg-nicu-white/white.svgz")
RENDERS = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "cribbage-companion" / "test-cards"
SIZE = (640, 480)
_RANK_WORDS = {"A": "1", "J": "jack", "Q": "queen", "K": "king"}
_SUIT_WORDS = {"C": "club", "D": "diamond", "H": "heart", "S": "spade"}

needs_cards = pytest.mark.skipif(not DECK.is_file() or shutil.which("rsvg-convert") is None,
                                 reason="the card decks (kdegames-card-data-kf5) and rsvg-convert (librsvg2-bin) "
                                        "are not installed")


@cache
def _svg() -> bytes:
    return gzip.decompress(DECK.read_bytes())


@cache
def render(code: str) -> Image.Image:
    """The card face, RGBA, cropped to the card (rendered once a machine: the deck's size is in the file's name)."""
    kept = RENDERS / f"{DECK.parent.name}-{DECK.stat().st_size}" / f"{code}.png"
    if not kept.is_file():
        element = f"{_RANK_WORDS.get(code[:-1], code[:-1])}_{_SUIT_WORDS[code[-1]]}"
        png = subprocess.run(["rsvg-convert", "-z", "1", "-i", element], input=_svg(), check=True,
                             capture_output=True).stdout
        kept.parent.mkdir(parents=True, exist_ok=True)
        partial = kept.with_name(f"{code}.{os.getpid()}.part")  # two workers may render the same card
        partial.write_bytes(png)
        partial.replace(kept)
    card = Image.open(kept).convert("RGBA")
    return card.crop(card.getchannel("A").point(lambda a: 255 if a > 16 else 0).getbbox())


@cache
def _grain() -> np.ndarray:
    """The wood's grain, the same on every table."""
    width, height = SIZE
    y, x = np.mgrid[0:height, 0:width].astype(np.float32)
    return 0.85 + 0.1 * np.sin(y / 5 + 3 * np.sin(x / 90))


def table(seed: int = 0) -> Image.Image:
    """An empty wooden table."""
    rng = np.random.default_rng(seed)
    width, height = SIZE
    grain = _grain() + rng.normal(0, 0.03, (height, width))
    wood = np.array([160, 110, 70], np.float32)  # RGB
    return Image.fromarray(np.clip(wood * grain[..., None], 0, 255).astype(np.uint8))


def photo(code: str, seed: int = 0, *, blur: float = 0.0) -> Image.Image:
    """The card held over the table (RGB), its size, turn and place drawn from `seed`; `blur` puts it out of
    focus."""
    rng = np.random.default_rng(seed)
    width, height = SIZE
    picture = table(seed)
    card = render(code)
    tall = int(height * rng.uniform(0.6, 0.75))
    card = card.resize((round(card.width * tall / card.height), tall), Image.Resampling.LANCZOS)
    card = card.rotate(rng.uniform(-12, 12), expand=True, resample=Image.Resampling.BICUBIC)
    left = (width - card.width) // 2 + int(rng.integers(-60, 60))
    top = (height - card.height) // 2 + int(rng.integers(-20, 20))
    picture.paste(card, (left, top), card)
    return picture.filter(ImageFilter.GaussianBlur(blur)) if blur else picture


def frame(picture: Image.Image) -> np.ndarray:
    """A picture as a camera frame: BGR, as OpenCV and the recognizer take it."""
    return np.ascontiguousarray(np.asarray(picture.convert("RGB"), dtype=np.uint8)[:, :, ::-1])
