"""What the 128x64 OLED shows, computed apart from how it is sent.

`screen_view(state, ...)` picks the words from a game state; `render_screen(view)` draws them with the
shipped font into a mode "1" image. Both are pure, so golden images pin every pixel.

Layout (DejaVu Sans Mono 10 px, 21 characters a line, 11 px a line):
    Ann* 45      ▶Bob 38    scores; * marks the dealer, ▶ whose turn it is (both at once: ▶Ann* 45)
    ---------------------
    Count 17  Starter 10♣   the play: the count, the starter and the cards since the last reset,
    5♥ Q♠ 2♣                or a score as it is spoken ("Bob's hand: 20", "Bob: fifteen two, ...")
    Bob to play, count 17   the prompt, wrapped: what the table must do next
The suits and the turn's ▶ are drawn from 5x7 bitmaps on the cap height, each in its character's cell: the
font's own ♣ ♦ ♥ ♠ are blobs at 10 px that a player cannot tell apart across the table.
No word is ever cut and no line dropped: a text longer than its lines is paged (`pages`), each page ending
where a phrase ends (after . : ; ? ! or around brackets) when the page holds such an end, and the pages turn
by themselves ([display] page_ms). The prompt has two lines under the body (four when there is no body) and
the body the lines the prompt leaves: a spoken score is paged in them, every page after its heading's first
saying whose score it is ("Bartholomäus: fifteen six, fifteen eight"), a phrase longer than a page split at
words. Errors replace the middle and the prompt, white on black, four lines a page, until they time out. In
coaching mode the review of a discard takes the screen for a few seconds, three lines a page above
"Coach: Bob 1/3". `layout(view)` gives the lines as drawn; `render_screen` and `screen_text` both use it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import TYPE_CHECKING

from PIL import Image, ImageDraw, ImageFont

from companion.cribbage.cards import Suit
from companion.cribbage.facts import Phase, Side
from companion.fonts import MONO
from companion.i18n import _, current
from companion.view.speech import PARTS
from companion.words.count import joined
from companion.words.phrases import prompt_words, score_parts, side_name

if TYPE_CHECKING:
    from companion.cribbage.facts import ScoreEvent
    from companion.cribbage.game import GameState

SIZE = (128, 64)
FONT_PX = 10
LINE_PX = 11
COLUMNS = 21
ROWS = 4  # lines below the header: the body and the prompt share them
PROMPT_ROWS = 2  # the prompt's lines under a body
TURN = "▶"  # marks whose turn it is in the header
DEALER = "*"  # marks the dealer


# Each suit by its silhouette: the heart notched on top and pointed below, the diamond thin and pointed at both
# ends, the spade pointed on top over a stem, the club three round lobes over a stem.
SUIT_BITMAPS: dict[Suit, tuple[str, ...]] = {
    Suit.CLUBS: (".###.", ".###.", "##.##", "#####", "##.##", "..#..", ".###."),
    Suit.DIAMONDS: ("..#..", "..#..", ".###.", "#####", ".###.", "..#..", "..#.."),
    Suit.HEARTS: (".....", ".#.#.", "#####", "#####", "#####", ".###.", "..#.."),
    Suit.SPADES: ("..#..", ".###.", "#####", "#####", "#.#.#", "..#..", ".###."),
}
TURN_BITMAP = ("#....", "##...", "###..", "####.", "###..", "##...", "#....")


@dataclass(frozen=True, slots=True)
class ScreenView:
    """The words on the screen. `scores` lists (side, points) in seat order; `page` is the page of the prompt
    (or of the error) on show, counted on and round again."""

    scores: tuple[tuple[Side, int], ...]
    dealer: str | None = None
    turn: str | None = None
    body: tuple[str, ...] = ()
    prompt: str = ""
    error: str | None = None
    page: int = 0


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
    """The suit bitmaps (and the turn's mark) as masks, by the symbol that stands for them in screen text."""
    bitmaps = {suit.symbol: rows for suit, rows in SUIT_BITMAPS.items()} | {TURN: TURN_BITMAP}
    glyphs = {}
    for symbol, rows in bitmaps.items():
        glyph = Image.new("1", (len(rows[0]), len(rows)), 0)
        glyph.putdata([1 if pixel == "#" else 0 for row in rows for pixel in row])
        glyphs[symbol] = glyph
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


_SEAMS = "/:.-"  # where an address reads well broken: https://cribbage. | local:8443/scan


def _cut(word: str, width: int) -> int:
    """Where a word longer than a line is broken: after its last seam within the line (an address), at the
    line's end when it has none in the line's second half (junk typed)."""
    seam = max(word.rfind(mark, 0, width) for mark in _SEAMS) + 1
    return seam if seam > width // 2 else width


def _wrap(text: str, width: int = COLUMNS) -> list[str]:
    """`text` in lines of `width` columns, broken between words (a word longer than a line, the phones' address,
    is broken after a / : . or -, or else where the line ends)."""
    lines: list[str] = []
    line = ""
    for whole in text.split():
        word = whole
        while len(word) > width:
            if line:
                lines.append(line)
                line = ""
            cut = _cut(word, width)
            lines.append(word[:cut])
            word = word[cut:]
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = ""
        line = f"{line} {word}" if line else word
    return [*lines, line] if line or not lines else lines


_CLOSES = (".", ":", ";", "?", "!", ")")  # not the comma: it separates the names of a list as often as phrases


def _phrase_ends(words: Sequence[str], closes: tuple[str, ...] = _CLOSES) -> set[int]:
    """The places between words (index of the word after) where a phrase ends: after a word ending in . : ; ? !
    (or another of `closes`) outside brackets, after a closing bracket, and before an opening one."""
    ends, depth = set(), 0
    for index, word in enumerate(words):
        depth += word.count("(") - word.count(")")
        if word.startswith("(") and index:
            ends.add(index)
        if word.endswith(closes) and (depth <= 0 or word.endswith(")")):
            ends.add(index + 1)
    return ends


@lru_cache(maxsize=256)
def pages(text: str, room: int, width: int = COLUMNS) -> tuple[tuple[str, ...], ...]:
    """`text` in pages of at most `room` lines of `width` columns, no word cut: a page that does not hold the
    rest of the text ends where its last phrase ends (mid-phrase only when a phrase is longer than a page)."""
    words = text.split()
    ends = _phrase_ends(words)
    found: list[tuple[str, ...]] = []
    start = 0
    while start < len(words):
        stop = start + 1
        while stop < len(words) and len(_wrap(" ".join(words[start:stop + 1]), width)) <= room:
            stop += 1
        if stop < len(words):
            stop = max((end for end in ends if start < end <= stop), default=stop)
        lines = _wrap(" ".join(words[start:stop]), width)
        found += [tuple(lines[first:first + room]) for first in range(0, len(lines), room)]
        start = stop
    return tuple(found) or (("",),)


def _header_part(side: Side, points: int, dealer: str | None, turn: str | None) -> tuple[str, str, str]:
    """(turn mark, name, dealer mark and points) of one side: '▶', 'Ann', '* 45'."""
    return (TURN if turn in side else "", side_name(side), (DEALER if dealer in side else "") + f" {points}")


def _short(side_words: str, side: Side, room: int) -> str:
    """A name in `room` columns: whole when it fits, partners by initials ('A&C'), else its first letters."""
    if len(side_words) <= room:
        return side_words
    initials = "&".join(player[:1] for player in side.players)
    if len(side.players) > 1 and len(initials) <= room:
        return initials
    return side_words[: max(1, room)]


def header(view: ScreenView) -> str:
    """Every side's score on one line, the dealer's name marked * and whose turn it is ▶, both at once when
    they are one ('▶Ann* 45    Bob 38'): the marks and the points always whole, the names shortened to fit."""
    parts = [_header_part(side, points, view.dealer, view.turn) for side, points in view.scores]
    gaps = max(1, len(parts) - 1)
    fixed = sum(len(mark) + len(rest) for mark, _name, rest in parts) + gaps
    room = max(1, (COLUMNS - fixed) // max(1, len(parts)))
    spare = max(0, COLUMNS - fixed - room * len(parts))
    shown = []
    for (mark, name, rest), (side, _points) in zip(parts, view.scores, strict=True):
        fits = room + spare if len(name) > room else room
        short = _short(name, side, fits)
        spare -= max(0, len(short) - room)
        shown.append(f"{mark}{short}{rest}")
    if len(shown) == 2:
        gap = COLUMNS - len(shown[0]) - len(shown[1])
        return shown[0] + " " * max(1, gap) + shown[1]
    return " ".join(shown)


def prompt_room(view: ScreenView) -> int:
    """The prompt's lines: two under a body, all four when there is none."""
    return PROMPT_ROWS if view.body else ROWS


def word_pages(view: ScreenView) -> tuple[tuple[str, ...], ...]:
    """The pages of the error (four lines each) or else of the prompt."""
    if view.error:
        return pages(view.error, ROWS)
    return pages(view.prompt, prompt_room(view)) if view.prompt else ((),)


@dataclass(frozen=True, slots=True)
class Layout:
    """The lines exactly as the screen draws them: the header, the body from the top and the prompt's page at the
    bottom, or an error's page in their place (`inverted`: white on black). `render_screen` draws it and
    `screen_text` writes it, so what a test or a snapshot reads is what a player sees."""

    header: str
    body: tuple[str, ...]
    prompt: tuple[str, ...]
    inverted: bool = False

    @property
    def rows(self) -> tuple[str, ...]:
        """The four lines under the header, blank ones between the body and the prompt."""
        return (*self.body, *[""] * (ROWS - len(self.body) - len(self.prompt)), *self.prompt)


def layout(view: ScreenView) -> Layout:
    """The lines of `view` on the screen: the body and the prompt's page shown whole, the prompt's page first
    when a body given from elsewhere is taller than the room left (`screen_view` never gives one)."""
    shown = word_pages(view)
    page = shown[view.page % len(shown)]
    if view.error:
        return Layout(header(view), page, (), inverted=True)
    return Layout(header(view), view.body[: ROWS - len(page)], page)


def render_screen(view: ScreenView) -> Image.Image:
    image = Image.new("1", SIZE, 0)
    draw = ImageDraw.Draw(image)
    lines = layout(view)
    _text(draw, (0, -1), lines.header, fill=1)
    draw.line((0, LINE_PX, SIZE[0] - 1, LINE_PX), fill=1)
    top = LINE_PX + 2
    if lines.inverted:
        draw.rectangle((0, top - 1, SIZE[0] - 1, SIZE[1] - 1), fill=1)
        for row, line in enumerate(lines.body):
            _text(draw, (1, top + row * LINE_PX - 1), line, fill=0)
        return image
    for row, line in enumerate(lines.body):
        _text(draw, (0, top + row * LINE_PX - 1), line, fill=1)
    bottom = SIZE[1] - len(lines.prompt) * LINE_PX
    for row, line in enumerate(lines.prompt):
        _text(draw, (0, bottom + row * LINE_PX - 2), line, fill=1)
    return image


def screen_text(view: ScreenView) -> list[str]:
    """The screen as text, line for line as `render_screen` draws it: the header, a rule, then four lines
    (the body from the top, the prompt at the bottom; an error fills them, drawn white on black)."""
    lines = layout(view)
    return [lines.header, "─" * COLUMNS, *(line.ljust(COLUMNS) for line in lines.rows)]


ELIDED = "…"  # before the pile's latest cards when the earlier ones have no room, and a phrase's rest on a page
TAG_ROOM = 12  # a name's most letters: partners' names longer together are shown by their initials


def _whose(event: ScoreEvent) -> str:
    """Whose score it is: the player who made it, else the side ("Ann & Cat")."""
    return event.player or side_name(event.side)


def _score_pages(event: ScoreEvent, first_room: int, room: int) -> tuple[int, list[tuple[str, ...]]] | None:
    """One score in pages: the first holds at most `first_room` lines, from its heading ("Bob's hand: 20") or its
    first words ("Ann: fifteen two"), the others `room` lines after whose score it is ("Bob: fifteen six,
    fifteen eight", "Bob: …overcalled" inside a phrase). The words run on as the voice says them; a page turns
    where a phrase ends (after a comma too), inside one only when it is longer than a page, and the pages are as
    few and as even as that allows; a heading or a word longer than a page runs on to pages after whose it is ("B&K:
    …pegging 4"). Also how many pages turn inside a phrase; None when its first words do not fit a `first_room`
    less than `room`."""
    heading, counted, notes = score_parts(event)
    lead = _wrap(heading) if heading else []
    words = PARTS.join(([joined(counted)] if counted else []) + notes).split()
    ends = _phrase_ends(words, (*_CLOSES, ",")) | {0, len(words)}
    whose = _whose(event)
    tag, said = _short(whose, event.side, TAG_ROOM) + ":", len(whose.split())

    def spill(shown: list[str], limit: int) -> list[tuple[str, ...]]:
        """`shown` in a page of `limit` lines, what does not fit (a heading or a word longer than a page) on
        pages of `room` lines, each after whose score it is."""
        found, rest = [tuple(shown[:limit])], shown[limit:]
        while rest:
            more = [*_wrap(f"{tag} {ELIDED}{rest[0]}"), *rest[1:]]  # the heading's end on a line of its own
            found.append(tuple(more[:room]))
            rest = more[room:]
        return found

    if not words:
        return None if len(lead) > first_room and first_room < room else (0, spill(lead, first_room))

    def named(start: int) -> bool:
        """Whether a phrase starts at `start` with whose score it is ("Mary Ann pegs six")."""
        return start in ends and " ".join(words[start:start + said]).rstrip(":") == whose

    def lines(start: int, stop: int, first: bool) -> list[str]:
        if first:
            return [*lead, *(_wrap(" ".join(words[:stop])) if stop else [])]
        if named(start):  # it says whose it is itself
            return _wrap(" ".join(words[start:stop]))
        return _wrap(" ".join([tag, ("" if start in ends else ELIDED) + words[start], *words[start + 1:stop]]))

    def choose(start: int, first: bool) -> tuple[int, int, float, int] | None:
        """The best page from `start`: (turns inside a phrase, pages, unevenness) to the end, where it stops; None
        when no words fit the first page's room. A page that names whose score it is holds a word after the name."""
        limit = first_room if first else room
        lowest = 0 if first and lead else min(len(words), start + (said + 1 if named(start) else 1))
        choices: list[tuple[int, int, float, int]] = []
        spilled = 1  # the pages the words so far take: more than one when the first overflow a page
        for stop in range(lowest, len(words) + 1):
            paged = spill(lines(start, stop, first), limit)
            if len(paged) > 1 and (limit < room or (choices and len(paged) > spilled)):  # fill an overflow's last
                break  # page, but never begin one for words a page would hold
            spilled = len(paged)
            slack = (limit if spilled == 1 else room) * COLUMNS - sum(map(len, paged[-1]))
            after = best[stop]
            choices.append((after[0] + (stop not in ends), after[1] + spilled, after[2] + slack * slack / 100, stop))
        return min(choices, default=None)

    best = {len(words): (0, 0, 0.0, len(words))}  # from each word on a later page
    for start in range(len(words) - 1, -1, -1):
        later = choose(start, first=False)
        assert later is not None  # a later page takes its first words even when they overflow it
        best[start] = later
    chosen = choose(0, first=True)
    if chosen is None:
        return None
    turns, _pages, _slack, stop = chosen
    found = spill(lines(0, stop, first=True), first_room)
    while stop < len(words):
        start, stop = stop, best[stop][3]
        found += spill(lines(start, stop, first=False), room)
    return turns, found


@lru_cache(maxsize=64)
def _spoken_pages(events: tuple[ScoreEvent, ...], room: int, language: str) -> tuple[tuple[str, ...], ...]:
    found: list[tuple[str, ...]] = []
    for event in events:
        fresh = _score_pages(event, room, room)
        assert fresh is not None  # with the whole room, a first page takes its first words even when they overflow it
        left = _score_pages(event, room - len(found[-1]), room) if found and len(found[-1]) < room else None
        if (left is not None and left[1][0] and (left[0], len(left[1]) - 1) <= (fresh[0], len(fresh[1]))
                and (len(left[1]) == 1 or len(fresh[1]) > 1)):  # no page more, and no score split that a page holds
            found[-1] += left[1][0]  # begun on the page the score before leaves lines on
            found += left[1][1:]
        else:
            found += fresh[1]
    return tuple(found)


def spoken_pages(events: Sequence[ScoreEvent], room: int) -> list[tuple[str, ...]]:
    """The scores of the last input as a player says them, `room` lines a page (at least two): each score from
    its heading, every later page of it after whose score it is; a score starts on the page the one before leaves
    lines on when that takes no more pages and does not split a score one page would hold."""
    return list(_spoken_pages(tuple(events), room, current().code))


def body_lines(state: GameState, recent: Sequence[ScoreEvent], page: int, room: int) -> tuple[str, ...]:
    """The middle of the screen: the latest scores, a page at a time; otherwise the count and pile."""
    pages = spoken_pages(recent, room)
    if pages:
        return pages[page % len(pages)]
    if state.phase is Phase.PLAY:
        return _play_lines(state, room)
    if state.starter is not None and state.phase in (Phase.CRIB, Phase.CLAIM):
        return (_("Starter {card}").format(card=state.starter.pretty),)
    return ()


def _play_lines(state: GameState, room: int) -> tuple[str, ...]:
    """The count (the starter on its right, or below when both do not fit one line), then the pile since the
    count was reset, in at most `room` lines: the count always, the starter when a line is left for it, and as
    many of the latest cards as the rest holds, after "…" when the earlier ones do not fit."""
    count = _("Count {count}").format(count=state.count)
    starter = _("Starter {card}").format(card=state.starter.pretty) if state.starter is not None else ""
    lines = [count]
    if starter and len(count) + 1 + len(starter) <= COLUMNS:
        lines[0] += " " * (COLUMNS - len(count) - len(starter)) + starter
    elif starter and room > 2:
        lines.append(starter)
    cards = [card.pretty for card in state.pile]
    left = room - len(lines)
    shown = len(cards)
    while shown and len(_wrap(" ".join(([ELIDED] if shown < len(cards) else []) + cards[-shown:]))) > left:
        shown -= 1
    if shown:
        lines += _wrap(" ".join(([ELIDED] if shown < len(cards) else []) + cards[-shown:]))
    return tuple(lines)


def page_count(recent: Sequence[ScoreEvent], room: int) -> int:
    return max(1, len(spoken_pages(recent, room)))


def _scores(state: GameState) -> tuple[tuple[Side, int], ...]:
    return tuple((side, state.scores.get(side, 0)) for side in state.sides)


def screen_view(state: GameState, *, recent: Sequence[ScoreEvent] = (), page: int = 0, prompt: str | None = None,
                error: str | None = None, words_page: int | None = None) -> ScreenView:
    """The screen for `state`; `recent` are the score events of the last input, shown `page` by page, and the
    prompt (or the error) at its page `words_page` (by default `page` too)."""
    prompt = prompt_words(state.awaited()) if prompt is None else prompt
    room = body_room(prompt)
    return ScreenView(
        scores=_scores(state),
        dealer=state.dealer,
        turn=state.turn if state.phase in (Phase.PLAY, Phase.CLAIM, Phase.CRIB) else None,
        body=body_lines(state, recent, page, room),
        prompt=prompt,
        error=error,
        page=page if words_page is None else words_page,
    )


def coach_pages(state: GameState, player: str, said: str) -> list[ScreenView]:
    """The coach's review of `player`'s discard, each page numbered at the bottom ("Coach: Bob 1/3") and holding
    the lines the number leaves (three, or two when a long name takes the number to a second line)."""
    scores = _scores(state)
    numbered = _("Coach: {player} {page}/{pages}").format
    found = pages(said, body_room(numbered(player=player, page=99, pages=99)))
    return [ScreenView(scores, dealer=state.dealer, body=page,
                       prompt=numbered(player=player, page=number, pages=len(found)))
            for number, page in enumerate(found, 1)]


def body_room(prompt: str) -> int:
    """Lines left for the body under the prompt: its lines, two at most (a longer prompt is paged)."""
    return ROWS - min(PROMPT_ROWS, len(_wrap(prompt)))
