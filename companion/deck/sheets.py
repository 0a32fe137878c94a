"""Where the labels go: pages, label-sheet presets with their published dimensions, custom grids.

All lengths are millimetres, origin at the top-left corner of the page.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from companion.base.usage import CommandError
from companion.i18n import N_, _

INCH = 25.4
PAPERS: dict[str, tuple[float, float]] = {"a4": (210.0, 297.0), "letter": (8.5 * INCH, 11 * INCH)}
PAPER_NAMES = {"a4": "A4", "letter": "US Letter"}
FIT_TOLERANCE = 0.5  # mm: published sheet dimensions are rounded to a tenth


@dataclass(frozen=True, slots=True)
class Sheet:
    """A grid of equal labels on one page: `columns` x `rows` labels of `label` size, the first one's
    top-left corner at (`left`, `top`), the next ones `pitch` apart (label size plus the gap)."""

    name: str
    paper: str
    columns: int
    rows: int
    label: tuple[float, float]
    top: float
    left: float
    pitch: tuple[float, float]

    @property
    def page(self) -> tuple[float, float]:
        return PAPERS[self.paper]

    @property
    def per_page(self) -> int:
        return self.columns * self.rows

    def positions(self) -> Iterator[tuple[float, float]]:
        """The top-left corner of each label, row by row."""
        for row in range(self.rows):
            for column in range(self.columns):
                yield self.left + column * self.pitch[0], self.top + row * self.pitch[1]

    def describe(self) -> str:
        w, h = self.label
        return _("{name}: {paper}, {grid} labels of {label} mm").format(
            name=self.name, paper=PAPER_NAMES[self.paper], grid=f"{self.columns}x{self.rows}", label=f"{w:.1f}x{h:.1f}")

    def check_fits(self) -> None:
        page_w, page_h = self.page
        need_w = max(self.left, 0) + (self.columns - 1) * self.pitch[0] + self.label[0]
        need_h = max(self.top, 0) + (self.rows - 1) * self.pitch[1] + self.label[1]
        if need_w > page_w + FIT_TOLERANCE or need_h > page_h + FIT_TOLERANCE:
            raise CommandError(_(
                "{grid} labels of {label} mm need {need} mm but {paper} is {page} mm: use fewer or smaller labels, "
                "smaller margins, or the other --paper").format(
                    grid=f"{self.columns}x{self.rows}", label=f"{self.label[0]:g}x{self.label[1]:g}",
                    need=f"{need_w:.1f}x{need_h:.1f}", paper=PAPER_NAMES[self.paper],
                    page=f"{page_w:.1f}x{page_h:.1f}"))


def _avery(name: str, paper: str, grid: tuple[int, int], label: tuple[float, float], *, top: float, left: float,
           pitch: tuple[float, float], scale: float = 1.0) -> Sheet:
    return Sheet(name, paper, *grid, (label[0] * scale, label[1] * scale), top * scale, left * scale,
                 (pitch[0] * scale, pitch[1] * scale))


# Dimensions as Avery publishes them (A4 sheets in mm, US Letter sheets in inches). Most brands sell the
# same grids under their own numbers: check the code printed on the packet for "L7651 compatible" etc.
PRESETS: dict[str, Sheet] = {s.name: s for s in (
    _avery("L7651", "a4", (5, 13), (38.1, 21.2), top=10.7, left=4.7, pitch=(40.6, 21.2)),
    _avery("L7160", "a4", (3, 7), (63.5, 38.1), top=15.1, left=7.2, pitch=(66.0, 38.1)),
    _avery("L7163", "a4", (2, 7), (99.1, 38.1), top=15.1, left=4.7, pitch=(101.6, 38.1)),
    _avery("5160", "letter", (3, 10), (2.625, 1.0), top=0.5, left=0.1875, pitch=(2.75, 1.0), scale=INCH),
    _avery("5167", "letter", (4, 20), (1.75, 0.5), top=0.5, left=0.3, pitch=(2.05, 0.5), scale=INCH),
)}
DEFAULT_SHEETS = {"a4": "L7651", "letter": "5160"}


def preset(name: str) -> Sheet:
    for key, sheet in PRESETS.items():
        if key.lower() == name.strip().lower().removeprefix("avery").strip():
            return sheet
    raise CommandError(_("no label sheet called {name!r}: choose one of {sheets} or describe yours with --grid, "
                         "--label and --margins").format(name=name, sheets=", ".join(PRESETS)))


def custom_sheet(paper: str, grid: str, label: str, margins: str | None = None, gaps: str | None = None) -> Sheet:
    """A grid from the command line: grid "5x13", label "38.1x21.2", margins "TOP,LEFT", gaps "ACROSS,DOWN".
    Without margins the grid is centred; without gaps, margins leave the same space right and below."""
    columns, rows = _numbers(grid, "x", "--grid", N_("COLUMNSxROWS, for example 5x13"), whole=True)
    width, height = _numbers(label, "x", "--label", N_("WIDTHxHEIGHT in mm, for example 38.1x21.2"))
    page_w, page_h = PAPERS[paper]
    if gaps is not None:
        gap_x, gap_y = _numbers(gaps, ",", "--gaps", N_("ACROSS,DOWN in mm, for example 2.5,0"), zero=True)
    if margins is None:
        if gaps is None:
            gap_x = gap_y = 0.0
        top = (page_h - rows * height - (rows - 1) * gap_y) / 2
        left = (page_w - columns * width - (columns - 1) * gap_x) / 2
    else:
        top, left = _numbers(margins, ",", "--margins", N_("TOP,LEFT in mm, for example 10.7,4.7"), zero=True)
        if gaps is None:
            gap_x = max((page_w - 2 * left - columns * width) / (columns - 1), 0.0) if columns > 1 else 0.0
            gap_y = max((page_h - 2 * top - rows * height) / (rows - 1), 0.0) if rows > 1 else 0.0
    sheet = Sheet("custom", paper, int(columns), int(rows), (width, height), top, left,
                  (width + gap_x, height + gap_y))
    sheet.check_fits()
    return sheet


def _numbers(text: str, separator: str, option: str, form: str, *, whole: bool = False,
             zero: bool = False) -> tuple[float, float]:
    number = r"\d+" if whole else r"\d+(?:\.\d*)?"
    match = re.fullmatch(rf"\s*({number})\s*{separator}\s*({number})\s*", text, re.IGNORECASE)
    values = (float(match[1]), float(match[2])) if match else None
    if values is None or (not zero and 0 in values):
        raise CommandError(_("{option} {text!r} is not understood: give {form}").format(option=option, text=text,
                                                                                         form=_(form)))
    return values
