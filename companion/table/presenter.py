"""The presenter: what the board shows, the pegs on the strip and the words on the OLED, and sends them.

The table tells it the story of each entry (story.py: the scores among its facts), a message (a typed value,
companion/words/messages.py) and the prompt; it decides what is on show (a message for a few seconds, long enough
to read each of its pages; a long score, prompt or message paged, the pages turning by themselves; a coach's
review) and sends the frame to the strip and the image to the display.
A strip or display that fails never stops the game. The presenter is the OLED's edge: it makes the message's words
in the current language (the board's), and `shown()` is the same picture in plain values, its message in the
language current when it is called (a web page's, in the page's).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, replace
from typing import TYPE_CHECKING

from companion.base.clock import Clock
from companion.cribbage.facts import Phase
from companion.devices.base import PegStrip, StatusDisplay, problem_of
from companion.i18n import _, current
from companion.view.leds import Color, Frame
from companion.view.pegs import DEFAULT_COLOURS, render_pegs
from companion.view.screen import (
    COLUMNS,
    PROMPT_ROWS,
    ROWS,
    ScreenView,
    body_room,
    pages,
    render_screen,
    screen_view,
    spoken_pages,
    word_pages,
)
from companion.words.devices import STRIP, journal_words
from companion.words.messages import Message, Say
from companion.words.phrases import message_words, move_words, side_name

from .story import Fact, Go, Played, Refused, Scored, Turn, Undone

if TYPE_CHECKING:
    from PIL import Image

    from companion.boards import BoardLayout
    from companion.cribbage.facts import ScoreEvent
    from companion.cribbage.game import GameState

log = logging.getLogger(__name__)


@dataclass
class Picture:
    """The latest outputs, as sent to the devices (the simulator draws them in the terminal)."""

    frame: Frame = ()
    image: Image.Image | None = None
    recent: tuple[ScoreEvent, ...] = ()
    page: int = 0
    moved: Played | Go | None = None  # the last input's card or go, on show above its scores or the pile


@dataclass(frozen=True, slots=True)
class Shown:
    """What the board shows, in plain values: the LEDs in strip order and the words on the screen."""

    leds: Frame
    screen: ScreenView
    message: str | None = None
    error: bool = False

    def to_json(self) -> dict[str, object]:
        """Lists, strings and numbers only: `json.dumps` takes it as it is."""
        return {"leds": [list(colour) for colour in self.leds], "screen": self.screen_json(), "message": self.message,
                "error": self.error}

    def screen_json(self) -> dict[str, object]:
        """The words on the screen: the scores (each side's name and points), the body and the prompt."""
        screen = asdict(self.screen)
        screen["scores"] = [[side_name(side), points] for side, points in self.screen.scores]
        screen["body"] = list(self.screen.body)
        return screen


class Presenter:
    """The strip and the screen of one table, the message of the moment and the page of a long score."""

    def __init__(
        self,
        *,
        layout: BoardLayout,
        clock: Clock,
        strip: PegStrip | None = None,
        display: StatusDisplay | None = None,
        colours: Sequence[Color] = DEFAULT_COLOURS,
        message_seconds: float = 4.0,
        page_seconds: float = 2.5,
    ) -> None:
        self.layout = layout
        self.clock = clock
        self.strip = strip
        self.strip_connected = True  # as last told at the table: a strip that goes missing is said once
        self.display = display
        self.colours = tuple(colours)
        self.message_seconds = message_seconds
        self.page_seconds = page_seconds
        self.picture = Picture()
        self.view: ScreenView | None = None  # the words last drawn
        self.message: Message | None = None
        self.message_is_error = False
        self.message_until = 0.0
        self.message_page = 0  # the page of the message on show
        self.message_at = 0.0  # when that page was turned to
        self.page_at = 0.0

    # -- what happened at the table -------------------------------------------------------------------
    def say(self, message: Message, *, error: bool) -> None:
        """Show `message` (white on black when an error) for `message_seconds`, or for as long as its pages take
        when it has more than one."""
        now = self.clock.monotonic()
        self.message = message
        self.message_is_error = error
        shown = len(pages(message_words(message, current()), ROWS if error else PROMPT_ROWS))
        self.message_until = now + max(self.message_seconds, shown * self.page_seconds)
        self.message_page, self.message_at = 0, now

    def told(self, facts: Sequence[Fact], person: str | None = None) -> None:
        """The story of one entry: the scores it told are on show from their first page (those after its last
        undo; none when it only undid); at a virtual table (`person` seated against the computer) the card a
        computer player played or its go too, so the person learns what the computer just did: "Pro 6♠: 31",
        then "Pro: thirty-one for 2". A refusal or a turn alone changes nothing here."""
        moved = [fact for fact in facts if not isinstance(fact, Refused | Turn)]
        if not moved:
            return
        undos = [i for i, fact in enumerate(moved) if isinstance(fact, Undone)]
        after = moved[undos[-1] + 1:] if undos else moved
        self.picture.recent = tuple(fact.event for fact in after if isinstance(fact, Scored))
        moves = [fact for fact in after if isinstance(fact, Played | Go) and person not in (None, fact.player)]
        self.picture.moved = moves[-1] if moves else None
        self.picture.page = 0
        self.page_at = self.clock.monotonic()

    def next_page(self) -> None:
        """"ok": the next page of a long score or prompt at once."""
        self.page_at = self.clock.monotonic()
        self.picture.page += 1

    def first_page(self, now: float) -> None:
        """The scores from their first page again (after a coach's review)."""
        self.picture.page, self.page_at = 0, now

    # -- time -----------------------------------------------------------------------------------------
    def tick(self, now: float, *, prompt: Callable[[], str], paging: bool = True) -> bool:
        """Messages turn their pages and time out, the strip's coming and going is said, long scores and prompts
        page on (when `paging`). True when the picture changed."""
        changed = False
        if self.message is not None and now >= self.message_until:
            self.message = None
            changed = True
        strip_connected = self.strip is None or self.strip.connected
        if strip_connected != self.strip_connected:
            self.strip_connected = strip_connected
            self.say(Message(Say.STRIP_BACK if strip_connected else Say.STRIP_MISSING), error=not strip_connected)
            changed = True
        if self.message is not None:
            if now - self.message_at >= self.page_seconds and self.view is not None and len(word_pages(self.view)) > 1:
                self.message_page += 1
                self.message_at = now
                changed = True
        elif not changed and paging and now - self.page_at >= self.page_seconds:  # looked at once a page's time
            self.page_at = now
            if self._pages(prompt()) > 1:
                self.picture.page += 1
                changed = True
        return changed

    def _pages(self, prompt: str) -> int:
        """How many pages the scores or the prompt on show take (the more of the two)."""
        scores = max(1, len(self._spoken(body_room(prompt))))
        shown = len(word_pages(self.view)) if self.view is not None and not self.view.error else 1
        return max(scores, shown)

    # -- the last move ---------------------------------------------------------------------------------
    def _spoken(self, room: int) -> list[tuple[str, ...]]:
        """The last input's scores, `room` lines a page, the move that made them first: on their first page when
        it has a line left, else on a page before them."""
        found = spoken_pages(self.picture.recent, room)
        moved = self.picture.moved
        if moved is None or not found:
            return found
        line = move_words(moved.player, moved.card if isinstance(moved, Played) else None,
                          moved.count if isinstance(moved, Played) else 0)
        return [(line, *found[0]), *found[1:]] if len(found[0]) < room else [(line,), *found]

    def _moved_body(self, state: GameState, room: int) -> tuple[str, ...] | None:
        """The body with the last move on show: its scores' page, or in the play the move (the starter on its
        right when both fit) above the latest cards of the pile; None when no move is on show."""
        moved = self.picture.moved
        if moved is None:
            return None
        spoken = self._spoken(room)
        if spoken:
            return spoken[self.picture.page % len(spoken)]
        if state.phase is not Phase.PLAY:
            return None
        line = move_words(moved.player, moved.card if isinstance(moved, Played) else None,
                          moved.count if isinstance(moved, Played) else 0)
        if state.starter is not None:
            starter = _("Starter {card}").format(card=state.starter.pretty)
            if len(line) + 1 + len(starter) <= COLUMNS:
                line += " " * (COLUMNS - len(line) - len(starter)) + starter
        pile = " ".join(card.pretty for card in state.pile)
        return (line, *(pages(pile, room - 1)[-1] if pile and room > 1 else ()))

    # -- outputs --------------------------------------------------------------------------------------
    def render(self, state: GameState, *, prompt: str, review: ScreenView | None = None,
               before: GameState | None = None) -> None:
        """Send the pegs (with effects when `before` is given) and the screen: a message, else the coach's
        `review` page, else the game with its latest scores and `prompt` (and an error over it)."""
        frame, effects = render_pegs(state, self.layout, self.colours, before)
        if self.strip is not None:
            frame = frame + ((0, 0, 0),) * max(0, self.strip.led_count - len(frame))
            frame = frame[: self.strip.led_count]
            if frame != self.picture.frame or effects:
                try:
                    self.strip.show(frame, effects)
                except Exception as error:  # a strip that fails must not stop the game
                    log.warning(journal_words("failed", device=STRIP, problem=problem_of(error)))
        self.picture.frame = frame
        message = self.words()
        if message and not self.message_is_error:
            view = screen_view(state, prompt=message, words_page=self.message_page)
        elif review is not None and not message:
            view = review
        else:
            view = screen_view(state, recent=self.picture.recent, page=self.picture.page, prompt=prompt,
                               error=message, words_page=self.message_page if message else None)
            body = self._moved_body(state, body_room(view.prompt))
            if body is not None:
                view = replace(view, body=body)
        self.view = view
        image = render_screen(view)
        self.picture.image = image
        if self.display is not None:
            try:
                self.display.show(image)
            except Exception as error:  # likewise a screen that fails
                log.warning(journal_words("failed", device="OLED", problem=problem_of(error)))

    def words(self) -> str | None:
        """The message on show in the current language (None when none is)."""
        return None if self.message is None else message_words(self.message, current())

    def shown(self) -> Shown:
        """What is on show now, in plain values: the message in the current language."""
        assert self.view is not None, "render() first"
        return Shown(self.picture.frame, self.view, self.words(), self.message is not None and self.message_is_error)

