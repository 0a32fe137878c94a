"""What the page shows, as JSON: the table's presenter (`Table.shown()`: the LEDs and the OLED's words, and the
message in the page's language), the game, the story of the table (typed facts), the OLED image, and
the person's side of a game against the computer (companion/play/present.py). Computed on the main loop after
each change, sent to every page.
"""

from __future__ import annotations

import base64
import io
from typing import TYPE_CHECKING

from typing_extensions import TypedDict

from companion.cribbage.facts import Phase, ScoreKind
from companion.cribbage.game import GameState
from companion.i18n import current
from companion.play.present import YouJSON, person_json, person_prompt
from companion.table.story import StoryJSON, story_json
from companion.view.board import effects_json, frame_colours, hex_colour
from companion.view.pegs import peg_leds, render_pegs
from companion.words.contract import CardJSON, MessageJSON, StateJSON
from companion.words.projection import card_json, message_json, state_json

if TYPE_CHECKING:
    from PIL import Image

    from companion.play.computer import ComputerGame
    from companion.table import Table


class PegsJSON(TypedDict):
    """A side's two pegs as the LEDs that show them (None: not on the board yet)."""

    side: int
    front: int
    back: int


class ClaimJSON(TypedDict):
    """What a muggins claim is asked for, face up as at the table: a player's hand (as played) or the crib."""

    kind: str  # "hand" or "crib"
    player: str  # whose hand, or the dealer (the crib's)
    cards: list[CardJSON]
    starter: CardJSON


class SnapshotJSON(TypedDict):
    """The page's whole picture of the table (`/api/state` and each WebSocket message): the game under `state`,
    the board as the strip and the OLED show it, the person's side of a game against the computer (`you`), and
    the story (docs/schema/snapshot.schema.json)."""

    state: StateJSON
    prompt: str
    message: str  # the message on show, in the page's language ("": none)
    message_facts: MessageJSON | None  # the same as facts: its kind and what it names
    error: bool
    screen: dict[str, object]  # the OLED's view: scores, body and prompt as drawn
    held: list[CardJSON]  # crib or coached cards on their way in
    asking: CardJSON | None  # the card a camera was not sure of, asked about until answered (entry/doubt.py)
    claiming: ClaimJSON | None  # muggins: the hand or crib whose count is to be claimed now
    layout: str
    led_count: int
    frame: list[str | None]  # each LED's colour (None: a dark hole)
    effects: list[dict[str, object]]  # flash, walk and the win, played on the board's holes
    pegs: list[PegsJSON]
    colours: list[str]
    oled: str  # the OLED's picture as a PNG data URL
    log: str
    you: YouJSON | None
    voice: dict[str, object]  # what the board said for the last input
    story: StoryJSON


def claim_json(state: GameState) -> ClaimJSON | None:
    """The cards of the claim asked for now (muggins), None when none is."""
    if state.phase is not Phase.CLAIM or not state.counts or state.starter is None:
        return None
    kind, player = state.counts[0]
    cards = state.crib if kind is ScoreKind.CRIB else state.played_by(player)
    if cards is None:
        return None
    return {"kind": kind.value, "player": player, "cards": [card_json(c) for c in cards],
            "starter": card_json(state.starter)}


def oled_png(image: Image.Image | None) -> str:
    """The OLED's image as a data URL of a PNG, pixel for pixel (the page scales it up without smoothing)."""
    if image is None:
        return ""
    out = io.BytesIO()
    image.save(out, "PNG", compress_level=1)
    return "data:image/png;base64," + base64.b64encode(out.getvalue()).decode()


def snapshot(table: Table, computer: ComputerGame | None = None, before: GameState | None = None,
             image: Image.Image | None = None) -> SnapshotJSON:
    """The page's whole picture of the table now; `before` gives the effects (flash, walk, win) to play."""
    state = table.state
    projected = state_json(state, table.awaited())
    you = person_json(computer, state, projected)
    prompt = person_prompt(table, computer, current())  # in the language of the page it is made for
    effects = render_pegs(state, table.layout, table.colours, before)[1] if before is not None else ()
    shown = table.shown()  # the presenter's: the LEDs the strip has and the words on the OLED
    return {
        "state": projected,
        "prompt": prompt,
        "message": shown.message or "", "error": shown.error, "screen": shown.screen_json(),
        "message_facts": message_json(table.presenter.message, state.sides) if table.presenter.message else None,
        "held": [card_json(c) for c in table.cards],
        "asking": card_json(table.doubt.card) if table.doubt.card is not None else None,
        "claiming": claim_json(state),
        "layout": table.layout.name, "led_count": table.layout.led_count,
        "frame": frame_colours(shown.leds), "effects": effects_json(effects),
        "pegs": [{"side": side, "front": front, "back": back}
                 for side, (front, back) in enumerate(peg_leds(state, table.layout))],
        "colours": [hex_colour(table.colours[i % len(table.colours)]) for i in range(len(state.sides))],
        "oled": oled_png(image if image is not None else table.picture.image),
        "log": table.log.path.name,
        "you": you,
        "voice": table.spoken.to_json(),  # what the board said for the last input: the page can say it too
        "story": story_json(table.story, state.sides),  # what happened, as typed facts (docs/architecture.md)
    }
