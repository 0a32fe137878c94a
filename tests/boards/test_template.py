from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from companion.boards import BUILTIN_LAYOUTS, PITCH_30_PER_M, PITCH_60_PER_M, load_layout
from companion.boards.template import MARGIN_MM, drilling_svg

SVG = "{http://www.w3.org/2000/svg}"
TEMPLATES = Path(__file__).resolve().parents[2] / "hardware" / "templates"


def test_one_circle_per_hole_at_its_place_in_millimetres() -> None:
    layout = load_layout("two-track-61")
    root = ET.fromstring(drilling_svg(layout))
    width, height = (float(root.get(side, "0").removesuffix("mm")) for side in ("width", "height"))
    assert root.get("viewBox") == f"0 0 {width:.2f} {height:.2f}"  # one user unit = one millimetre
    circles = root.findall(f"{SVG}circle")
    assert len(circles) == layout.led_count
    places = {c.find(f"{SVG}title").text: (float(c.get("cx", 0)), float(c.get("cy", 0))) for c in circles}  # type: ignore[union-attr]
    start = places["track 0 score 0 LED 0"]
    assert start == pytest.approx((MARGIN_MM, height - MARGIN_MM))
    first = places[f"track 0 score 1 LED {layout.led_for(0, 1)}"]
    assert start[1] - first[1] == pytest.approx(layout.pitch_mm, abs=0.01)  # the next hole, one pitch up


@pytest.mark.parametrize("name", BUILTIN_LAYOUTS)
@pytest.mark.parametrize(("per_metre", "pitch"), [(60, PITCH_60_PER_M), (30, PITCH_30_PER_M)])
def test_committed_templates_match_the_layouts(name: str, per_metre: int, pitch: float) -> None:
    committed = (TEMPLATES / f"{name}-{per_metre}per-m.svg").read_text()
    assert committed == drilling_svg(load_layout(name).at_pitch(pitch))
