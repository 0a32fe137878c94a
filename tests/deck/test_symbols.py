from __future__ import annotations

import pytest
import zxingcpp
from PIL import Image, ImageDraw

from companion.deck.symbols import Symbol, Symbology, make_symbol, rectangles
from companion.entry.barcodes import all_payloads


def draw(symbol: Symbol, module_px: int = 4) -> Image.Image:
    """The symbol from its rectangles alone, with its quiet zone: what the PDF draws, as pixels."""
    quiet = symbol.symbology.quiet_zone
    height = symbol.height if not symbol.symbology.linear else 20
    image = Image.new("L", (symbol.span * module_px, (height + 2 * quiet) * module_px), 255)
    pen = ImageDraw.Draw(image)
    for x, y, w, h in rectangles(symbol):
        rows = height if symbol.symbology.linear else h
        left, top = (x + quiet) * module_px, (y + quiet) * module_px
        pen.rectangle((left, top, left + w * module_px - 1, top + rows * module_px - 1), fill=0)
    return image


@pytest.mark.parametrize("symbology", list(Symbology))
def test_every_payload_reads_back_from_its_rectangles(symbology: Symbology) -> None:
    for payload in all_payloads():
        found = zxingcpp.read_barcodes(draw(make_symbol(payload, symbology)), formats=symbology.zxing_format)
        assert [b.text for b in found] == [payload]


def test_every_payload_fits_the_smallest_datamatrix() -> None:
    sizes = {(s.width, s.height) for s in (make_symbol(p, Symbology.DATAMATRIX) for p in all_payloads())}
    assert sizes == {(10, 10)}


def test_code128_is_one_row_of_bars_with_a_wide_quiet_zone() -> None:
    symbol = make_symbol("C5H", Symbology.CODE128)
    assert symbol.height == 1
    assert symbol.width == 68  # start, three characters, check character: 11 modules each; stop 13
    assert symbol.span == 88
    assert all(h == 1 and y == 0 for _, y, _, h in rectangles(symbol))


def test_rectangles_cover_exactly_the_dark_modules() -> None:
    symbol = make_symbol("CTD", Symbology.QR)
    covered = {(x + dx, y + dy) for x, y, w, h in rectangles(symbol) for dx in range(w) for dy in range(h)}
    dark = {(x, y) for y, row in enumerate(symbol.rows) for x, on in enumerate(row) if on}
    assert covered == dark
    assert len(rectangles(symbol)) < len(dark)  # merged, not one square per module
