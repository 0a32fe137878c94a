"""1:1 drilling templates as PDF: the board drawn in millimetres, tiled across A4 pages to tape together, or
on one sheet of the board's size for a print shop.

The drawing is in board millimetres (x right, y up the board, origin at the bottom-left hole, as in the
layout). A tiled template cuts it into cells; interior cell edges fall half a pitch between hole rows and
columns, so no hole is split between pages and each hole is drawn on exactly one page. Each page holds its
cell, a header (title, page label, map of the pages, the 100 mm scale bar) above it and a glue strip to its
right and below. To assemble: cut a page along its dashed edges (left, top), lay the cut edges on the
neighbours' solid edges, over their glue strips, so the tick marks run on across the seam, and tape.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from fpdf import FPDF

from companion.cribbage.rules import skunk_lines

from . import BoardLayout, Hole
from .template import HOLE_MM

A4 = (210.0, 297.0)
LETTER = (215.9, 279.4)
ISO_A = {"A4": A4, "A3": (297.0, 420.0), "A2": (420.0, 594.0), "A1": (594.0, 841.0), "A0": (841.0, 1189.0)}
MARGIN_MM = 8.0
"""Around each page: more than a home printer's unprintable edge."""
HEADER_MM = 16.0
GLUE_MM = 12.0
BOARD_EDGE_MM = 20.0
"""The board outline, this far beyond the outer holes (as in the SVG templates)."""
SCALE_BAR = (MARGIN_MM, MARGIN_MM + 7.0, 100.0, 1.5)
"""x, y of the top-left corner, width and height of the 100 mm scale bar on every page."""
CROSS_MM = 4.0
"""Half the length of each hole's crosshair arms: past the circle, so the punch mark is easy to place."""
TICK_EVERY_MM = 20.0
TICK_MM = 4.0
LABEL_EVERY = 5
PT_PER_MM = 72 / 25.4
CREATED = datetime(2024, 1, 1, tzinfo=UTC)
"""A fixed creation date keeps regenerated files byte for byte the same."""
BLACK = (0, 0, 0)
RED = (200, 0, 0)
GREY = (120, 120, 120)
BLUE = (0, 70, 170)


@dataclass(frozen=True, slots=True)
class Tile:
    """One page's cell of the drawing: its top-left corner in board millimetres (y up) and its size."""

    row: int
    column: int
    left: float
    top: float
    width: float
    height: float

    def holds(self, x: float, y: float) -> bool:
        """Whether a point belongs to this cell (left and top edges in, right and bottom edges out)."""
        return self.left <= x < self.left + self.width and self.top - self.height < y <= self.top


@dataclass(frozen=True, slots=True)
class Tiling:
    page: tuple[float, float]
    rows: int
    columns: int
    tiles: tuple[Tile, ...]
    """Row by row, top of the board first."""

    def on_page(self, tile: Tile, x: float, y: float) -> tuple[float, float]:
        """Where a board point lands on `tile`'s page, in millimetres from the page's top-left corner."""
        return MARGIN_MM + x - tile.left, MARGIN_MM + HEADER_MM + tile.top - y

    def tile_of(self, hole: Hole) -> Tile:
        return next(tile for tile in self.tiles if tile.holds(hole.x_mm, hole.y_mm))


def _extent(layout: BoardLayout) -> tuple[float, float, float, float]:
    """Left, bottom, right, top of the drawing in board millimetres: the outline with a little room."""
    xs = [h.x_mm for h in layout.holes]
    ys = [h.y_mm for h in layout.holes]
    room = BOARD_EDGE_MM + 2
    return min(xs) - room, min(ys) - room, max(xs) + room, max(ys) + room


def _cuts(low: float, high: float, cell: float, first_hole: float, pitch: float) -> list[float]:
    """Cell edges from `low` to `high`, at most `cell` apart, the inner ones half a pitch between holes."""
    edges = [low]
    while high - edges[-1] > cell:
        steps = math.floor((edges[-1] + cell - first_hole - pitch / 2) / pitch)
        edge = first_hole + pitch / 2 + steps * pitch
        edges.append(edge if edge > edges[-1] + pitch else edges[-1] + cell)
    return [*edges, high]


def _grid(layout: BoardLayout, cell: tuple[float, float]) -> tuple[list[float], list[float]]:
    left, bottom, right, top = _extent(layout)
    pitch = layout.pitch_mm
    xs = _cuts(left, right, cell[0], min(h.x_mm for h in layout.holes), pitch)
    # rows run down the board from its top: cut the mirrored axis the same way
    ys = [-y for y in _cuts(-top, -bottom, cell[1], -max(h.y_mm for h in layout.holes), pitch)]
    return xs, ys


def plan_tiles(layout: BoardLayout, paper: tuple[float, float] | None = A4) -> Tiling:
    """The pages for `layout`: on `paper` in whichever orientation takes fewer pages (portrait on a tie), or
    with `paper` None one page the size of the drawing."""
    if paper is None:
        left, bottom, right, top = _extent(layout)
        page = (right - left + 2 * MARGIN_MM, top - bottom + 2 * MARGIN_MM + HEADER_MM)
        return Tiling(page, 1, 1, (Tile(0, 0, left, top, right - left, top - bottom),))
    plans = []
    for page in (paper, paper[::-1]):
        cell = (page[0] - 2 * MARGIN_MM - GLUE_MM, page[1] - 2 * MARGIN_MM - HEADER_MM - GLUE_MM)
        xs, ys = _grid(layout, cell)
        tiles = tuple(Tile(r, c, xs[c], ys[r], xs[c + 1] - xs[c], ys[r] - ys[r + 1])
                      for r in range(len(ys) - 1) for c in range(len(xs) - 1))
        plans.append(Tiling(page, len(ys) - 1, len(xs) - 1, tiles))
    return min(plans, key=lambda plan: len(plan.tiles))


def smallest_iso_sheet(page: tuple[float, float]) -> str:
    """The smallest ISO A sheet a page fits on, either way round."""
    small, large = sorted(page)
    return next((name for name, (w, h) in ISO_A.items() if small <= w and large <= h), "a roll (larger than A0)")


def write_drilling_pdf(layout: BoardLayout, path: Path, paper: tuple[float, float] | None = A4) -> Tiling:
    """Write the template to `path` (see the module's description) and return its pages."""
    tiling = plan_tiles(layout, paper)
    pdf = FPDF(unit="mm", format=tiling.page)
    pdf.set_auto_page_break(False)
    pdf.set_margin(0)
    pdf.set_creation_date(CREATED)
    pdf.set_title(f"{layout.name} drilling template, LED pitch {layout.pitch_mm} mm")
    pdf.set_creator("python -m companion.boards")
    for tile in tiling.tiles:
        pdf.add_page()
        _Page(pdf, layout, tiling, tile).draw()
    pdf.output(str(path))
    return tiling


class _Page:
    def __init__(self, pdf: FPDF, layout: BoardLayout, tiling: Tiling, tile: Tile) -> None:
        self.pdf = pdf
        self.layout = layout
        self.tiling = tiling
        self.tile = tile
        self.places = {(h.track, h.score): h for h in layout.holes}

    def at(self, x: float, y: float) -> tuple[float, float]:
        return self.tiling.on_page(self.tile, x, y)

    def line(self, a: tuple[float, float], b: tuple[float, float]) -> None:
        self.pdf.line(*self.at(*a), *self.at(*b))

    def near(self, a: Hole, b: Hole) -> bool:
        """Whether the box spanned by two holes comes within a pitch of this page's cell."""
        tile, reach = self.tile, self.layout.pitch_mm
        return (min(a.x_mm, b.x_mm) - reach < tile.left + tile.width and max(a.x_mm, b.x_mm) + reach > tile.left
                and min(a.y_mm, b.y_mm) - reach < tile.top and max(a.y_mm, b.y_mm) + reach > tile.top - tile.height)

    def text(self, x: float, y: float, words: str, size_mm: float, *, color: tuple[int, int, int] = BLACK,
             align: str = "left") -> None:
        """`words` with their baseline's left end (middle, right end) at the board point, capitals `size_mm`
        tall."""
        self.pdf.set_font("helvetica", size=size_mm / 0.72 * PT_PER_MM)
        self.pdf.set_text_color(*color)
        px, py = self.at(x, y)
        px -= self.pdf.get_string_width(words) * {"left": 0, "centre": 0.5, "right": 1}[align]
        self.pdf.text(px, py, words)

    def draw(self) -> None:
        self.header()
        cell_x, cell_y = self.at(self.tile.left, self.tile.top)
        with self.pdf.rect_clip(cell_x, cell_y, self.tile.width, self.tile.height):
            self.outline()
            self.skunk_lines()
            self.led_arrows()
        holes = [h for h in self.layout.holes if self.tile.holds(h.x_mm, h.y_mm)]
        for hole in holes:
            self.hole(hole)
        if self.tiling.rows * self.tiling.columns > 1:
            self.seams()

    def header(self) -> None:
        pdf, layout, tile = self.pdf, self.layout, self.tile
        per_metre = round(1000 / layout.pitch_mm)
        if len(self.tiling.tiles) > 1:
            pages = f"row {tile.row + 1}, column {tile.column + 1} of {self.tiling.rows} x {self.tiling.columns} pages"
        else:
            width, height = self.tiling.page
            pages = f"one sheet, {width:.0f} x {height:.0f} mm: print on {smallest_iso_sheet(self.tiling.page)}"
        pdf.set_font("helvetica", "B", 9)
        pdf.set_text_color(*BLACK)
        pdf.text(MARGIN_MM, MARGIN_MM + 3.5, f"{layout.name}, {per_metre} LEDs/m ({layout.pitch_mm} mm): {pages}")
        x, y, width, height = SCALE_BAR
        pdf.set_fill_color(*BLACK)
        pdf.rect(x, y, width, height, style="F")
        pdf.set_line_width(0.2)
        pdf.set_draw_color(*BLACK)
        for mm in range(0, 101, 10):
            pdf.line(x + mm, y + height, x + mm, y + height + (2.5 if mm % 50 == 0 else 1.5))
        pdf.set_font("helvetica", size=7)
        pdf.text(x + width + 3, y + height, "print at 100%: this bar must measure 100 mm")
        pdf.text(x + width + 3, y + height + 3, f"drill {HOLE_MM:g} mm at every cross; red: start and game holes")
        self.page_map()

    def page_map(self) -> None:
        """The pages as a small grid at the header's right, this one filled."""
        rows, columns = self.tiling.rows, self.tiling.columns
        if rows * columns == 1:
            return
        size = min(3.0, (HEADER_MM - 3) / rows)
        left = self.tiling.page[0] - MARGIN_MM - columns * size
        self.pdf.set_line_width(0.15)
        self.pdf.set_draw_color(*GREY)
        self.pdf.set_fill_color(*GREY)
        for r in range(rows):
            for c in range(columns):
                here = (r, c) == (self.tile.row, self.tile.column)
                self.pdf.rect(left + c * size, MARGIN_MM + r * size, size, size, style="DF" if here else "D")

    def outline(self) -> None:
        xs = [h.x_mm for h in self.layout.holes]
        ys = [h.y_mm for h in self.layout.holes]
        left, right = min(xs) - BOARD_EDGE_MM, max(xs) + BOARD_EDGE_MM
        bottom, top = min(ys) - BOARD_EDGE_MM, max(ys) + BOARD_EDGE_MM
        x, y = self.at(left, top)
        self.pdf.set_line_width(0.4)
        self.pdf.set_draw_color(*BLACK)
        self.pdf.rect(x, y, right - left, top - bottom)
        self.text(left + 3, top - 6, f"board edge ({BOARD_EDGE_MM:g} mm beyond the holes)", 2.2, color=GREY)

    def skunk_lines(self) -> None:
        """A line across each track just past the last hole short of the line, the way the pegs travel."""
        target = self.layout.target
        self.pdf.set_line_width(0.5)
        self.pdf.set_draw_color(*BLUE)
        half = self.layout.pitch_mm / 2
        for score, words in zip(skunk_lines(target), ("skunk line", "double skunk line"), strict=True):
            if score < 2:
                continue
            ends = []
            for track in range(self.layout.tracks):
                before, last = self.places[track, score - 2], self.places[track, score - 1]
                dx, dy = last.x_mm - before.x_mm, last.y_mm - before.y_mm
                norm = math.hypot(dx, dy) or 1
                cx, cy = last.x_mm + dx / 2, last.y_mm + dy / 2
                ux, uy = -dy / norm * half, dx / norm * half
                self.line((cx - ux, cy - uy), (cx + ux, cy + uy))
                ends.append((max(cx - ux, cx + ux), cy))
            x, y = max(ends)
            self.text(x + 1, y + 0.8, f"{words} ({score})", 2.2, color=BLUE)

    def led_arrows(self) -> None:
        """Beside each straight run of the strip, a line from its first LED to its last with arrowheads every
        five holes pointing along the strip, and the first LED's number at its tail."""
        by_led = sorted(self.layout.holes, key=lambda h: h.led)
        runs: list[list[Hole]] = [[by_led[0]]]
        for hole in by_led[1:]:
            run = runs[-1]
            step = (hole.x_mm - run[-1].x_mm, hole.y_mm - run[-1].y_mm)
            straight = len(run) == 1 or math.dist(step, (run[-1].x_mm - run[-2].x_mm,
                                                        run[-1].y_mm - run[-2].y_mm)) < 0.01
            if straight and math.hypot(*step) < 2 * self.layout.pitch_mm:
                run.append(hole)
            else:
                runs.append([hole])
        self.pdf.set_line_width(0.2)
        self.pdf.set_draw_color(*GREY)
        self.pdf.set_fill_color(*GREY)
        side = min(0.35 * self.layout.pitch_mm, 6.0)
        for run in runs:
            first, last = run[0], run[-1]
            if not self.near(first, last):
                continue
            dx, dy = last.x_mm - first.x_mm, last.y_mm - first.y_mm
            norm = math.hypot(dx, dy) or 1
            ux, uy = dx / norm, dy / norm
            ox, oy = (-side, 0.0) if abs(uy) >= abs(ux) else (0.0, -side)  # left of columns, below rows
            self.line((first.x_mm + ox, first.y_mm + oy), (last.x_mm + ox, last.y_mm + oy))
            for hole in run[2::LABEL_EVERY]:
                self.arrowhead(hole.x_mm + ox - ux * self.layout.pitch_mm / 2,
                               hole.y_mm + oy - uy * self.layout.pitch_mm / 2, ux, uy)
            tail_y = first.y_mm - (6.0 if uy > 0 else -4.2)
            self.text(first.x_mm + ox - 0.6, tail_y, f"LED {first.led}", 1.8, color=GREY, align="right")

    def arrowhead(self, x: float, y: float, ux: float, uy: float) -> None:
        length, half = 2.2, 1.0
        tip = self.at(x + ux * length / 2, y + uy * length / 2)
        base = (x - ux * length / 2, y - uy * length / 2)
        wings = [self.at(base[0] - uy * half, base[1] + ux * half), self.at(base[0] + uy * half, base[1] - ux * half)]
        self.pdf.polygon([tip, *wings], style="F")

    def hole(self, hole: Hole) -> None:
        pdf, layout = self.pdf, self.layout
        x, y = self.at(hole.x_mm, hole.y_mm)
        special = hole.score in (0, layout.target)
        pdf.set_draw_color(*(RED if special else BLACK))
        pdf.set_line_width(0.25)
        pdf.circle(x, y, HOLE_MM / 2)
        pdf.set_draw_color(*BLACK)
        pdf.set_line_width(0.15)
        pdf.line(x - CROSS_MM, y, x + CROSS_MM, y)
        pdf.line(x, y - CROSS_MM, x, y + CROSS_MM)
        if special:
            # beyond the hole, away from its neighbour on the track
            other = self.places[hole.track, 1 if hole.score == 0 else layout.target - 1]
            dx, dy = hole.x_mm - other.x_mm, hole.y_mm - other.y_mm
            norm = math.hypot(dx, dy) or 1
            reach = HOLE_MM / 2 + 4.5
            self.text(hole.x_mm + dx / norm * reach, hole.y_mm + dy / norm * reach - 1.2,
                      "start" if hole.score == 0 else f"game {hole.score}", 2.4, color=RED, align="centre")
        elif hole.score % LABEL_EVERY == 0:
            self.text(hole.x_mm + 3.0, hole.y_mm + 1.0, str(hole.score), 2.4)  # above the arm, clear of the circle

    def seams(self) -> None:
        """Dashed cut lines on the left and top edges that meet a neighbour, solid edges and glue strips on the
        right and bottom, and ticks every 20 mm (in board millimetres) into the cell on both sides of a seam."""
        pdf, tile, tiling = self.pdf, self.tile, self.tiling
        left, top = tile.left, tile.top
        right, bottom = left + tile.width, top - tile.height
        pdf.set_draw_color(*BLACK)
        pdf.set_line_width(0.2)
        neighbours = {"left": tile.column > 0, "top": tile.row > 0,
                      "right": tile.column < tiling.columns - 1, "bottom": tile.row < tiling.rows - 1}
        edges = {"left": ((left, top), (left, bottom)), "right": ((right, top), (right, bottom)),
                 "top": ((left, top), (right, top)), "bottom": ((left, bottom), (right, bottom))}
        for side, (a, b) in edges.items():
            if not neighbours[side]:
                continue
            if side in ("left", "top"):
                pdf.set_dash_pattern(dash=2, gap=1.5)
                self.line(a, b)
                pdf.set_dash_pattern()
            else:
                self.line(a, b)
            self.ticks(side, a, b)
        pdf.set_font("helvetica", size=7)
        pdf.set_text_color(*GREY)
        if neighbours["right"]:
            words = f"glue: row {tile.row + 1}, column {tile.column + 2} lies over this strip"
            x, y = self.at(right, (top + bottom) / 2)
            x, y = x + GLUE_MM / 2 + 1, y + pdf.get_string_width(words) / 2
            with pdf.rotation(90, x, y):
                pdf.text(x, y, words)
        if neighbours["bottom"]:
            x, y = self.at(left, bottom)
            pdf.text(x + 2, y + GLUE_MM / 2 + 1, f"glue: row {tile.row + 2}, column {tile.column + 1} lies over "
                     "this strip, its cut edge on the solid line")
        if neighbours["left"] or neighbours["top"]:
            x, y = self.at(left, top)
            pdf.text(x + 1, y - 1.2, "cut along the dashed edge" + ("s" if neighbours["left"] and neighbours["top"]
                                                                     else ""))

    def ticks(self, side: str, a: tuple[float, float], b: tuple[float, float]) -> None:
        inward = {"left": (TICK_MM, 0.0), "right": (-TICK_MM, 0.0), "top": (0.0, -TICK_MM), "bottom": (0.0, TICK_MM)}
        ix, iy = inward[side]
        if side in ("left", "right"):
            start, end = sorted((a[1], b[1]))
            places = [(a[0], TICK_EVERY_MM * k) for k in range(math.ceil(start / TICK_EVERY_MM),
                                                               math.floor(end / TICK_EVERY_MM) + 1)]
        else:
            start, end = sorted((a[0], b[0]))
            places = [(TICK_EVERY_MM * k, a[1]) for k in range(math.ceil(start / TICK_EVERY_MM),
                                                               math.floor(end / TICK_EVERY_MM) + 1)]
        for x, y in places:
            self.line((x, y), (x + ix, y + iy))
