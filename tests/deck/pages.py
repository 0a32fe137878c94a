"""Rasterising a printed deck and reading its barcodes back, as a camera-based scanner would."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from collections import Counter
from pathlib import Path

import pytest
import zxingcpp
from PIL import Image, ImageFilter

from companion.deck.symbols import Symbology


def rasterise(pdf: Path, dpi: int, *, color: bool = False) -> list[Image.Image]:
    if shutil.which("pdftoppm") is None:
        pytest.fail("pdftoppm is missing: apt-get install poppler-utils (python3 dev.py test installs it)")
    with tempfile.TemporaryDirectory() as folder:
        mode = [] if color else ["-gray"]
        subprocess.run(["pdftoppm", "-r", str(dpi), *mode, "-png", str(pdf), f"{folder}/page"], check=True)
        return [Image.open(path).copy() for path in sorted(Path(folder).glob("page-*.png"))]


def blur(page: Image.Image, dpi: int, mm: float) -> Image.Image:
    """A Gaussian blur `mm` wide (its standard deviation), like a cheap scanner's focus."""
    return page.filter(ImageFilter.GaussianBlur(mm * dpi / 25.4))


def read_codes(pages: list[Image.Image], symbology: Symbology) -> Counter[str]:
    return Counter(b.text for page in pages for b in zxingcpp.read_barcodes(page, formats=symbology.zxing_format))
