"""The board picture for --snapshots and the terminal: holes where the layout puts them, pegs that glow in
their player's colour (the back peg dimmer), skunk lines, and the players with their scores."""

from __future__ import annotations

from companion.boards import load_layout
from companion.cribbage.game import replay
from companion.cribbage.transcript import PegInput
from companion.view.pegs import DEFAULT_COLOURS, render_pegs
from companion.view.picture import HOLE, board_image, board_text, hole_centre, legend_for, legend_text
from tests.view.test_screen import GAME

LAYOUT = load_layout("two-track-121")


def picture(*pegs: PegInput):
    state = replay([GAME, *pegs])
    frame, _ = render_pegs(state, LAYOUT, DEFAULT_COLOURS)
    return state, frame, board_image(LAYOUT, frame, legend_for(state, DEFAULT_COLOURS))


def at(track: int, score: int) -> tuple[int, int]:
    hole = next(h for h in LAYOUT.holes if (h.track, h.score) == (track, score))
    x, y = hole_centre(hole)
    return round(x), round(y)


def test_pegs_glow_in_their_colours_where_the_layout_puts_the_holes():
    state, _, image = picture(PegInput("Ann", 12), PegInput("Ann", 30), PegInput("Bob", 70))
    assert image.width >= 1000
    red, blue = image.getpixel(at(0, 42)), image.getpixel(at(1, 70))
    assert red[0] > 200 and red[2] < 120 and blue[2] > 200 and blue[0] < 120
    back = image.getpixel(at(0, 12))  # Ann's back peg: the same red, dimmer
    assert back[0] > 100 and back[0] < red[0] and back[1] < 80
    assert image.getpixel(at(0, 50)) == HOLE and image.getpixel(at(1, 100)) == HOLE  # unlit holes are dark
    glow = image.getpixel((at(1, 70)[0], at(1, 70)[1] + 14))  # beside Bob's peg the wood turns blue
    wood = image.getpixel((at(1, 100)[0], at(1, 100)[1] + 14))
    assert glow[2] > wood[2] + 30
    # the terminal shows the same pegs, one character a hole, and the players under the board
    text = board_text(LAYOUT, render_pegs(state, LAYOUT)[0], colour=False)
    assert text.count("●") == 4 and text.count("+") == 4  # two pegs each; the skunk lines of two tracks
    assert legend_text(legend_for(state, DEFAULT_COLOURS), colour=False) == "● Ann 42 (deals)   ● Bob 70"
