"""The pegs on the LED strip, computed apart from how they are sent.

`render_pegs(state, layout, colours, before=)` is pure: each side's front peg (its score) and back peg (its
score before its last scoring) in the side's colour, the back peg dimmer; dim marks on the first holes past
the game's skunk and double-skunk lines (where a loser must get to: holes 91 and 61 in a game to 121, 31 and
16 in a game to 61); and the effects the strip plays before settling: the newly scored holes flash and the
front peg walks there hole by hole, and the winner's track celebrates.

The game's target is the finish, whatever the board: a 61-point game on a 121-hole board goes once round and
ends at hole 61, which then glows faintly (FINISH) so the table sees where the game ends.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from companion.cribbage.rules import skunk_lines
from companion.view.leds import OFF, Celebrate, Color, Effect, Flash, Frame, Walk

if TYPE_CHECKING:
    from companion.boards import BoardLayout
    from companion.cribbage.game import GameState

DEFAULT_COLOURS: tuple[Color, ...] = ((220, 30, 20), (20, 60, 230), (20, 190, 40), (230, 170, 0))
MARKER: Color = (10, 10, 10)
FINISH: Color = (24, 24, 24)  # the game hole of a game shorter than the board
BACK_PEG_SHARE = 4  # the back peg shines at a quarter of the front peg


def dim(colour: Color, share: int = BACK_PEG_SHARE) -> Color:
    r, g, b = colour
    return (max(1, r // share) if r else 0, max(1, g // share) if g else 0, max(1, b // share) if b else 0)


def _pegs(state: GameState, track: int) -> tuple[int, int]:
    side = state.sides[track]
    front = state.scores.get(side, 0)
    return front, min(front, state.back_pegs.get(side, 0))


def render_pegs(state: GameState, layout: BoardLayout, colours: Sequence[Color] = DEFAULT_COLOURS,
                before: GameState | None = None) -> tuple[Frame, tuple[Effect, ...]]:
    """The frame for `state`, and the effects of the change from `before` (none without it)."""
    tracks = min(layout.tracks, len(state.sides))
    pegs = [_pegs(state, track) for track in range(tracks)]
    return peg_frame(layout, pegs, state.target, colours), _effects(state, layout, colours, before, tracks)


def peg_leds(state: GameState, layout: BoardLayout) -> tuple[tuple[int, int], ...]:
    """Each track's (front, back) peg as the LEDs that show them (the page draws its pegs from these)."""
    finish = min(state.target, layout.target)
    tracks = min(layout.tracks, len(state.sides))
    return tuple((layout.led_for(track, min(front, finish)), layout.led_for(track, min(back, finish)))
                 for track, (front, back) in ((track, _pegs(state, track)) for track in range(tracks)))


def peg_frame(layout: BoardLayout, pegs: Sequence[tuple[int, int]], target: int,
              colours: Sequence[Color] = DEFAULT_COLOURS) -> Frame:
    """The strip's picture of each track's (front, back) pegs in a game to `target`, with its skunk lines."""
    leds: list[Color] = [OFF] * layout.led_count
    tracks = min(layout.tracks, len(pegs))
    finish = min(target, layout.target)
    for track in range(tracks):
        for hole in skunk_lines(target):
            if hole < finish:
                leds[layout.led_for(track, hole)] = MARKER
        if finish < layout.target:
            leds[layout.led_for(track, finish)] = FINISH
    for track in range(tracks):
        colour = colours[track % len(colours)]
        front, back = pegs[track]
        leds[layout.led_for(track, min(back, finish))] = dim(colour)
        leds[layout.led_for(track, min(front, finish))] = colour
    return tuple(leds)


def _effects(state: GameState, layout: BoardLayout, colours: Sequence[Color], before: GameState | None,
             tracks: int) -> tuple[Effect, ...]:
    if before is None or before.sides != state.sides:
        return ()
    effects: list[Effect] = []
    for track in range(tracks):
        colour = colours[track % len(colours)]
        old, _ = _pegs(before, track)
        new, _ = _pegs(state, track)
        if new > old:
            holes = range(old, min(new, state.target, layout.target) + 1)
            walk = tuple(layout.led_for(track, score) for score in holes)
            effects.append(Walk(walk, colour))
            effects.append(Flash(walk[1:], colour))
    if state.winner is not None and state.winner != before.winner and state.winner in state.sides:
        track = state.sides.index(state.winner)
        if track < tracks:
            finish = min(state.target, layout.target)
            effects.append(Celebrate(layout.track_leds(track)[:finish + 1], colours[track % len(colours)]))
    return tuple(effects)
