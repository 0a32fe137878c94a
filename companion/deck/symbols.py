"""Barcode symbols as module grids, made by zxing-cpp and drawn as vector rectangles.

A `Symbol` is the dark/light module grid without its quiet zone; `rectangles` turns it into the fewest
axis-aligned rectangles (in module units), which the PDF draws as vectors, never as a bitmap.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import zxingcpp


class Symbology(enum.Enum):
    DATAMATRIX = "datamatrix"
    CODE128 = "code128"
    QR = "qr"

    @property
    def linear(self) -> bool:
        return self is Symbology.CODE128

    @property
    def quiet_zone(self) -> int:
        """Light modules on each side, as ISO/IEC 16022, 15417 and 18004 ask; labels add their padding."""
        return _QUIET_ZONES[self]

    @property
    def min_module_mm(self) -> float:
        """The narrowest module that prints and scans reliably: 3 dots at 300 dpi; 7.5 mil for Code 128."""
        return 0.19 if self.linear else 0.25

    @property
    def zxing_format(self) -> zxingcpp.BarcodeFormat:
        import zxingcpp  # the [print] extra: imported by what prints, not by `crib print-deck --help`

        return zxingcpp.BarcodeFormat[_FORMATS[self]]


_QUIET_ZONES = {Symbology.DATAMATRIX: 1, Symbology.CODE128: 10, Symbology.QR: 4}
_FORMATS = {Symbology.DATAMATRIX: "DataMatrix", Symbology.CODE128: "Code128", Symbology.QR: "QRCode"}


@dataclass(frozen=True, slots=True)
class Symbol:
    """One barcode: `rows` of modules (True = dark), without the quiet zone. A linear symbol has one row."""

    payload: str
    symbology: Symbology
    rows: tuple[tuple[bool, ...], ...]

    @property
    def width(self) -> int:
        return len(self.rows[0])

    @property
    def height(self) -> int:
        return len(self.rows)

    @property
    def span(self) -> int:
        """Modules across including both quiet zones: what a label must make room for."""
        return self.width + 2 * self.symbology.quiet_zone


def make_symbol(payload: str, symbology: Symbology) -> Symbol:
    import zxingcpp

    barcode = zxingcpp.create_barcode(payload, symbology.zxing_format)
    image = barcode.to_image(scale=1, add_quiet_zones=False)
    height, width = image.shape
    pixels = bytes(memoryview(image))  # type: ignore[arg-type]  # zxingcpp.Image is a buffer; its stub says not
    rows = tuple(tuple(pixels[y * width + x] < 128 for x in range(width)) for y in range(height))
    # zxing draws Code 128 bars 50 modules tall: one row says everything, the label chooses the height.
    return Symbol(payload, symbology, rows[:1] if symbology.linear else rows)


def rectangles(symbol: Symbol) -> list[tuple[int, int, int, int]]:
    """The dark modules as (x, y, width, height) rectangles: runs along each row, stacked while a run
    repeats in the next row, so touching modules never leave hairline seams between separate shapes."""
    done: list[tuple[int, int, int, int]] = []
    open_runs: dict[tuple[int, int], int] = {}  # (x, width) -> first row
    for y, row in enumerate(symbol.rows):
        runs = set(_runs(row))
        for run in [r for r in open_runs if r not in runs]:
            start = open_runs.pop(run)
            done.append((run[0], start, run[1], y - start))
        for run in runs:
            open_runs.setdefault(run, y)
    done += [(x, start, w, symbol.height - start) for (x, w), start in open_runs.items()]
    return sorted(done, key=lambda r: (r[1], r[0]))


def _runs(row: tuple[bool, ...]) -> list[tuple[int, int]]:
    runs: list[tuple[int, int]] = []
    start = None
    for x, dark in enumerate((*row, False)):
        if dark and start is None:
            start = x
        elif not dark and start is not None:
            runs.append((start, x - start))
            start = None
    return runs
