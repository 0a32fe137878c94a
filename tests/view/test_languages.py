"""Golden screens of the sample deal in English and German: the OLED pixel for pixel, the 80x24 terminal."""

from __future__ import annotations

import pytest

from companion import i18n
from companion.cribbage.game import replay
from companion.view.screen import render_screen, screen_text, screen_view
from companion.view.terminal import visible_width
from tests.golden import assert_golden, assert_golden_text
from tests.sample_deal import deal
from tests.view.terminal import screen

# Moments of the sample deal (tests/golden/deal.txt): the entry just made, and the page of its count shown.
MOMENTS = [("5H", 0, "play-count-19"), ("6D", 0, "run-of-three"), ("8H", 0, "last-card-and-hand"),
           ("8H", 1, "hand-page-2"), ("nothing", 0, "crib-counted")]


@pytest.mark.parametrize("language", list(i18n.LANGUAGES))
@pytest.mark.parametrize(("upto", "page", "name"), MOMENTS)
def test_the_oled_through_a_deal_in_each_language(speak, language, upto, page, name):
    speak(language)
    before, after = replay(deal(upto)[:-1]), replay(deal(upto))
    view = screen_view(after, recent=after.events[len(before.events):], page=page)
    assert all(len(line) <= 21 for line in screen_text(view))
    assert_golden(render_screen(view), f"{language}-{name}")


def test_the_german_oled_says_the_deal_as_german_players_do(speak):
    speak("de")
    before, after = replay(deal("8H")[:-1]), replay(deal("8H"))
    text = screen_text(screen_view(after, recent=after.events[len(before.events):]))
    assert text[2:] == ["Ann: eins für die    ", "Letzte               ", "Hand Bob: 20         ",
                        "Krippe eingeben (Ann)"]
    page = screen_text(screen_view(after, recent=after.events[len(before.events):], page=1))
    assert page[2:4] == ["Bob: fünfzehn zwei,  ", "fünfzehn vier,       "]
    assert screen_text(screen_view(replay(deal("5H"))))[2] == "Stand 19     Start 5♣"


@pytest.mark.parametrize("language", list(i18n.LANGUAGES))
def test_the_terminal_fits_80_by_24_in_each_language(speak, language):
    speak(language)
    lines = screen("two-track-121", colour=False)
    assert len(lines) == 23 and all(visible_width(line) <= 80 for line in lines)
    assert_golden_text("\n".join(lines) + "\n", f"terminal-{language}")
