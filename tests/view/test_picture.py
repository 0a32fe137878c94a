"""The board picture for --snapshots and the terminal: holes where the layout puts them, pegs that glow in
their player's colour (the back peg dimmer), skunk lines, and the players with their scores."""

from __future__ import annotations

from companion.boards import load_layout
from companion.cribbage.game import replay
from companion.cribbage.transcript import GameInput, PegInput
from companion.view.pegs import DEFAULT_COLOURS, render_pegs
from companion.view.picture import HOLE, LINE, PALE_HOLE, board_image, board_text, hole_centre, legend_for, legend_text
from tests.sample_deal import GAME

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


def _red_lines(image, y: int) -> list[int]:
    """The x of each skunk or finish line crossing the row `y` of the picture."""
    xs = [x for x in range(image.width) if image.getpixel((x, y)) == LINE]
    return [x for i, x in enumerate(xs) if i == 0 or x - xs[i - 1] > 1]


def test_the_lines_follow_the_games_target():
    def line_between(board, track, before, after):
        y = hole_centre(next(h for h in board.holes if (h.track, h.score) == (track, before)))[1]
        x0, x1 = (hole_centre(next(h for h in board.holes if (h.track, h.score) == (track, s)))[0]
                  for s in (before, after))
        return any(min(x0, x1) < x < max(x0, x1) for x in _red_lines(image, round(y)))

    image = board_image(LAYOUT, render_pegs(replay([GAME]), LAYOUT)[0])
    assert line_between(LAYOUT, 0, 91, 92) is False and line_between(LAYOUT, 0, 61, 62) is False
    short = load_layout("two-track-61")
    game = GameInput(("Ann", "Bob"), dealer="Ann", target=61)
    image = board_image(short, render_pegs(replay([game]), short)[0], target=61)
    assert line_between(short, 1, 15, 16)  # the double skunk line after 15
    # a 61-point game on the 121-hole board: its lines, a finish after hole 61, and the holes past it pale
    state = replay([game, PegInput("Ann", 61)])
    frame = render_pegs(state, LAYOUT)[0]
    image = board_image(LAYOUT, frame, legend_for(state, DEFAULT_COLOURS), target=61)
    assert line_between(LAYOUT, 0, 15, 16) and line_between(LAYOUT, 1, 61, 62)  # track 0: a glowing peg
    assert not line_between(LAYOUT, 0, 75, 76)
    assert image.getpixel(at(1, 80)) == PALE_HOLE and image.getpixel(at(1, 40)) == HOLE
    text = board_text(LAYOUT, frame, colour=False)
    assert text.count("○") == 1 and text.count("+") == 4  # Ann's peg is in her finish hole; Bob's is marked


def test_partners_are_one_side_and_the_legend_says_which_partner_deals():
    state = replay([GameInput(("Ann", "Bob", "Cat", "Dan"), dealer="Bob")])
    legend = legend_for(state, DEFAULT_COLOURS)
    assert legend_text(legend, colour=False) == "● Ann & Cat 0   ● Bob & Dan 0 (Bob deals)"
