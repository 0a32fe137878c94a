"""`python -m companion.boards` regenerates the builtin layout files from their parameters, and their 1:1
drilling templates in hardware/templates/ for strips of 60 and 30 LEDs per metre."""

from __future__ import annotations

from pathlib import Path

from . import BUILTIN_LAYOUTS, PITCH_30_PER_M, PITCH_60_PER_M, load_layout, write_builtins
from .template import drilling_svg

for path in write_builtins():
    print(path)

out = Path(__file__).resolve().parents[2] / "hardware" / "templates"
out.mkdir(exist_ok=True)
for name in BUILTIN_LAYOUTS:
    for per_metre, pitch in ((60, PITCH_60_PER_M), (30, PITCH_30_PER_M)):
        path = out / f"{name}-{per_metre}per-m.svg"
        path.write_text(drilling_svg(load_layout(name).at_pitch(pitch)), encoding="utf-8")
        print(path)
