"""The PDF drilling templates: read back as a maker's printer would (rasterised with pdftoppm) for the scale,
and as vectors (the pages' drawing operators) to find every hole's crosshair."""

from __future__ import annotations

import math
import re
import shutil
import subprocess
import zlib
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from companion.boards import BUILTIN_LAYOUTS, PITCH_30_PER_M, PITCH_60_PER_M, BoardLayout, load_layout
from companion.boards.printout import A4, CROSS_MM, SCALE_BAR, plan_tiles, smallest_iso_sheet, write_drilling_pdf

TEMPLATES = Path(__file__).resolve().parents[2] / "hardware" / "templates"
PT_PER_MM = 72 / 25.4
DPI = 200
PX_PER_MM = DPI / 25.4
PITCHES = [(60, PITCH_60_PER_M), (30, PITCH_30_PER_M)]


def template(name: str, per_metre: int, kind: str = "a4-pages") -> Path:
    return TEMPLATES / f"{name}-{per_metre}per-m-{kind}.pdf"


def layout_at(name: str, per_metre: int) -> BoardLayout:
    return load_layout(name).at_pitch(dict(PITCHES)[per_metre])


def page_contents(pdf: Path) -> list[tuple[tuple[float, float], str]]:
    """Each page's size in millimetres and its drawing operators, in page order."""
    data = pdf.read_bytes()
    objects = {int(n): body for n, body in re.findall(rb"(\d+) 0 obj\s*(.*?)endobj", data, re.S)}
    media = [float(v) for v in re.search(rb"/MediaBox \[([^\]]*)\]", data).group(1).split()]  # type: ignore[union-attr]
    kids = re.search(rb"/Kids \[([^\]]*)\]", data).group(1)  # type: ignore[union-attr]
    pages = []
    for kid in re.findall(rb"(\d+) 0 R", kids):
        contents = int(re.search(rb"/Contents (\d+) 0 R", objects[int(kid)]).group(1))  # type: ignore[union-attr]
        stream = re.search(rb"stream\r?\n(.*)\r?\nendstream", objects[contents], re.S).group(1)  # type: ignore[union-attr]
        pages.append(((media[2] / PT_PER_MM, media[3] / PT_PER_MM), zlib.decompress(stream).decode("latin-1")))
    return pages


def crosshairs(page: tuple[tuple[float, float], str]) -> list[tuple[float, float]]:
    """Centres (mm from the page's top-left corner) of the plus signs made of two lines 2 * CROSS_MM long."""
    (_, height), operators = page
    number = r"(-?[\d.]+)"
    arm = 2 * CROSS_MM * PT_PER_MM
    horizontal, vertical = [], []  # (x, y) of each line's middle, in points from the bottom-left corner
    for match in re.finditer(rf"{number} {number} m {number} {number} l S", operators):
        x1, y1, x2, y2 = (float(v) for v in match.groups())
        if y1 == y2 and abs(abs(x2 - x1) - arm) < 0.02:
            horizontal.append(((x1 + x2) / 2, y1))
        elif x1 == x2 and abs(abs(y2 - y1) - arm) < 0.02:
            vertical.append((x1, (y1 + y2) / 2))
    centres = []
    for across in horizontal:
        for up in vertical:
            if math.dist(across, up) < 0.05:
                centres.append((up[0] / PT_PER_MM, height - across[1] / PT_PER_MM))
    return centres


def rasterise(pdf: Path, page: int) -> np.ndarray:
    if shutil.which("pdftoppm") is None:
        pytest.fail("pdftoppm is missing: apt-get install poppler-utils (python3 dev.py test installs it)")
    out = pdf.parent / "page"
    subprocess.run(["pdftoppm", "-r", str(DPI), "-gray", "-png", "-f", str(page), "-l", str(page), "-singlefile",
                    str(pdf), str(out)], check=True)
    return 255 - np.asarray(Image.open(out.with_suffix(".png")).convert("L"))  # ink, 0 for white paper


def found_cross(ink: np.ndarray, around_mm: tuple[float, float]) -> tuple[float, float]:
    """The crosshair centre (pixels) nearest a place on the page: its darkest column and row within 3 mm."""
    x, y = (round(v * PX_PER_MM) for v in around_mm)
    reach = round(3 * PX_PER_MM)
    window = ink[y - reach:y + reach + 1, x - reach:x + reach + 1]
    return (x - reach + float(np.argmax(window.sum(axis=0, dtype=int))),
            y - reach + float(np.argmax(window.sum(axis=1, dtype=int))))


@pytest.mark.parametrize("name", BUILTIN_LAYOUTS)
@pytest.mark.parametrize("per_metre", [60, 30])
@pytest.mark.parametrize("kind", ["a4-pages", "one-sheet"])
def test_committed_pdfs_match_the_layouts(tmp_path: Path, name: str, per_metre: int, kind: str) -> None:
    fresh = tmp_path / "fresh.pdf"
    write_drilling_pdf(layout_at(name, per_metre), fresh, A4 if kind == "a4-pages" else None)
    assert fresh.read_bytes() == template(name, per_metre, kind).read_bytes()


@pytest.mark.parametrize(("name", "per_metre", "pages"), [("two-track-121", 60, 4), ("three-track-121", 30, 20),
                                                          ("two-track-61", 30, 8)])
def test_every_hole_is_drawn_once_across_the_pages_at_its_place(name: str, per_metre: int, pages: int) -> None:
    layout = layout_at(name, per_metre)
    tiling = plan_tiles(layout)
    contents = page_contents(template(name, per_metre))
    assert len(contents) == len(tiling.tiles) == pages
    assert all(size == pytest.approx(tiling.page, abs=0.01) for size, _ in contents)
    drawn = Counter[tuple[int, int]]()
    for tile, page in zip(tiling.tiles, contents, strict=True):
        origin_x, origin_y = tiling.on_page(tile, 0, 0)
        for x, y in crosshairs(page):
            place = (x - origin_x, origin_y - y)
            hole = min(layout.holes, key=lambda h: math.dist(place, (h.x_mm, h.y_mm)))
            assert math.dist(place, (hole.x_mm, hole.y_mm)) < 0.02  # a PDF stores hundredths of a point
            drawn[hole.track, hole.score] += 1
    assert drawn == Counter((h.track, h.score) for h in layout.holes)


@pytest.mark.parametrize("name", BUILTIN_LAYOUTS)
@pytest.mark.parametrize(("per_metre", "pitch"), PITCHES)
def test_page_edges_run_between_holes(name: str, per_metre: int, pitch: float) -> None:
    layout = load_layout(name).at_pitch(pitch)
    tiling = plan_tiles(layout)
    for hole in layout.holes:
        tile = tiling.tile_of(hole)
        clearance = min(hole.x_mm - tile.left, tile.left + tile.width - hole.x_mm,
                        tile.top - hole.y_mm, hole.y_mm - (tile.top - tile.height))
        assert clearance > CROSS_MM, (hole, tile)  # the whole crosshair on one page


@pytest.mark.parametrize("kind", ["a4-pages", "one-sheet"])
def test_printed_at_100_percent_the_bar_is_100_mm_and_holes_are_their_distance_apart(tmp_path: Path,
                                                                                    kind: str) -> None:
    name, per_metre = "two-track-121", 30
    layout = layout_at(name, per_metre)
    tiling = plan_tiles(layout, A4 if kind == "a4-pages" else None)
    start = layout.holes[0]
    tile = tiling.tile_of(start)
    pdf = tmp_path / "template.pdf"
    shutil.copy(template(name, per_metre, kind), pdf)
    ink = rasterise(pdf, tiling.tiles.index(tile) + 1)

    x, y, width, height = SCALE_BAR
    row = list(ink[round((y + height / 2) * PX_PER_MM)] > 128)
    left = round(x * PX_PER_MM)
    assert row[left + 2] and not row[left - 3]
    length = row.index(False, left) - left
    assert width == 100
    assert length == pytest.approx(width * PX_PER_MM, abs=2)  # 787.4 pixels

    far = max((h for h in layout.holes if tile.holds(h.x_mm, h.y_mm)),
              key=lambda h: math.dist((h.x_mm, h.y_mm), (start.x_mm, start.y_mm)))
    a = found_cross(ink, tiling.on_page(tile, start.x_mm, start.y_mm))
    b = found_cross(ink, tiling.on_page(tile, far.x_mm, far.y_mm))
    expected = math.dist((start.x_mm, start.y_mm), (far.x_mm, far.y_mm))
    assert expected > 140
    assert math.dist(a, b) == pytest.approx(expected * PX_PER_MM, abs=2)


def test_tiles_take_the_fewer_pages_and_one_sheet_names_its_paper() -> None:
    layout = layout_at("two-track-121", 60)
    tiling = plan_tiles(layout)
    assert tiling.page == A4[::-1] and (tiling.rows, tiling.columns) == (4, 1)  # portrait would take 2 x 3
    sheet = plan_tiles(layout, None)
    assert len(sheet.tiles) == 1
    assert smallest_iso_sheet(sheet.page) == "A2"
    assert smallest_iso_sheet(plan_tiles(layout_at("three-track-121", 30), None).page) == "A0"
    [(size, operators)] = page_contents(template("two-track-121", 60, "one-sheet"))
    assert size == pytest.approx(sheet.page, abs=0.01)
    assert "print on A2" in operators and "this bar must measure 100 mm" in operators
