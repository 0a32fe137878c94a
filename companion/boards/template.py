"""1:1 drilling templates: one circle per hole at its place, from the layout data, as SVG in millimetres."""

from __future__ import annotations

from . import BoardLayout

MARGIN_MM = 20.0
HOLE_MM = 5.0
"""A 5 mm hole takes a 5050 WS2812B's light (and a peg) from below."""


def drilling_svg(layout: BoardLayout) -> str:
    width, height = (size + 2 * MARGIN_MM for size in layout.size_mm)
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.2f}mm" height="{height:.2f}mm" '
        f'viewBox="0 0 {width:.2f} {height:.2f}">',
        f"<title>{layout.name} drilling template, LED pitch {layout.pitch_mm} mm, print at 100%</title>",
        f'<rect x="0.5" y="0.5" width="{width - 1:.2f}" height="{height - 1:.2f}" fill="none" stroke="#999" '
        'stroke-width="0.3"/>',
        f'<text x="{MARGIN_MM / 2}" y="{MARGIN_MM / 2}" font-size="4" font-family="sans-serif">{layout.name}: '
        f"{layout.led_count} holes at {layout.pitch_mm} mm; the 100 mm bar must measure 100 mm</text>",
        f'<line x1="{MARGIN_MM}" y1="{height - 6}" x2="{MARGIN_MM + 100}" y2="{height - 6}" stroke="#000" '
        'stroke-width="0.5"/>',
    ]
    for hole in layout.holes:
        x = MARGIN_MM + hole.x_mm
        y = height - MARGIN_MM - hole.y_mm  # y grows down in SVG
        special = hole.score in (0, layout.target)
        lines.append(
            f'<circle cx="{x:.3f}" cy="{y:.3f}" r="{HOLE_MM / 2}" fill="none" stroke="{"#c00" if special else "#000"}"'
            f' stroke-width="0.25"><title>track {hole.track} score {hole.score} LED {hole.led}</title></circle>'
        )
        lines.append(f'<path d="M{x - 1:.3f} {y:.3f}h2M{x:.3f} {y - 1:.3f}v2" stroke="#000" stroke-width="0.15"/>')
    lines.append("</svg>")
    return "\n".join(lines) + "\n"
