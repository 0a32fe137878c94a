"""The board as SVG, from the layout file and the LED frame the strip receives.

`board_svg(layout, frame, target)` draws the board as `view.picture.board_image` does (streets running across,
holes at the layout's millimetres, the game's skunk lines, street numbers) with each hole a circle whose id is
its LED (`led-N`) and whose fill is that LED's colour in the frame: the pegs are the lit holes. A page that has
the drawing once only recolours the circles for the next frame (`frame_colours`), and plays the strip's
effects (flash, walk, celebrate) on the same circles. The club scoreboard reuses the drawing as it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from xml.sax.saxutils import escape

from companion.boards import BoardLayout, Hole
from companion.cribbage.rules import skunk_lines
from companion.i18n import _
from companion.view.leds import OFF, Celebrate, Color, Effect, Flash, Frame, Walk

from .pegs import FINISH, MARKER

MARGIN_MM = 14.0
HOLE_R = 2.0
PEG_R = 3.4
LINE_NAME_EM = 3.6  # the width of a letter of a line's name (5.8 px monospace, style.css), in the board's millimetres
EDGE_MM = 2.0  # the least room between a line's name and the board's edge
HOLE_FILL = "#26180e"


def _at(hole: Hole) -> tuple[float, float]:
    """Where a hole is in the drawing (mm): the board turned a quarter, streets running across."""
    return round(MARGIN_MM + hole.y_mm, 2), round(MARGIN_MM + hole.x_mm, 2)


def hex_colour(colour: Color) -> str:
    return "#{:02x}{:02x}{:02x}".format(*colour)


def frame_colours(frame: Frame) -> list[str | None]:
    """Each LED's fill for the page: None for a dark hole or a skunk mark (the drawing has the lines)."""
    return [None if colour == OFF or colour in (MARKER, FINISH) else hex_colour(colour) for colour in frame]


def effects_json(effects: Sequence[Effect]) -> list[dict[str, object]]:
    kinds = {Walk: "walk", Flash: "flash", Celebrate: "celebrate"}
    return [{"kind": kinds[type(e)], "leds": list(e.leds), "colour": hex_colour(e.color)} for e in effects]


def board_svg(layout: BoardLayout, frame: Frame = (), target: int | None = None, *,
              title: str | None = None) -> str:
    """The whole board as an SVG document (scales to its container: width 100%)."""
    title = _("The board") if title is None else title
    finish = min(target or layout.target, layout.target)
    holes = {(h.track, h.score): h for h in layout.holes}
    across, along = layout.size_mm
    width, height = along + 2 * MARGIN_MM, across + 2 * MARGIN_MM
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="board" viewBox="0 0 {width:.1f} {height:.1f}" '
             f'role="img" aria-label="{escape(title)}"><title>{escape(title)}</title>',
             f'<rect class="wood" x="0" y="0" width="{width:.1f}" height="{height:.1f}" rx="6"/>']
    parts += _lines(layout, holes, finish, width)
    parts += _numbers(layout, holes, finish)
    colours = frame_colours(frame)
    for hole in layout.holes:
        x, y = _at(hole)
        lit = colours[hole.led] if hole.led < len(colours) else None
        pale = " pale" if hole.score > finish else ""
        if lit is None:
            parts.append(f'<circle id="led-{hole.led}" class="hole{pale}" cx="{x}" cy="{y}" r="{HOLE_R}"/>')
        else:
            parts.append(f'<circle id="led-{hole.led}" class="hole peg" cx="{x}" cy="{y}" r="{PEG_R}" '
                         f'style="fill:{lit}"/>')
    parts.append("</svg>")
    return "".join(parts)


def _outward(layout: BoardLayout, holes: dict[tuple[int, int], Hole], score: int) -> tuple[float, float]:
    (x0, y0), (x1, y1) = _at(holes[0, score]), _at(holes[layout.tracks - 1, score])
    length = ((x0 - x1) ** 2 + (y0 - y1) ** 2) ** 0.5 or 1.0
    return (x0 - x1) / length, (y0 - y1) / length


def _lines(layout: BoardLayout, holes: dict[tuple[int, int], Hole], finish: int, width: float) -> list[str]:
    """The skunk and double-skunk lines half a hole before their holes, and the finish of a short game; a name
    that would run past the board's edge is set against it."""
    skunk, double = skunk_lines(finish)
    lines = [(skunk, -0.5, _("SKUNK")), (double, -0.5, _("DOUBLE SKUNK"))]
    if finish < layout.target:
        lines.append((finish, 0.5, _("FINISH")))
    out = []
    for line, offset, name in lines:
        if not 0 < line < layout.target:
            continue
        ends = []
        for track in range(layout.tracks):
            (x, y), (nx, ny) = _at(holes[track, line]), _at(holes[track, line + 1])
            ends.append((x + (nx - x) * offset, y + (ny - y) * offset))
        dx, dy = _outward(layout, holes, line)
        (ax, ay), (bx, by) = ends[0], ends[-1]
        out.append(f'<line class="skunk" x1="{ax + dx * 4:.2f}" y1="{ay + dy * 4:.2f}" x2="{bx - dx * 4:.2f}" '
                   f'y2="{by - dy * 4:.2f}"/>')
        x, half = ax + dx * 8, len(name) * LINE_NAME_EM / 2  # the name is centred on the line unless it would not fit
        anchor = ""
        if x + half > width - EDGE_MM:
            x, anchor = width - EDGE_MM, ' style="text-anchor:end"'
        elif x - half < EDGE_MM:
            x, anchor = EDGE_MM, ' style="text-anchor:start"'
        out.append(f'<text class="line-name" x="{x:.2f}" y="{ay + dy * 8:.2f}"{anchor}>{name}</text>')
    return out


def _numbers(layout: BoardLayout, holes: dict[tuple[int, int], Hole], finish: int) -> list[str]:
    named = {line - 1 for line in skunk_lines(finish) if (line - 1) % layout.street_length}
    out = []
    for score in range(5, finish, 5):
        if score in named:
            continue
        dx, dy = _outward(layout, holes, score)
        x, y = _at(holes[0, score])
        out.append(f'<text class="number" x="{x + dx * 6:.2f}" y="{y + dy * 6:.2f}">{score}</text>')
    return out
