"""What the 128x64 OLED shows, computed apart from how it is sent.

`screen_view(state, ...)` picks the words from a game state; `render_screen(view)` draws them with the
shipped font into a mode "1" image. Both are pure, so golden images pin every pixel.

Layout (DejaVu Sans Mono 10 px, 21 characters a line, 11 px a line):
    Ann* 45       Bob 38    scores; * marks the dealer, > whose turn it is
    ---------------------
    Count 17  Starter 10♣   the play: the count, the starter and the cards since the last reset,
    5♥ Q♠ 2♣                or a score spoken one line at a time ("fifteen two", ...)
    Bob to play, count 17   the prompt, wrapped: what the table must do next
The suits are drawn from 5x7 bitmaps on the cap height, each in its character's cell: the font's own ♣ ♦ ♥ ♠
are blobs at 10 px that a player cannot tell apart across the table.
Errors replace the middle and the prompt, white on black, until they time out. In coaching mode the review
of a discard takes the screen for a few seconds, three lines a page above "Coach: Bob 1/3".
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import TYPE_CHECKING

from PIL import Image, ImageDraw, ImageFont

from companion.cribbage.cards import Suit
from companion.cribbage.facts import Side
from companion.cribbage.phrases import score_parts, side_name
from companion.fonts import MONO
from companion.i18n import _

if TYPE_CHECKING:
    from companion.cribbage.facts import ScoreEvent
    from companion.cribbage.game import GameState

SIZE = (128, 64)
FONT_PX = 10
LINE_PX = 11
COLUMNS = 21
ROWS = 4  # lines below the header: the body and the prompt share them


# Each suit by its silhouette: the heart notched on top and pointed below, the diamond thin and pointed at both
# ends, the spade pointed on top over a stem, the club three round lobes over a stem.
SUIT_BITMAPS: dict[Suit, tuple[str, ...]] = {
    Suit.CLUBS: (".###.", ".###.", "##.##", "#####", "##.##", "..#..", ".###."),
    Suit.DIAMONDS: ("..#..", "..#..", ".###.", "#####", ".###.", "..#..", "..#.."),
    Suit.HEARTS: (".....", ".#.#.", "#####", "#####", "#####", ".###.", "..#.."),
    Suit.SPADES: ("..#..", ".###.", "#####", "#####", "#.#.#", "..#..", ".###."),
}


@dataclass(frozen=True, slots=True)
class ScreenView:
    """The words on the screen. `scores` lists (side, points) in seat order."""

    scores: tuple[tuple[Side, int], ...]
    dealer: str | None = None
    turn: str | None = None
    body: tuple[str, ...] = ()
    prompt: str = ""
    error: str | None = None


@cache
def _font() -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(MONO), FONT_PX)


@cache
def _cap_corner() -> tuple[int, int]:
    """Where the pixels of a capital H start, from where the font draws it: the suits go there."""
    capital = Image.new("1", (LINE_PX, LINE_PX), 0)
    ImageDraw.Draw(capital).text((0, 0), "H", font=_font(), fill=1)
    left, top, _, _ = capital.getbbox() or (0, 0, 0, 0)
    return left, top


@cache
def suit_glyphs() -> dict[str, Image.Image]:
    """The suit bitmaps as masks, by the symbol that stands for them in screen text."""
    glyphs = {}
    for suit, rows in SUIT_BITMAPS.items():
        glyph = Image.new("1", (len(rows[0]), len(rows)), 0)
        glyph.putdata([1 if pixel == "#" else 0 for row in rows for pixel in row])
        glyphs[suit.symbol] = glyph
    return glyphs


_PAD = LINE_PX  # room above and below a line's cell for the parts of glyphs that reach out of it


@lru_cache(maxsize=512)
def _line_mask(line: str) -> Image.Image:
    """`line` drawn once into a mask as wide as the screen, `_PAD` pixels down: the screen repeats its lines
    (names, scores, prompts) from one input to the next, and a font renders slowly on a Pi Zero."""
    font = _font()
    glyphs = suit_glyphs()
    mask = Image.new("1", (SIZE[0], LINE_PX + 2 * _PAD), 0)
    draw = ImageDraw.Draw(mask)
    draw.text((0, _PAD), "".join(" " if char in glyphs else char for char in line), font=font, fill=1)
    left, top = _cap_corner()
    for column, char in enumerate(line):
        if char in glyphs:
            x = int(font.getlength(line[:column])) + left
            draw.bitmap((x, _PAD + top), glyphs[char], fill=1)
    return mask


def _text(draw: ImageDraw.ImageDraw, xy: tuple[int, int], line: str, fill: int) -> None:
    """`line` at `xy` in the font, each suit symbol replaced by its bitmap in the box of a capital H in that cell."""
    draw.bitmap((xy[0], xy[1] - _PAD), _line_mask(line), fill=fill)


def _wrap(text: str, width: int = COLUMNS) -> list[str]:
    return textwrap.wrap(text, width, break_long_words=True, break_on_hyphens=False) or [""]


def header(view: ScreenView) -> str:
    """Both scores on one line: 'Ann* 45    Bob 38' (with three sides, names shortened to fit)."""
    parts = []
    width = COLUMNS // max(1, len(view.scores))
    for side, points in view.scores:
        mark = "*" if view.dealer in side else ">" if view.turn in side else ""
        number = str(points)
        name = side_name(side)[: max(1, width - len(number) - len(mark) - 2)]
        parts.append(f"{name}{mark} {number}")
    if len(parts) == 2:
        gap = COLUMNS - len(parts[0]) - len(parts[1])
        return parts[0] + " " * max(1, gap) + parts[1]
    return " ".join(parts)[:COLUMNS]


def _lines(view: ScreenView) -> tuple[list[str], list[str]]:
    """The lines under the header: (body from the top, prompt at the bottom), or (error, nothing)."""
    if view.error:
        return _wrap(view.error)[:ROWS], []
    prompt = _wrap(view.prompt)[:2]
    return [line[:COLUMNS] for line in list(view.body)[: ROWS - len(prompt)]], prompt


def render_screen(view: ScreenView) -> Image.Image:
    image = Image.new("1", SIZE, 0)
    draw = ImageDraw.Draw(image)
    _text(draw, (0, -1), header(view), fill=1)
    draw.line((0, LINE_PX, SIZE[0] - 1, LINE_PX), fill=1)
    top = LINE_PX + 2
    body, prompt = _lines(view)
    if view.error:
        draw.rectangle((0, top - 1, SIZE[0] - 1, SIZE[1] - 1), fill=1)
        for row, line in enumerate(body):
            _text(draw, (1, top + row * LINE_PX - 1), line, fill=0)
        return image
    for row, line in enumerate(body):
        _text(draw, (0, top + row * LINE_PX - 1), line, fill=1)
    bottom = SIZE[1] - len(prompt) * LINE_PX
    for row, line in enumerate(prompt):
        _text(draw, (0, bottom + row * LINE_PX - 2), line, fill=1)
    return image


def screen_text(view: ScreenView) -> list[str]:
    """The screen as text, line for line as `render_screen` draws it: the header, a rule, then four lines
    (the body from the top, the prompt at the bottom; an error fills them, drawn white on black)."""
    body, prompt = _lines(view)
    rows = body + [""] * (ROWS - len(body) - len(prompt)) + prompt
    return [header(view), "─" * COLUMNS, *(line.ljust(COLUMNS) for line in rows)]


def spoken_blocks(events: Sequence[ScoreEvent], room: int = ROWS) -> list[tuple[str, ...]]:
    """The scores of the last input as a player says them, in blocks of lines that a page never splits: each
    phrase (a long one wrapped at word boundaries onto two lines), the first with its heading when both fit
    in `room` lines."""
    blocks: list[tuple[str, ...]] = []
    for event in events:
        heading, counted, notes = score_parts(event)
        phrases = [tuple(_wrap(phrase)) for phrase in counted + notes]
        if heading is None:
            blocks.extend(phrases)
        elif phrases and 1 + len(phrases[0]) <= room:
            blocks.extend(((heading, *phrases[0]), *phrases[1:]))
        else:
            blocks.extend(((heading,), *phrases))
    return blocks


def spoken_lines(events: Sequence[ScoreEvent]) -> list[str]:
    """The scores of the last input as a player says them: a heading, then one phrase a line (or two)."""
    return [line for block in spoken_blocks(events) for line in block]


def spoken_pages(events: Sequence[ScoreEvent], room: int) -> list[tuple[str, ...]]:
    """The spoken scores `room` lines a page (at least two), each page ending at the end of a phrase."""
    pages: list[tuple[str, ...]] = []
    page: tuple[str, ...] = ()
    for block in spoken_blocks(events, room):
        if page and len(page) + len(block) > room:
            pages.append(page)
            page = ()
        page += block
    if page:
        pages.append(page)
    return pages


def body_lines(state: GameState, recent: Sequence[ScoreEvent], page: int, room: int) -> tuple[str, ...]:
    """The middle of the screen: the latest scores, a page at a time; otherwise the count and pile."""
    pages = spoken_pages(recent, room)
    if pages:
        return pages[page % len(pages)]
    if state.phase == "play":
        pile = " ".join(card.pretty for card in state.pile)
        count = _("Count {count}").format(count=state.count)
        if state.starter is not None:  # the starter stays in sight through the play, on the right
            starter = _("Starter {card}").format(card=state.starter.pretty)
            count += " " * max(1, COLUMNS - len(count) - len(starter)) + starter
        return (count, *_wrap(pile)[: room - 1])
    if state.starter is not None and state.phase in ("crib", "claim"):
        return (_("Starter {card}").format(card=state.starter.pretty),)
    return ()


def page_count(recent: Sequence[ScoreEvent], room: int) -> int:
    return max(1, len(spoken_pages(recent, room)))


def _scores(state: GameState) -> tuple[tuple[Side, int], ...]:
    return tuple((side, state.scores.get(side, 0)) for side in state.sides)


def screen_view(state: GameState, *, recent: Sequence[ScoreEvent] = (), page: int = 0, prompt: str | None = None,
                error: str | None = None) -> ScreenView:
    """The screen for `state`; `recent` are the score events of the last input, shown `page` by page."""
    prompt = state.prompt() if prompt is None else prompt
    room = body_room(prompt)
    return ScreenView(
        scores=_scores(state),
        dealer=state.dealer,
        turn=state.turn if state.phase == "play" else None,
        body=body_lines(state, recent, page, room),
        prompt=prompt,
        error=error,
    )


def coach_pages(state: GameState, player: str, said: str) -> list[ScreenView]:
    """The coach's review of `player`'s discard, `ROWS - 1` lines a page, each page numbered at the bottom."""
    lines = _wrap(said)
    room = ROWS - 1
    pages = [lines[start : start + room] for start in range(0, len(lines), room)]
    scores = _scores(state)
    return [ScreenView(scores, dealer=state.dealer, body=tuple(page), prompt=_("Coach: {player} {page}/{pages}")
                                                                             .format(player=player, page=i,
                                                                                     pages=len(pages)))
            for i, page in enumerate(pages, 1)]


def body_room(prompt: str) -> int:
    """Lines left for the body under a prompt of one or two lines."""
    return ROWS - len(_wrap(prompt)[:2])
