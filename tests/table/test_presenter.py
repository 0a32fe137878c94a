"""The presenter: the pegs and the words on show, messages that time out, and the same in plain values."""

from __future__ import annotations

import json

from companion.base.clock import ManualClock
from companion.boards import load_layout
from companion.cribbage.game import replay
from companion.cribbage.transcript import GameInput
from companion.devices.base import StatusDisplay
from companion.devices.sim import SimStrip
from companion.table import Presenter
from companion.table.story import told
from companion.view.pegs import DEFAULT_COLOURS
from companion.view.screen import ScreenView, pages, screen_text
from companion.words.messages import Message, Say
from companion.words.phrases import prompt_words
from tests.sample_deal import GAME, deal

LAYOUT = load_layout("two-track-121")
RED = DEFAULT_COLOURS[0]


def said(words: str) -> Message:
    """Words another edge made (the daemon's news), as the presenter shows them."""
    return Message(Say.WORDS, text=words)


def presenter(clock: ManualClock, **options) -> Presenter:
    return Presenter(layout=LAYOUT, clock=clock, **options)


def test_the_pegs_go_to_the_strip_and_the_words_to_the_screen():
    clock, strip = ManualClock(), SimStrip(LAYOUT.led_count)
    shown = presenter(clock, strip=strip)
    before, after = replay(deal("5H")), replay(deal("6D"))  # Ann's run of three
    shown.told(told(before, after.inputs[-1], after))
    shown.render(after, prompt=prompt_words(after.awaited()), before=before)
    assert strip.frame == shown.picture.frame and strip.frame[LAYOUT.led_for(0, 3)] == RED
    assert shown.view is not None and shown.view.prompt == "Bob to play, count 25"
    assert "run of three" in " ".join(shown.view.body)
    assert shown.picture.image is not None and shown.picture.image.size == (128, 64)


def test_a_message_shows_for_its_seconds_then_the_prompt_again():
    clock = ManualClock()
    shown = presenter(clock, message_seconds=4.0)
    state = replay([GAME])
    shown.say(said("5H is not a card in play"), error=True)
    shown.render(state, prompt=prompt_words(state.awaited()))
    assert shown.view is not None and shown.view.error == "5H is not a card in play"
    clock.advance(3.9)
    assert not shown.tick(clock.monotonic(), prompt=lambda: prompt_words(state.awaited()))
    clock.advance(0.2)
    assert shown.tick(clock.monotonic(), prompt=lambda: prompt_words(state.awaited())) and shown.message is None


def test_a_review_page_takes_the_screen_unless_a_message_is_on_show():
    clock = ManualClock()
    shown = presenter(clock)
    state = replay([GAME])
    review = ScreenView(scores=(), body=("Best discard",), prompt="Coach: Bob 1/2")
    shown.render(state, prompt=prompt_words(state.awaited()), review=review)
    assert shown.view == review
    shown.say(said("took back 3D: 1 cards held"), error=False)
    shown.render(state, prompt=prompt_words(state.awaited()), review=review)
    assert shown.view is not None and shown.view.prompt == "took back 3D: 1 cards held"


def test_the_strip_going_and_coming_back_is_said_once_each():
    clock, strip = ManualClock(), SimStrip(LAYOUT.led_count)
    shown = presenter(clock, strip=strip)
    game = replay([GAME])
    prompt = lambda: prompt_words(game.awaited())  # noqa: E731 - as the table hands it
    assert not shown.tick(0.0, prompt=prompt)
    strip.unplug()
    assert shown.tick(0.0, prompt=prompt) and shown.message == Message(Say.STRIP_MISSING) and shown.message_is_error
    assert shown.words() == "LED strip not connected: check the Pico's USB cable. The game goes on"
    clock.advance(5)
    assert shown.tick(clock.monotonic(), prompt=prompt) and shown.message is None
    assert not shown.tick(clock.monotonic(), prompt=prompt)
    strip.plug()
    assert shown.tick(clock.monotonic(), prompt=prompt) and shown.message == Message(Say.STRIP_BACK)
    assert shown.words() == "LED strip connected: the pegs are shown again"


def test_a_long_score_pages_on_by_itself_but_not_under_a_review():
    clock = ManualClock()
    shown = presenter(clock, page_seconds=2.5)
    before, after = replay(deal("8H")), replay(deal("KH"))  # the hands and the crib counted
    shown.told(told(before, after.inputs[-1], after))
    clock.advance(2.5)
    assert not shown.tick(clock.monotonic(), prompt=lambda: prompt_words(after.awaited()), paging=False)
    assert shown.tick(clock.monotonic(), prompt=lambda: prompt_words(after.awaited())) and shown.picture.page == 1
    shown.first_page(clock.monotonic())
    assert shown.picture.page == 0


class BrokenDisplay(StatusDisplay):
    def show(self, image):
        raise OSError("I2C bus error")

    def close(self):
        pass


def test_a_display_that_fails_does_not_stop_the_game(caplog):
    shown = presenter(ManualClock(), display=BrokenDisplay())
    state = replay([GAME])
    shown.render(state, prompt=prompt_words(state.awaited()))
    assert shown.picture.image is not None and "I2C bus error" in caplog.text


def test_what_is_shown_is_plain_values_a_web_page_can_send():
    clock = ManualClock()
    shown = presenter(clock)
    state = replay(deal("6D"))
    shown.say(said("undo to take it back"), error=False)
    shown.render(state, prompt=prompt_words(state.awaited()))
    snapshot = shown.shown()
    data = json.loads(json.dumps(snapshot.to_json()))
    assert data["screen"]["prompt"] == "undo to take it back" and data["message"] == "undo to take it back"
    assert data["screen"]["scores"] == [["Ann", 3], ["Bob", 0]] and data["error"] is False
    assert len(data["leds"]) == LAYOUT.led_count and data["leds"][LAYOUT.led_for(0, 3)] == list(RED)
    assert data["screen"]["body"] == list(snapshot.screen.body)


def test_a_long_error_turns_its_pages_by_itself_and_stays_until_each_was_read():
    clock = ManualClock()
    shown = presenter(clock)
    state = replay([GAME])
    error = ("the count is 25: 9♥ would make 34; play a lower card or say go. " * 3).strip()
    shown.say(said(error), error=True)
    seen = []
    for _ in range(6):  # 2.5 s a page, at least the 4 s a message is shown
        shown.render(state, prompt=prompt_words(state.awaited()))
        assert shown.view is not None and shown.view.error == error
        seen.append(tuple(screen_text(shown.view)[2:]))
        clock.advance(2.5)
        shown.tick(clock.monotonic(), prompt=lambda: prompt_words(state.awaited()))
        if shown.message is None:
            break
    assert len(seen) == len(pages(error, 4)) == 3 and len(set(seen)) == 3  # every page shown once, in turn
    words = " ".join(line.strip() for page in seen for line in page if line.strip())
    assert words.split() == error.split()
    shown.render(state, prompt=prompt_words(state.awaited()))
    assert shown.view is not None and shown.view.error is None


def test_a_prompt_longer_than_its_two_lines_turns_its_pages_by_itself():
    clock = ManualClock()
    shown = presenter(clock)
    state = replay([GameInput(("Bartholomäus", "Maximilianus", "Konstantinus"))])
    prompt = "Cut for deal: Bartholomäus, Maximilianus and Konstantinus to cut (ok: no cut, Bartholomäus deals)"
    shown.render(state, prompt=prompt)
    assert shown.view is not None
    first = screen_text(shown.view)
    assert first[2:] == ["Cut for deal:".ljust(21), "Bartholomäus,".ljust(21), "Maximilianus and".ljust(21),
                         "Konstantinus to cut".ljust(21)]  # no body in the cut: the prompt has four lines
    clock.advance(2.5)
    assert shown.tick(clock.monotonic(), prompt=lambda: prompt)
    shown.render(state, prompt=prompt)
    assert screen_text(shown.view)[2:] == [" " * 21, " " * 21, "(ok: no cut,".ljust(21),
                                           "Bartholomäus deals)".ljust(21)]
    clock.advance(2.5)
    assert shown.tick(clock.monotonic(), prompt=lambda: prompt)
    shown.render(state, prompt=prompt)
    assert screen_text(shown.view) == first  # and round again
