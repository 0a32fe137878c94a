"""What an LED strip is told to show: a colour per LED, and the effects it plays by itself (on the LED
co-processor) before settling on the frame it was given. `pegs.py` computes them; the strip drivers send them."""

from __future__ import annotations

from dataclasses import dataclass

Color = tuple[int, int, int]
Frame = tuple[Color, ...]
"""One colour per LED, in strip order."""

OFF: Color = (0, 0, 0)


@dataclass(frozen=True, slots=True)
class Walk:
    """A peg walking hole by hole along `leds` (in order) in `color`."""

    leds: tuple[int, ...]
    color: Color


@dataclass(frozen=True, slots=True)
class Flash:
    """The newly scored holes blinking briefly."""

    leds: tuple[int, ...]
    color: Color


@dataclass(frozen=True, slots=True)
class Celebrate:
    """The winner's track flashing at the end of the game."""

    leds: tuple[int, ...]
    color: Color


Effect = Walk | Flash | Celebrate
