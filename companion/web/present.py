"""What the page shows, as JSON: the table's presenter (`Table.shown()`: the LEDs and the OLED's words, and the
message), the game, the OLED image, and the person's side of a game against the computer. Computed on the main
loop after each change, sent to every page.

The computer players' cards stay hidden until the show: a snapshot holds only how many they hold, and their
hands once they are counted.
"""

from __future__ import annotations

import base64
import io
from typing import TYPE_CHECKING, Any

from companion.cribbage.game import GameState, legal_moves
from companion.i18n import _
from companion.view.pegs import peg_leds, render_pegs
from companion.words.projection import card_json, state_json

from .board import effects_json, frame_colours, hex_colour

if TYPE_CHECKING:
    from PIL import Image

    from companion.play.computer import ComputerGame
    from companion.table import Table


def oled_png(image: Image.Image | None) -> str:
    """The OLED's image as a data URL of a PNG, pixel for pixel (the page scales it up without smoothing)."""
    if image is None:
        return ""
    out = io.BytesIO()
    image.save(out, "PNG", compress_level=1)
    return "data:image/png;base64," + base64.b64encode(out.getvalue()).decode()


def person_json(computer: ComputerGame | None, state: GameState) -> dict[str, Any] | None:
    """The person's own cards and choices in a game against the computer."""
    if computer is None or computer.settings is None:
        return None
    settings = computer.settings
    person = settings.person
    dealt = state.hands.get(person, ())
    discard = state.discards.get(person)
    held = state.held(person) if discard is not None else None
    my_turn = state.phase == "play" and state.turn == person
    legal = legal_moves(state)  # the engine's answer: the cards that fit, and whether go is allowed
    return {
        "person": person, "computers": list(settings.computers), "levels": list(settings.levels),
        "settings": settings.to_json(),
        "dealt": [card_json(c) for c in dealt] if discard is None and state.phase == "deal" else [],
        "discard_size": state.discard_size,
        "discarded": [card_json(c) for c in discard or ()],
        "held": [card_json(c) for c in held or ()],
        "playable": [str(c) for c in legal.plays or ()] if my_turn else [],
        "can_go": my_turn and legal.go,
        "must_claim": state.phase == "claim" and state.counts[0][1] == person,
        "feedback": computer.feedback, "said": computer.said,
        "crib_in": sum(len(cards) for cards in state.discards.values()),  # face down until the show
        "show": show_json(computer, state),
    }


def show_json(computer: ComputerGame, state: GameState) -> dict[str, Any] | None:
    """The show on screen: the deal (its cards and counts are that deal's `show` in the state's `deals`), whether
    the deck waits for the person's OK, and whether the game is over (then the show stays, with Play again)."""
    waiting = computer.showing(state)
    if waiting is not None:
        return {"deal": waiting, "waiting": True, "over": False}
    if state.winner is not None and state.deals:
        return {"deal": state.deal_number, "waiting": False, "over": True}
    return None


def person_prompt(table: Table, computer: ComputerGame | None) -> str:
    """The table's prompt (which speaks to the person of a game against the computer), or, while the deck waits
    for the person to see the show, that."""
    if computer is not None and computer.settings is not None and computer.showing(table.state) is not None:
        return _("The show: Continue (OK) deals the next hand")
    return table.prompt()


def snapshot(table: Table, computer: ComputerGame | None = None, before: GameState | None = None,
             image: Image.Image | None = None) -> dict[str, Any]:
    """The page's whole picture of the table now; `before` gives the effects (flash, walk, win) to play."""
    state = table.state
    you = person_json(computer, state)
    prompt = person_prompt(table, computer)
    effects = render_pegs(state, table.layout, table.colours, before)[1] if before is not None else ()
    shown = table.shown()  # the presenter's: the LEDs the strip has and the words on the OLED
    return {
        "state": state_json(state, table.awaited()),
        "prompt": prompt,
        "message": shown.message or "", "error": shown.error, "screen": shown.to_json()["screen"],
        "held": [card_json(c) for c in table.cards],
        "layout": table.layout.name, "led_count": table.layout.led_count,
        "frame": frame_colours(shown.leds), "effects": effects_json(effects),
        "pegs": [{"side": side, "front": front, "back": back}
                 for side, (front, back) in enumerate(peg_leds(state, table.layout))],
        "colours": [hex_colour(table.colours[i % len(table.colours)]) for i in range(len(state.sides))],
        "oled": oled_png(image if image is not None else table.picture.image),
        "log": table.log.path.name,
        "you": you,
        "voice": table.spoken.to_json(),  # what the board said for the last input: the page can say it too
    }
