"""The OLED never cuts a word: every message of the catalog that can reach it, in English and German, with the
longest names the configuration allows, paged in its font; a whole deal at the table with those names; the
header's marks; golden images of the longest messages."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace

import pytest

from companion import i18n
from companion.base.clock import ManualClock
from companion.boards import load_layout
from companion.config import NAME_CHARS
from companion.cribbage.facts import Prompt, ScoreKind, Side, Wanted
from companion.cribbage.transcript import GameInput
from companion.entry import Entry
from companion.gamelog import GameLog
from companion.table import Outcome, Table
from companion.view.screen import (
    COLUMNS,
    PROMPT_ROWS,
    ROWS,
    SIZE,
    ScreenView,
    _font,
    _wrap,
    header,
    pages,
    render_screen,
    screen_text,
)
from companion.words.phrases import prompt_words, score_name
from tests.golden import assert_golden
from tests.sample_deal import DEAL
from tests.view.oled_texts import LONGEST, NAMES, filled, longest, oled_messages


def translated(text: str) -> str:
    return i18n._(text)


def width_px(line: str) -> float:
    """A line's width in the OLED's font (the suits and the turn mark are drawn in a character's cell)."""
    return _font().getlength("".join("H" if char in "♣♦♥♠▶" else char for char in line))


def assert_whole(text: str, room: int) -> int:
    """`text` paged in `room` lines: every line within the 128 px, every word whole and in order, nothing left out.
    Returns the number of pages."""
    shown = pages(text, room)
    lines = [line for page in shown for line in page]
    assert all(1 <= len(page) <= room for page in shown), (text, shown)
    assert all(width_px(line) <= SIZE[0] and len(line) <= COLUMNS for line in lines), (text, lines)
    assert " ".join(lines).split() == text.split(), (text, lines)  # a word cut in two would be two words
    return len(shown)


@pytest.fixture(params=list(i18n.LANGUAGES))
def language(speak, request: pytest.FixtureRequest) -> Iterator[str]:
    speak(request.param)
    yield request.param


def test_every_message_that_can_reach_the_oled_pages_whole_in_each_language(language):
    values = longest(language)
    texts = [filled(translated(message), values) for message in oled_messages()]
    assert len(texts) > 200 and len(LONGEST) == NAME_CHARS
    too_long = sorted({word for text in texts for word in text.split() if len(word) > COLUMNS})
    assert too_long == []  # no word is longer than a line, so none is ever broken
    for text in texts:
        for room in (PROMPT_ROWS, ROWS):  # a prompt under the body, or an error (or a prompt alone)
            assert_whole(text, room)


def test_a_page_ends_where_a_phrase_ends():
    cut = "Cut for deal: Ann and Bob to cut (ok: no cut, Ann deals)"
    assert pages(cut, 2) == (("Cut for deal: Ann and", "Bob to cut"), ("(ok: no cut, Ann", "deals)"))
    error = "the count is 25: 9♥ would make 34; play a lower card or say go"
    assert pages(error, 2) == (("the count is 25: 9♥", "would make 34;"), ("play a lower card or", "say go"))
    assert pages(error, 4) == (("the count is 25: 9♥", "would make 34; play a", "lower card or say go"),)
    assert pages("x" * 30, 2) == (("x" * 21, "x" * 9),)  # only a word longer than a line (typed junk) breaks


def all_scores(players: int, points: int) -> tuple[tuple[Side, int], ...]:
    if players == 4:
        return ((Side(NAMES[0::2]), points), (Side(NAMES[1::2]), points))
    return tuple((Side((name,)), points) for name in NAMES[:players])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_header_marks_the_dealer_and_the_turn_at_once_and_never_cuts_a_score(players):
    scores = all_scores(players, 121)
    for dealer, turn in ((NAMES[0], NAMES[0]), (NAMES[0], NAMES[1]), (NAMES[1], NAMES[0])):
        line = header(ScreenView(scores, dealer=dealer, turn=turn))
        assert len(line) <= COLUMNS and line.count("121") == len(scores), line
        assert line.count("▶") == 1 and line.count("*") == 1, line
        if dealer == turn:
            assert re.search(r"▶\S+\* 121", line), line  # both marks on one name
    assert header(ScreenView(((Side(("Ann",)), 7), (Side(("Bob",)), 0)), dealer="Ann", turn="Ann")) == (
        "▶Ann* 7         Bob 0")


LONG_TEXTS = {  # the longest of each kind, drawn as golden images
    "cut": lambda: prompt_words(Prompt(Wanted.CUT, NAMES[:3], again=True)),
    "seen": lambda: i18n._("{seen}: play a card from {player}'s hand").format(
        seen=i18n._("{card} is in the crib (laid away by {who})").format(card="10♥", who=NAMES[1]), player=LONGEST),
}


@pytest.mark.parametrize("name", sorted(LONG_TEXTS))
def test_the_longest_messages_page_whole_as_golden_images(language, name):
    text = LONG_TEXTS[name]()
    scores = all_scores(2, 121)
    as_prompt = ScreenView(scores, dealer=NAMES[0], turn=NAMES[0], body=("Count 31  Starter 10♥", "10♥ 10♦ J♣"),
                           prompt=text)
    as_error = ScreenView(scores, dealer=NAMES[0], error=text)
    for kind, view in (("prompt", as_prompt), ("error", as_error)):
        count = assert_whole(text, PROMPT_ROWS if kind == "prompt" else ROWS)
        shown = [screen_text(replace(view, page=page)) for page in range(count)]
        words = " ".join(line.strip() for screen in shown for line in screen[2:] if line.strip() not in view.body)
        assert words.split() == text.split()  # page by page, the whole text and nothing else
        assert_golden(render_screen(view), f"longest-{language}-{name}-{kind}-1")
        if count > 1:
            assert_golden(render_screen(replace(view, page=count - 1)), f"longest-{language}-{name}-{kind}-{count}")


TRIES = ("xyzzy", "go", "peg Nobody 5", "claim 7", "muggins")  # refused at most moments: each says why


def check_screen(table: Table, outcome: Outcome | None = None) -> int:
    """What the board shows after an entry: the header whole, the body and every page of the message and the
    prompt within the screen, no word cut. Returns the number of texts checked."""
    view = table.shown().screen
    line = header(view)
    assert len(line) <= COLUMNS and all(str(points) in line for _, points in view.scores), line
    assert all(len(row) <= COLUMNS and width_px(row) <= SIZE[0] for row in screen_text(view)), screen_text(view)
    texts = [table.prompt()] + ([outcome.words()] if outcome is not None and outcome.words() else [])
    for text in texts:
        assert_whole(text, PROMPT_ROWS)
        assert_whole(text, ROWS)
    return len(texts)


def test_a_whole_deal_with_the_longest_names_never_cuts_a_word(language, tmp_path):
    """The sample deal at the table with players of NAME_CHARS letters: the cut, every card, the crib, undo and
    refusals at every step, each screen checked."""
    first, second = NAMES[:2]
    setup = GameInput((first, second), target=121)
    table = Table(GameLog.open(tmp_path / "0001.jsonl"), setup=setup, layout=load_layout("two-track-121"),
                  clock=ManualClock(), new_log=lambda: GameLog.open(tmp_path / "0002.jsonl"))
    checked = check_screen(table)
    for text in (*TRIES, "ok"):  # in the cut for deal; ok: no cut, the first player deals
        (outcome,) = enter(table, text)
        checked += check_screen(table, outcome)
    assert table.state.dealer == first
    for entry in DEAL:
        for text in (*TRIES, entry, "undo", entry, entry):  # the entry, undone, again, and once too often
            (outcome,) = enter(table, text)
            checked += check_screen(table, outcome)
    for outcome in enter(table, *DEAL[-4:-1]):  # the undo of the crib's last card took back all four
        checked += check_screen(table, outcome)
    assert table.state.phase == "deal" and table.state.dealer == second
    assert checked > 200
    heading = f"{score_name(ScoreKind.CRIB, first)}: 4"  # longer than a line: on two, never cut
    assert len(heading) > COLUMNS and table.shown().screen.body == tuple(_wrap(heading))
    assert_golden(table.picture.image, f"longest-{language}-crib-counted")  # the heading on two lines


def enter(table: Table, *texts: str) -> list[Outcome]:
    for text in texts:
        table.emit(Entry(text, "terminal"))
    return list(table.drain())
