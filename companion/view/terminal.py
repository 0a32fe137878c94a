"""The terminal simulator's screen, laid out to fit 80x24: the OLED and the board on the left, the game's
history on the right, the last entry's outcome and the help at the bottom, the last line left for typing.

    ┌─────────────────────┐  Deal 1, Ann deals: starter 5♣
    │Ann* 0          Bob 2│  Bob 10♣ 10
    │─────────────────────│  Ann 5♥ 15: fifteen two
    │...                  │  ...
    └─────────────────────┘
    · ●···· ····· ...          (the board: a character a hole, `picture.board_rows`)
    ● Ann 2 (deals)   ● Bob 0

`terminal_screen` is pure: it takes the words and pictures and returns the lines, so a test pins them.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Sequence

from companion.view.screen import COLUMNS, ScreenView, screen_text

SIZE = (80, 24)  # the smallest terminal the layout is made for
GAP = 2  # columns between the left side and the history
_ESCAPE = re.compile(r"\x1b\[[0-9;]*m")


def visible_width(line: str) -> int:
    return len(_ESCAPE.sub("", line))


def oled_box(view: ScreenView, *, colour: bool = False) -> list[str]:
    """The OLED's words in a frame the size of the display (21 columns, 6 lines); an error in reverse video."""
    rows = screen_text(view)
    lines = ["┌" + "─" * COLUMNS + "┐"]
    for index, row in enumerate(rows):
        text = row.ljust(COLUMNS)[:COLUMNS]
        if view.error and index >= 2 and colour:
            text = f"\x1b[7m{text}\x1b[0m"
        lines.append(f"│{text}│")
    lines.append("└" + "─" * COLUMNS + "┘")
    return lines


def terminal_screen(*, oled: Sequence[str], board: Sequence[str], legend: str, history: Sequence[str],
                    status: Sequence[str], size: tuple[int, int] = SIZE) -> list[str]:
    """The screen's lines but the last (where the player types): `oled`, `board` and `legend` stacked on the
    left, the newest lines of `history` that fit on the right (wrapped, later lines indented), `status` at the
    bottom (wrapped when there is room, else cut). The blank lines between the board's streets go first when
    the rows are short."""
    width, height = size
    board = list(board)
    wrapped = [part for line in status for part in textwrap.wrap(line, width, break_on_hyphens=False) or [""]]
    least = len(oled) + len([row for row in board if row]) + 1  # the left side without its blank lines
    status = wrapped if len(wrapped) <= height - 1 - least else [line[:width] for line in status]
    room = height - 1 - len(status)
    while len(oled) + len(board) + 1 > room and "" in board:
        board.remove("")
    left = [*oled, *board, legend][:room]
    left_width = max(visible_width(line) for line in left)
    history_width = width - left_width - GAP
    right: list[str] = []
    if history_width >= 20:  # else no room for the history
        right = [part for line in history for part in textwrap.wrap(
            line, history_width, subsequent_indent="  ", break_on_hyphens=False) or [""]][-room:]
    lines = []
    for row in range(room):
        line = left[row] if row < len(left) else ""
        if row < len(right):
            line += " " * (left_width - visible_width(line) + GAP) + right[row]
        lines.append(line)
    return lines + status
