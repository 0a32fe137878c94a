"""`python -m companion.boards` regenerates the builtin layout files from their parameters, and their 1:1
drilling templates in hardware/templates/ for strips of 60 and 30 LEDs per metre: SVG, PDF tiled across A4
pages (and US Letter pages with --letter, not committed), and PDF on one sheet the size of the board."""

from __future__ import annotations

import sys
from pathlib import Path

from . import BUILTIN_LAYOUTS, PITCH_30_PER_M, PITCH_60_PER_M, load_layout, write_builtins
from .printout import A4, LETTER, write_drilling_pdf
from .template import drilling_svg

for path in write_builtins():
    print(path)

out = Path(__file__).resolve().parents[2] / "hardware" / "templates"
out.mkdir(exist_ok=True)
for name in BUILTIN_LAYOUTS:
    for per_metre, pitch in ((60, PITCH_60_PER_M), (30, PITCH_30_PER_M)):
        layout = load_layout(name).at_pitch(pitch)
        stem = f"{name}-{per_metre}per-m"
        path = out / f"{stem}.svg"
        path.write_text(drilling_svg(layout), encoding="utf-8")
        print(path)
        papers = [(A4, "a4-pages"), (None, "one-sheet")] + [(LETTER, "letter-pages")] * ("--letter" in sys.argv)
        for paper, suffix in papers:
            path = out / f"{stem}-{suffix}.pdf"
            tiling = write_drilling_pdf(layout, path, paper)
            width, height = tiling.page
            print(path, f"({len(tiling.tiles)} pages)" if paper else f"({width:.0f} x {height:.0f} mm)")
