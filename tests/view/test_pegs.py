"""The pegs on the strip: front and back pegs in each player's colour, skunk marks, and the effects."""

from __future__ import annotations

from companion.boards import load_layout
from companion.cribbage.game import replay
from companion.cribbage.transcript import GameInput, PegInput
from companion.view.leds import OFF, Celebrate, Flash, Walk
from companion.view.pegs import DEFAULT_COLOURS, FINISH, MARKER, dim, render_pegs
from tests.facts import name
from tests.sample_deal import GAME, deal

LAYOUT = load_layout("two-track-121")
RED, BLUE = DEFAULT_COLOURS[:2]


def lit(frame):
    return {led: colour for led, colour in enumerate(frame) if colour != OFF}


def test_a_new_game_has_both_pegs_in_the_start_holes_and_the_skunk_lines_marked():
    frame, effects = render_pegs(replay([GAME]), LAYOUT)
    assert len(frame) == LAYOUT.led_count and effects == ()
    assert lit(frame) == {
        LAYOUT.led_for(0, 0): RED, LAYOUT.led_for(1, 0): BLUE,
        **{LAYOUT.led_for(track, hole): MARKER for track in (0, 1) for hole in (61, 91)},
    }


def test_front_and_back_pegs_after_the_show():
    state = replay(deal("end"))  # Ann 17 (back peg 13), Bob 21 (back peg 1)
    frame, _ = render_pegs(state, LAYOUT)
    assert frame[LAYOUT.led_for(0, 17)] == RED and frame[LAYOUT.led_for(0, 13)] == dim(RED)
    assert frame[LAYOUT.led_for(1, 21)] == BLUE and frame[LAYOUT.led_for(1, 1)] == dim(BLUE)
    assert sum(1 for colour in frame if colour in (RED, BLUE)) == 2
    assert dim(RED) != RED and max(dim(RED)) * 4 <= max(RED)


def test_scoring_walks_the_front_peg_hole_by_hole_and_flashes_the_new_holes():
    inputs = deal("end")
    before, after = replay(inputs[:-1]), replay(inputs)  # the crib: four for Ann, 13 -> 17
    _, effects = render_pegs(after, LAYOUT, before=before)
    holes = tuple(LAYOUT.led_for(0, score) for score in range(13, 18))
    assert effects == (Walk(holes, RED), Flash(holes[1:], RED))


def test_undo_moves_the_pegs_back_without_effects():
    inputs = deal("end")
    after_undo = replay(inputs[:-1])
    frame, effects = render_pegs(after_undo, LAYOUT, before=replay(inputs))
    assert effects == ()
    assert frame[LAYOUT.led_for(0, 13)] == RED and frame[LAYOUT.led_for(0, 17)] == OFF


def test_the_winners_track_celebrates_and_the_game_hole_is_lit():
    state = replay([GAME, PegInput("Bob", 80)])
    won = replay([GAME, PegInput("Bob", 80), PegInput("Bob", 45)])
    frame, effects = render_pegs(won, LAYOUT, before=state)
    assert name(won.winner) == "Bob" and won.score("Bob") == 121
    assert frame[LAYOUT.led_for(1, 121)] == BLUE and frame[LAYOUT.led_for(1, 80)] == dim(BLUE)
    assert effects[-1] == Celebrate(LAYOUT.track_leds(1), BLUE)
    walk = effects[0]
    assert isinstance(walk, Walk) and walk.leds[-1] == LAYOUT.led_for(1, 121) and len(walk.leds) == 42


def test_a_61_point_game_marks_the_holes_past_its_own_skunk_lines():
    board = load_layout("two-track-61")
    game = GameInput(("Ann", "Bob"), dealer="Ann", target=61)
    frame, _ = render_pegs(replay([game, PegInput("Bob", 20)]), board)
    assert lit(frame) == {
        board.led_for(0, 0): RED, board.led_for(1, 20): BLUE, board.led_for(1, 0): dim(BLUE),
        **{board.led_for(track, hole): MARKER for track in (0, 1) for hole in (16, 31)},  # after 15 and 30
    }


def test_a_61_point_game_on_a_121_hole_board_finishes_at_hole_61():
    game = GameInput(("Ann", "Bob"), dealer="Ann", target=61)
    before = replay([game, PegInput("Ann", 50)])
    won = replay([game, PegInput("Ann", 50), PegInput("Ann", 30)])
    frame, effects = render_pegs(before, LAYOUT)
    assert lit(frame) == {
        LAYOUT.led_for(0, 50): RED, LAYOUT.led_for(0, 0): dim(RED), LAYOUT.led_for(1, 0): BLUE,
        **{LAYOUT.led_for(track, hole): MARKER for track in (0, 1) for hole in (16, 31)},
        **{LAYOUT.led_for(track, 61): FINISH for track in (0, 1)},  # where this game ends, on both tracks
    }
    frame, effects = render_pegs(won, LAYOUT, before=before)
    assert won.score("Ann") == 61 and frame[LAYOUT.led_for(0, 61)] == RED
    walk = effects[0]
    assert isinstance(walk, Walk) and walk.leds == tuple(LAYOUT.led_for(0, s) for s in range(50, 62))
    assert effects[-1] == Celebrate(LAYOUT.track_leds(0)[:62], RED)  # the holes of this game only
