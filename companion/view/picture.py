"""Pictures of the outputs for people without the hardware: the terminal and PNG files.

`board_text` draws the LED strip as the board (each hole at its place from the layout, in ANSI colour);
`oled_text` draws the OLED image with block characters; `board_png` and
`oled_png` write the same as images (for `crib sim --snapshots`).
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

from companion.boards import BoardLayout
from companion.devices.base import OFF, Frame

HOLE_PX = 9  # one hole in a board PNG
EMPTY_HOLE = (40, 40, 40)


def _grid(layout: BoardLayout) -> tuple[dict[tuple[int, int], int], int, int]:
    """Each LED's (column, row) on a grid of holes, turned a quarter so the streets run across the screen."""
    pitch = layout.pitch_mm
    cells = {(round(h.y_mm / pitch), round(h.x_mm / pitch)): h.led for h in layout.holes}
    width = max(x for x, _ in cells) + 1
    height = max(y for _, y in cells) + 1
    return cells, width, height


def board_text(layout: BoardLayout, frame: Frame, *, colour: bool = True) -> str:
    """The board in the terminal: '●' for a lit hole in its colour, '·' for a dark one."""
    cells, width, height = _grid(layout)
    lines = []
    for row in range(height):
        parts = []
        for column in range(width):
            led = cells.get((column, row))
            if led is None:
                parts.append(" ")
                continue
            lit = led < len(frame) and frame[led] != OFF
            if not lit:
                parts.append("·")
            elif colour:
                r, g, b = _visible(frame[led])
                parts.append(f"\x1b[38;2;{r};{g};{b}m●\x1b[0m")
            else:
                parts.append("●")
        lines.append(" ".join(parts).rstrip())
    return "\n".join(lines)


def _visible(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    """Dim LEDs are bright to the eye; scale them up so a terminal shows them."""
    top = max(colour)
    scale = 1.0 if top >= 128 else min(6.0, 96 / max(1, top))
    return tuple(min(255, int(c * scale)) for c in colour)  # type: ignore[return-value]


# Quadrant blocks by (top left, top right, bottom left, bottom right).
_QUADRANTS = {
    (0, 0, 0, 0): " ", (1, 0, 0, 0): "▘", (0, 1, 0, 0): "▝", (0, 0, 1, 0): "▖", (0, 0, 0, 1): "▗",
    (1, 1, 0, 0): "▀", (0, 0, 1, 1): "▄", (1, 0, 1, 0): "▌", (0, 1, 0, 1): "▐", (1, 0, 0, 1): "▚",
    (0, 1, 1, 0): "▞", (1, 1, 1, 0): "▛", (1, 1, 0, 1): "▜", (1, 0, 1, 1): "▙", (0, 1, 1, 1): "▟",
    (1, 1, 1, 1): "█",
}
_HALVES = {(0, 0): " ", (1, 0): "▀", (0, 1): "▄", (1, 1): "█"}


def oled_text(image: Image.Image, *, wide: bool = False) -> str:
    """The 128x64 image framed like the display: in quadrant blocks (2x2 pixels a character, 66 columns),
    or `wide` in half blocks (1x2 pixels a character, 130 columns, easier to read)."""
    pixels = image.convert("1").load()
    assert pixels is not None
    width, height = image.size

    def lit(x: int, y: int) -> int:
        return 1 if pixels[x, y] else 0

    step = 1 if wide else 2
    lines = ["┌" + "─" * (width // step) + "┐"]
    for y in range(0, height, 2):
        if wide:
            row = "".join(_HALVES[(lit(x, y), lit(x, y + 1))] for x in range(width))
        else:
            row = "".join(_QUADRANTS[(lit(x, y), lit(x + 1, y), lit(x, y + 1), lit(x + 1, y + 1))]
                          for x in range(0, width, 2))
        lines.append("│" + row + "│")
    lines.append("└" + "─" * (width // step) + "┘")
    return "\n".join(lines)


def board_png(layout: BoardLayout, frame: Frame, path: Path) -> None:
    cells, width, height = _grid(layout)
    image = Image.new("RGB", (width * HOLE_PX + 2, height * HOLE_PX + 2), (12, 8, 4))
    draw = ImageDraw.Draw(image)
    for (column, row), led in cells.items():
        colour = frame[led] if led < len(frame) and frame[led] != OFF else EMPTY_HOLE
        x, y = column * HOLE_PX + 1, row * HOLE_PX + 1
        draw.ellipse((x + 1, y + 1, x + HOLE_PX - 2, y + HOLE_PX - 2), fill=_visible(colour))
    image.save(path)


def oled_png(image: Image.Image, path: Path, scale: int = 4) -> None:
    image.convert("1").resize((image.width * scale, image.height * scale), Image.Resampling.NEAREST).save(path)
