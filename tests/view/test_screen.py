"""The OLED: the words a player reads, and golden images pinning every pixel."""

from __future__ import annotations

import itertools
import textwrap

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops

from companion import i18n
from companion.cribbage.cards import Card, Suit, parse_cards
from companion.cribbage.facts import ScoreEvent, ScoreKind, Side
from companion.cribbage.game import GameState, replay
from companion.cribbage.scoring import score_show
from companion.cribbage.transcript import GameInput, PegInput, PlayInput, StarterInput
from companion.view.screen import (
    ScreenView,
    header,
    render_screen,
    screen_view,
    spoken_pages,
    suit_glyphs,
)
from companion.view.speech import score_words
from companion.words.count import said
from tests.golden import assert_golden
from tests.sample_deal import deal

DECK = [Card(rank, suit) for rank in range(1, 14) for suit in Suit]


def recent(before: GameState, after: GameState) -> tuple:
    return after.events[len(before.events):]


def test_during_the_play_the_screen_shows_scores_dealer_turn_count_and_pile():
    state = replay(deal("5H"))
    view = screen_view(state)
    assert header(view) == "▶Ann* 0         Bob 0"  # * marks the dealer, ▶ whose turn it is: both Ann
    assert view.body == ("Count 19   Starter 5♣", "10♣ 4♣ 5♥")  # the starter stays in sight
    assert view.prompt == "Ann to play, count 19"
    assert_golden(render_screen(view), "play-count-19")


def test_a_score_runs_on_as_it_is_said_and_every_page_of_it_says_whose_it_is():
    before, after = replay(deal("8H")[:-1]), replay(deal("8H"))
    pages = [screen_view(after, recent=recent(before, after), page=page).body for page in range(7)]
    assert pages == [
        ("Ann: one for last", "Bob's hand: 20"),
        ("Bob: fifteen two,", "fifteen four, fifteen", "six,"),  # Bob's count goes on: his name says so
        ("Bob: fifteen eight,", "fifteen ten, fifteen", "twelve,"),
        ("Bob: fifteen", "fourteen, and a pair", "royal is twenty"),
        ("Ann's hand: 9", "fifteen two, fifteen", "four,"),
        ("Ann: and a run of", "five is nine"),
        ("Ann: one for last", "Bob's hand: 20"),  # and round again
    ]
    assert screen_view(after).prompt == "Enter Ann's crib"
    assert_golden(render_screen(screen_view(after, recent=recent(before, after))), "show-page-1")
    assert_golden(render_screen(screen_view(after, recent=recent(before, after), page=3)), "show-page-4")


HANDS = st.lists(st.sampled_from(DECK), min_size=5, max_size=5, unique=True)
MARKS = ",;:"  # the voice's pauses, which end a phrase


@settings(max_examples=300, deadline=None)
@given(HANDS, st.sampled_from((2, 3)), st.sampled_from(("Bob", "Bartholomäus")))
@example(parse_cards("5C 5D 5H 10C 10D"), 2, "Bob")  # "and a pair is twenty-two": never "twenty-" and "two"
def test_every_page_says_whose_score_it_is_and_ends_where_a_phrase_ends(cards, room, name):
    score = score_show(cards[:4], cards[4])
    event = ScoreEvent(ScoreKind.HAND, Side((name,)), name, score.total, score, 1)
    pages = spoken_pages((event, event), room)
    heading, phrases = f"{name}'s hand: {score.total}", said(score)
    assert all(0 < len(page) <= room for page in pages)
    assert all(" ".join(page).startswith((heading, f"{name}:")) for page in pages)
    shown = [word.removeprefix("…") for page in pages for word in " ".join(page).split() if word != f"{name}:"]
    assert shown == " ".join([heading, ", ".join(phrases)] * 2).split()
    longer = any(len(textwrap.wrap(f"{name}: {phrase},", 21)) > room for phrase in phrases)
    for page, after in itertools.pairwise(pages):  # a page turns where a phrase ends, unless one is longer
        inside = not " ".join(page).endswith((*MARKS, heading)) and not " ".join(after).startswith(heading)
        assert not inside or ("…" in after[0] and longer), (page, after)


def test_an_error_is_shown_in_plain_words_instead_of_the_prompt():
    state = replay(deal("6D"))
    view = screen_view(state, error="the count is 25: 9H would make 34; play a lower card or say go")
    image = render_screen(view)
    assert_golden(image, "error-over-31")
    assert image != render_screen(screen_view(state))


def test_long_names_and_big_scores_fit_the_header():
    view = ScreenView(scores=((Side(("Maximilian",)), 118), (Side(("Bob",)), 121)), dealer="Bob")
    assert len(header(view)) <= 21
    assert header(view).endswith("Bob* 121")


def cell(image: Image.Image, column: int, left: int = 0) -> Image.Image:
    """One character of the first body line: 6 px a column from `left`, 11 px a line from y 12."""
    x = left + column * 6
    return image.crop((x, 12, x + 6, 23))


def test_each_suit_is_its_own_bitmap_drawn_in_the_column_the_text_gives_it():
    glyphs = suit_glyphs()
    assert sorted(glyphs) == sorted("♣♦♥♠▶")  # the suits and the turn's mark
    assert len({glyph.tobytes() for glyph in glyphs.values()}) == 5  # no two alike
    line = "4♥ 6♣ 8♣ 3♠ Q♦ 10♥ 9"
    scores = ((Side(("Ann",)), 0), (Side(("Bob",)), 0))
    image = render_screen(ScreenView(scores, body=(line,)))
    capitals = render_screen(ScreenView(scores, body=("".join("H" if c in glyphs else c for c in line),)))
    for column, char in enumerate(line):
        if char not in glyphs:  # the ranks stay where the font puts them
            assert cell(image, column).tobytes() == cell(capitals, column).tobytes(), column
            continue
        expected = Image.new("1", (6, 11))
        expected.paste(glyphs[char], (1, 3))  # on the cap height, one pixel clear of the rank before it
        assert cell(image, column).tobytes() == expected.tobytes(), (column, char)
        left, top, right, bottom = cell(image, column).getbbox()
        h_left, h_top, h_right, h_bottom = cell(capitals, column).getbbox()
        assert h_left <= left and h_top <= top and right <= h_right and bottom <= h_bottom  # inside a capital H
    error = render_screen(ScreenView(scores, error="5♠ is played"))  # black on white: the suit too
    inverted = ImageChops.invert(cell(error, 1, left=1).convert("L")).convert("1")
    expected = Image.new("1", (6, 11))
    expected.paste(glyphs["♠"], (1, 3))
    assert inverted.tobytes() == expected.tobytes()


def test_a_score_after_another_begins_on_its_last_page_only_when_its_name_and_words_fit(speak):
    speak("de")
    state = replay(deal("8H"))
    ann = next(e for e in state.events if e.kind is ScoreKind.LAST_CARD)  # "Ann: eins für die Letzte": two lines
    (long,) = replay([GameInput(("Ann", "Maximilianus"), dealer="Ann"), PegInput("Maximilianus", 120)]).events
    pages = spoken_pages((ann, long), 3)  # one line left: "Maximilianus: einhundertzwanzig" takes two
    assert pages == [("Ann: eins für die", "Letzte"), ("Maximilianus:", "einhundertzwanzig", "gesteckt")]


NAMED = st.sampled_from(("Bob", "Bartholomäus", "Maximilianus"))


@settings(max_examples=200, deadline=None)
@given(st.tuples(HANDS, HANDS), st.tuples(NAMED, NAMED), st.sampled_from((2, 3, 4)), st.sampled_from(("en", "de")))
def test_two_scores_in_either_language_keep_every_word_and_each_page_names_whose_they_are(hands, names, room, lang):
    (one, other), scores = names, [score_show(cards[:4], cards[4]) for cards in hands]
    events = (ScoreEvent(ScoreKind.HAND, Side((one,)), one, scores[0].total, scores[0], 1),
              ScoreEvent(ScoreKind.CRIB, Side((other,)), other, scores[1].total, scores[1], 1))
    with i18n.speaking(lang):
        pages = spoken_pages(events, room)
        said_aloud = " ".join(score_words(event) for event in events)
    assert all(0 < len(page) <= room and all(len(line) <= 21 for line in page) for page in pages)
    assert all(one in page[0] or other in page[0] for page in pages)

    def plain(text: str) -> list[str]:
        return [word.removeprefix("…").rstrip(",;") for word in text.split() if word not in (f"{one}:", f"{other}:")]

    assert plain(" ".join(line for page in pages for line in page)) == plain(said_aloud)


def test_partners_too_long_to_name_on_every_page_are_named_by_their_initials():
    game = GameInput(("Bartholomäus", "Maximilianus", "Konstantinus", "Philippineke"), dealer="Bartholomäus")
    (pegged,) = replay([game, PegInput("Bartholomäus & Konstantinus", 117)]).events
    for lang in ("en", "de"):
        with i18n.speaking(lang):
            pages = [spoken_pages((pegged,), room) for room in (2, 3, 4)]
            said_aloud = score_words(pegged).split()
        for paged in pages:
            assert " ".join(paged[0]).startswith("Bartholomäus & Konstantinus:"), paged  # the name never cut
            assert all(page[0].startswith("B&K:") for page in paged[1:])
            shown = [word.removeprefix("…") for page in paged for word in " ".join(page).split() if word != "B&K:"]
            assert shown == said_aloud, paged


PARTNERS = ("Bartholomäus", "Maximilianus", "Konstantinus", "Philippineke")


CAPPED = [GameInput(PARTNERS, dealer="Bartholomäus"), PegInput("Bartholomäus & Konstantinus", 117),
          PegInput("Bartholomäus & Konstantinus", 10)]  # capped at 121: "pegging 4"
MISCLAIMED = [GameInput(PARTNERS, dealer="Bartholomäus", muggins=True), StarterInput(Card.parse("5C")),
              PlayInput(Card.parse("10H")), PlayInput(Card.parse("5D"), claim=0)]  # Konstantinus: "pegging 0"


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize(("inputs", "whose"), [(CAPPED, "B&K:"), (MISCLAIMED, "Konstantinus")])
def test_a_partners_heading_longer_than_the_room_runs_on_to_pages_each_naming_whose_score_it_is(inputs, whose, lang):
    """"Bartholomäus & Konstantinus: pegging 4" wraps to three lines: it runs on to a page after whose it is."""
    with i18n.speaking(lang):
        event = replay(inputs).events[-1]
        pages = spoken_pages((event,), 2)
        said_aloud = score_words(event).split()
    assert " ".join(pages[0]).startswith("Bartholomäus & Konstantinus:") and len(pages) > 2
    assert all(0 < len(page) <= 2 and all(len(line) <= 21 for line in page) for page in pages)
    assert all(page[0].startswith((whose, "Bartholomäus &")) for page in pages[1:]), pages
    def plain(words: list[str]) -> list[str]:
        return [word.removeprefix("…").rstrip(",;") for word in words if word not in (whose, f"{whose}:")]

    assert plain(" ".join(line for page in pages for line in page).split()) == plain(said_aloud), pages


def test_a_word_longer_than_a_line_is_cut_on_pages_that_each_name_whose_score_it_is(speak):
    speak("de")
    events = replay([GameInput(("Ann", "Maximilianus"), dealer="Ann"), PegInput("Maximilianus", 121)]).events
    pages = spoken_pages(events, 2)
    assert pages == [("Maximilianus:", "einhunderteinundzwanz"), ("Maximilianus: …ig", "gesteckt")]
    assert all(page[0].startswith("Maximilianus:") and " ".join(page) != "Maximilianus:" for page in pages)
    assert all(len(page) <= 2 and all(len(line) <= 21 for line in page) for page in pages)
    assert "".join(" ".join(page).replace("Maximilianus:", "") for page in pages).replace(" ", "").replace(
        "…", "") == "einhunderteinundzwanziggesteckt"


def test_a_name_with_a_space_is_not_said_twice_when_a_phrase_starts_with_it():
    events = replay([GameInput(("Mary Ann", "Bob"), dealer="Bob"), PegInput("Mary Ann", 117),
                     PegInput("Mary Ann", 10)]).events
    text = " ".join(line for page in spoken_pages(events, 2) for line in page)
    assert "Mary Ann reaches" in text and "Mary Ann: Mary Ann" not in text and "Mary Ann: …" not in text
