"""Pictures of the outputs for people without the hardware: the terminal and PNG files.

`board_text` draws the LED strip as the board (each hole at its place from the layout, in ANSI colour),
`board_rows` the same compact for an 80x24 terminal, and `legend_text` the players under it. `board_image`
draws the board as a player would recognise it (wood, holes at the layout's millimetres, glowing pegs, the
game's skunk lines, street numbers, the players' names and scores); `board_png` and `oled_png` write PNG files
(for `crib sim --snapshots`). A game shorter than the board (61 points on a 121-hole board) finishes at its
target hole: the picture draws a FINISH line after it and leaves the holes beyond it pale.

A frame is either the one the table computed (the recording strip) or what the simulated Pico's LEDs hold
(`SimulatedPico.picture()`: after the firmware's brightness, colour order and current limit, with the brightness
divided back out). So the marks are told apart by level, not by exact colour: a faint grey nearer the level of
pegs.MARKER is a skunk-line mark, one nearer pegs.FINISH the finish hole.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageFont

from companion.boards import BoardLayout, Hole
from companion.cribbage.facts import Side
from companion.cribbage.rules import skunk_lines
from companion.fonts import MONO
from companion.i18n import _
from companion.view.leds import OFF, Color, Frame
from companion.view.pegs import FINISH, MARKER
from companion.words.phrases import side_name

if TYPE_CHECKING:
    from companion.cribbage.game import GameState



def _grid(layout: BoardLayout) -> tuple[dict[tuple[int, int], int], int, int]:
    """Each LED's (column, row) on a grid of holes, turned a quarter so the streets run across the screen."""
    pitch = layout.pitch_mm
    cells = {(round(h.y_mm / pitch), round(h.x_mm / pitch)): h.led for h in layout.holes}
    width = max(x for x, _ in cells) + 1
    height = max(y for _, y in cells) + 1
    return cells, width, height


def board_text(layout: BoardLayout, frame: Frame, *, colour: bool = True) -> str:
    """The board in the terminal: '●' for a peg in its colour, '+' for a skunk-line mark, '○' for the finish of a
    game shorter than the board, '·' for a dark hole."""
    cells, width, height = _grid(layout)
    lines = []
    for row in range(height):
        parts = []
        for column in range(width):
            led = cells.get((column, row))
            if led is None:
                parts.append(" ")
                continue
            lit = frame[led] if led < len(frame) else OFF
            mark = "·" if lit == OFF else "●" if not _is_marker(lit) else "+" if max(lit) <= _MARK_SPLIT else "○"
            if colour and lit != OFF:
                r, g, b = _visible(lit)
                mark = f"\x1b[38;2;{r};{g};{b}m{mark}\x1b[0m"
            parts.append(mark)
        lines.append(" ".join(parts).rstrip())
    return "\n".join(lines)


_MARK_SPLIT = (MARKER[0] + FINISH[0]) // 2


def board_rows(layout: BoardLayout, frame: Frame, *, colour: bool = True, gaps: bool = True) -> list[str]:
    """The board compact, for a small terminal: a character a hole (the marks of `board_text`), a space before
    each five holes as on a wooden board, the streets one under the other with a blank line between them
    (none when not `gaps`)."""
    rows: list[str] = []
    for line in board_text(layout, frame, colour=colour).split("\n"):
        cells = _cells(line)[::2]  # the holes stand in every other column of `board_text`
        if not "".join(cells).strip():
            if gaps and rows and rows[-1]:
                rows.append("")
            continue
        rows.append("".join(f"{cell} " if column % 5 == 0 else cell for column, cell in enumerate(cells)).rstrip())
    return rows


def _cells(line: str) -> list[str]:
    """The characters of a line, each with the colour codes around it."""
    return re.findall(r"\x1b\[[0-9;]*m.\x1b\[0m|.", line)




def _is_marker(colour: Color) -> bool:
    """A skunk-line or finish mark: a faint white (pegs have a colour)."""
    return len(set(colour)) == 1 and max(colour) < 32


def _visible(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    """Dim LEDs are bright to the eye; scale them up so a terminal shows them."""
    top = max(colour)
    scale = 1.0 if top >= 128 else min(6.0, 96 / max(1, top))
    return tuple(min(255, int(c * scale)) for c in colour)  # type: ignore[return-value]


@dataclass(frozen=True, slots=True)
class Legend:
    """One side under the board picture: its name, score and peg colour."""

    side: Side
    score: int
    colour: Color
    dealer: str = ""
    """The side's player who deals, if one does."""

    @property
    def deals(self) -> str:
        """'(deals)', or '(Ann deals)' for a partnership, or ''."""
        if not self.dealer:
            return ""
        return _("(deals)") if self.side.players == (self.dealer,) else _("({dealer} deals)").format(dealer=self.dealer)

    @property
    def name(self) -> str:
        return side_name(self.side)


def legend_for(state: GameState, colours: Sequence[Color]) -> tuple[Legend, ...]:
    dealer_side = state.side_of.get(state.dealer or "")
    return tuple(Legend(side, state.scores.get(side, 0), colours[track % len(colours)],
                        state.dealer or "" if side == dealer_side else "")
                 for track, side in enumerate(state.sides))


PX_PER_MM = 3.0  # the board picture: 500 mm of streets make 1500 px
MARGIN_MM = 24.0
LEGEND_PX = 70
WOOD = (176, 122, 72)
WOOD_GRAIN = (150, 100, 56)
HOLE = (38, 24, 14)
HOLE_RIM = (120, 80, 46)
PALE_HOLE = (132, 90, 52)  # a hole past the finish of a game shorter than the board
INK = (70, 40, 20)  # burned into the wood: numbers and skunk lines
LINE = (150, 20, 20)  # the skunk and finish lines


def hole_centre(hole: Hole) -> tuple[float, float]:
    """Where a hole is in the board picture (the board turned a quarter: streets run across)."""
    margin = MARGIN_MM * PX_PER_MM
    return margin + hole.y_mm * PX_PER_MM, margin + hole.x_mm * PX_PER_MM


def legend_text(legend: Sequence[Legend], *, colour: bool = True) -> str:
    """The players under the terminal board: '● Ann 80 (deals)   ● Bob 62'."""
    parts = []
    for entry in legend:
        r, g, b = entry.colour
        peg = f"\x1b[38;2;{r};{g};{b}m●\x1b[0m" if colour else "●"
        parts.append(f"{peg} {entry.name} {entry.score} {entry.deals}".rstrip())
    return "   ".join(parts)


def board_png(layout: BoardLayout, frame: Frame, path: Path, legend: Sequence[Legend] = (),
              target: int | None = None) -> None:
    board_image(layout, frame, legend, target).save(path)


def board_image(layout: BoardLayout, frame: Frame, legend: Sequence[Legend] = (),
                target: int | None = None) -> Image.Image:
    """The board as a player sees it, streets running across: wood, dark holes, lit pegs glowing in their
    colour (the back peg dimmer), the skunk lines of a game to `target` (the board's game hole when None),
    street numbers every 5 holes, and the players under it."""
    finish = min(target or layout.target, layout.target)
    scale, margin = PX_PER_MM, MARGIN_MM * PX_PER_MM
    across, along = layout.size_mm  # holes spread across (x_mm) and along the streets (y_mm)
    at = hole_centre
    width, height = round(along * scale + 2 * margin), round(across * scale + 2 * margin)
    image = Image.new("RGB", (width, height + LEGEND_PX), (28, 24, 22))
    image.paste(_wood(width, height), (0, 0), _rounded_mask(width, height, round(margin / 2)))
    draw = ImageDraw.Draw(image)
    holes = {(h.track, h.score): h for h in layout.holes}
    _street_numbers(draw, layout, holes, at, scale, finish=finish)
    _skunk_marks(draw, layout, holes, at, scale, finish=finish)
    hole_r, peg_r = 1.9 * scale, 3.6 * scale
    for hole in layout.holes:
        x, y = at(hole)
        beyond = hole.score > finish  # not used by this game: pale
        draw.ellipse((x - hole_r - 1, y - hole_r - 1, x + hole_r + 1, y + hole_r + 1), fill=HOLE_RIM)
        draw.ellipse((x - hole_r, y - hole_r, x + hole_r, y + hole_r), fill=PALE_HOLE if beyond else HOLE)
    glow = Image.new("RGB", image.size, OFF)
    glow_draw = ImageDraw.Draw(glow)
    pegs = []
    for hole in layout.holes:
        colour = frame[hole.led] if hole.led < len(frame) else OFF
        if colour == OFF or _is_marker(colour):  # skunk lines are drawn from the layout
            continue
        x, y = at(hole)
        hue, strength = _hue(colour)
        r = peg_r * (2.2 if strength > 0.5 else 1.5)
        glow_draw.ellipse((x - r, y - r, x + r, y + r), fill=_scaled(hue, max(0.5, strength)))
        pegs.append((x, y, hue, strength))
    image = ImageChops.screen(image, glow.filter(ImageFilter.GaussianBlur(peg_r)))
    draw = ImageDraw.Draw(image)
    for x, y, hue, strength in pegs:
        r = peg_r if strength > 0.5 else peg_r * 0.85
        draw.ellipse((x - r, y - r, x + r, y + r), fill=_scaled(hue, max(0.55, strength)))
        spot = r * 0.35
        draw.ellipse((x - r * 0.45 - spot, y - r * 0.45 - spot, x - r * 0.45 + spot, y - r * 0.45 + spot),
                     fill=_scaled(_mix(hue, (255, 255, 255), 0.6), max(0.55, strength)))
    _legend(draw, legend, height, width)
    return image


def _hue(colour: Color) -> tuple[Color, float]:
    """The colour at full brightness, and how bright it was (a back peg is a quarter of a front peg)."""
    top = max(colour)
    return _scaled(colour, 255 / top), top / 255


def _scaled(colour: Color, factor: float) -> Color:
    r, g, b = (min(255, round(c * factor)) for c in colour)
    return r, g, b


def _mix(a: Color, b: Color, share: float) -> Color:
    r, g, bl = (round(x * (1 - share) + y * share) for x, y in zip(a, b, strict=True))
    return r, g, bl


def _wood(width: int, height: int) -> Image.Image:
    """Pale wood with long grain lines (the same every time)."""
    wood = Image.new("RGB", (width, height), WOOD)
    draw = ImageDraw.Draw(wood)
    for row in range(0, height, 3):
        wave = math.sin(row * 0.37) + math.sin(row * 0.071) * 1.5
        if wave > 0.9:
            share = min(1.0, (wave - 0.9) / 1.2)
            draw.line((0, row, width, row + round(6 * math.sin(row))), fill=_mix(WOOD, WOOD_GRAIN, share), width=2)
    return wood


def _rounded_mask(width: int, height: int, radius: int) -> Image.Image:
    mask = Image.new("L", (width, height), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, width - 1, height - 1), radius=radius, fill=255)
    return mask


def _outward(layout: BoardLayout, holes: dict[tuple[int, int], Hole], score: int,
             at: Callable[[Hole], tuple[float, float]]) -> tuple[float, float]:
    """A unit vector from the last track's hole to the first's at `score`: the outer side of a street."""
    (x0, y0), (x1, y1) = at(holes[0, score]), at(holes[layout.tracks - 1, score])
    length = math.hypot(x0 - x1, y0 - y1) or 1.0
    return (x0 - x1) / length, (y0 - y1) / length


def _street_numbers(draw: ImageDraw.ImageDraw, layout: BoardLayout, holes: dict[tuple[int, int], Hole],
                    at: Callable[[Hole], tuple[float, float]], scale: float, *, finish: int) -> None:
    font = ImageFont.truetype(str(MONO), round(5.5 * scale))
    named = {line - 1 for line in skunk_lines(finish) if (line - 1) % layout.street_length}  # a line's name there
    for score in range(5, finish, 5):
        if score in named:
            continue
        dx, dy = _outward(layout, holes, score, at)
        x, y = at(holes[0, score])
        away = 8 * scale
        draw.text((x + dx * away, y + dy * away), str(score), font=font, fill=INK, anchor="mm")


def _skunk_marks(draw: ImageDraw.ImageDraw, layout: BoardLayout, holes: dict[tuple[int, int], Hole],
                 at: Callable[[Hole], tuple[float, float]], scale: float, *, finish: int) -> None:
    """A bar across every track just before each skunk line's hole (the game's lines: 91 and 61 in a game to
    121, 31 and 16 to 61), and after the finish of a game shorter than the board, named on the outer side."""
    skunk, double = skunk_lines(finish)
    lines = [(skunk, -0.5, _("SKUNK")), (double, -0.5, _("DOUBLE SKUNK"))]  # half a hole before the line's hole
    if finish < layout.target:
        lines.append((finish, 0.5, _("FINISH")))  # half a hole after the game hole
    font = ImageFont.truetype(str(MONO), round(4.2 * scale))
    for line, offset, name in lines:
        if not 0 < line < layout.target:
            continue
        ends = []
        for track in range(layout.tracks):  # a line's hole and the next share a street
            (x, y), (nx, ny) = at(holes[track, line]), at(holes[track, line + 1])
            ends.append((x + (nx - x) * offset, y + (ny - y) * offset))
        dx, dy = _outward(layout, holes, line, at)
        reach = 5 * scale
        (ax, ay), (bx, by) = ends[0], ends[-1]
        draw.line((ax + dx * reach, ay + dy * reach, bx - dx * reach, by - dy * reach), fill=LINE,
                  width=max(2, round(scale)))
        draw.text((ax + dx * 2.4 * reach, ay + dy * 2.4 * reach), name, font=font, fill=LINE, anchor="mm")


def _legend(draw: ImageDraw.ImageDraw, legend: Sequence[Legend], top: int, width: int) -> None:
    font = ImageFont.truetype(str(MONO), 28)
    x = 40
    for entry in legend:
        y = top + LEGEND_PX // 2
        draw.ellipse((x, y - 13, x + 26, y + 13), fill=entry.colour, outline=(240, 240, 240), width=2)
        text = f"{entry.name} {entry.score}  {entry.deals}".rstrip()
        draw.text((x + 40, y), text, font=font, fill=(240, 236, 228), anchor="lm")
        x += 40 + round(draw.textlength(text, font=font)) + 80
        if x >= width:
            break  # no room for more


def oled_png(image: Image.Image, path: Path, scale: int = 4) -> None:
    image.convert("1").resize((image.width * scale, image.height * scale), Image.Resampling.NEAREST).save(path)
