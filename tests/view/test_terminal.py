"""The terminal simulator's screen fits 80x24: the OLED's words, the board, the game so far, the outcome."""

from __future__ import annotations

import pytest

from companion.view.terminal import visible_width
from tests.view.terminal import screen


@pytest.mark.parametrize("layout", ["two-track-121", "three-track-121", "two-track-61", "three-track-61"])
@pytest.mark.parametrize("colour", [False, True])
def test_every_board_fits_80_by_24_with_a_line_left_to_type_on(layout, colour):
    lines = screen(layout, colour=colour)
    assert len(lines) == 23
    assert all(visible_width(line) <= 80 for line in lines)
    assert lines[0].startswith("┌" + "─" * 21 + "┐")
    assert "Ann 13 (deals)" in "".join(lines)  # the players under the board
    assert lines[-2:] == ["8H: ok", "help"]


def test_the_oled_words_beside_the_newest_history():
    lines = screen("two-track-121", colour=False)
    assert lines[1].startswith("│▶Ann* 13       Bob 21│")
    assert lines[3].startswith("│Ann: one for last    │")  # the count of the last entry, as on the OLED
    assert lines[6].startswith("│Enter Ann's crib     │")
    assert lines[0].endswith("Game to 121: Ann, Bob")  # the whole game so far still fits
    history = [line[39:] for line in lines[:21] if line[39:]]
    assert "Ann 6♦ 25: a run of three is three" in history
    assert history[-2:] == ["Ann's hand 9: fifteen two, fifteen four,", "  and a run of five is nine"]


def test_an_error_on_the_oled_is_white_on_black_and_a_long_outcome_wraps():
    message = "the count is 25: 9H would make 34; play a lower card or say go"
    lines = screen("two-track-121", colour=True, error=message, status=f"rejected '9H': {message} " * 2)
    assert lines[3].startswith("│\x1b[7mthe count is 25: 9H  \x1b[0m│")
    assert lines[-3].startswith("rejected '9H': the count is 25") and len(lines) == 23
