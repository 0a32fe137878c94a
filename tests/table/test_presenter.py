"""The presenter: the pegs and the words on show, messages that time out, and the same in plain values."""

from __future__ import annotations

import json

from companion.boards import load_layout
from companion.clock import ManualClock
from companion.cribbage.game import replay
from companion.devices.base import StatusDisplay
from companion.devices.sim import SimStrip
from companion.table import STRIP_BACK, STRIP_MISSING, Presenter
from companion.view.pegs import DEFAULT_COLOURS
from companion.view.screen import ScreenView
from tests.sample_deal import GAME, deal

LAYOUT = load_layout("two-track-121")
RED = DEFAULT_COLOURS[0]


def presenter(clock: ManualClock, **options) -> Presenter:
    return Presenter(layout=LAYOUT, clock=clock, **options)


def test_the_pegs_go_to_the_strip_and_the_words_to_the_screen():
    clock, strip = ManualClock(), SimStrip(LAYOUT.led_count)
    shown = presenter(clock, strip=strip)
    before, after = replay(deal("5H")), replay(deal("6D"))  # Ann's run of three
    shown.scored(before, after, undone=False)
    shown.render(after, prompt=after.prompt(), before=before)
    assert strip.frame == shown.picture.frame and strip.frame[LAYOUT.led_for(0, 3)] == RED
    assert shown.view is not None and shown.view.prompt == "Bob to play, count 25"
    assert "run of three" in " ".join(shown.view.body)
    assert shown.picture.image is not None and shown.picture.image.size == (128, 64)


def test_a_message_shows_for_its_seconds_then_the_prompt_again():
    clock = ManualClock()
    shown = presenter(clock, message_seconds=4.0)
    state = replay([GAME])
    shown.say("5H is not a card in play", error=True)
    shown.render(state, prompt=state.prompt())
    assert shown.view is not None and shown.view.error == "5H is not a card in play"
    clock.advance(3.9)
    assert not shown.tick(clock.monotonic(), prompt=state.prompt)
    clock.advance(0.2)
    assert shown.tick(clock.monotonic(), prompt=state.prompt) and shown.message is None


def test_a_review_page_takes_the_screen_unless_a_message_is_on_show():
    clock = ManualClock()
    shown = presenter(clock)
    state = replay([GAME])
    review = ScreenView(scores=(), body=("Best discard",), prompt="Coach: Bob 1/2")
    shown.render(state, prompt=state.prompt(), review=review)
    assert shown.view == review
    shown.say("took back 3D: 1 cards held", error=False)
    shown.render(state, prompt=state.prompt(), review=review)
    assert shown.view is not None and shown.view.prompt == "took back 3D: 1 cards held"


def test_the_strip_going_and_coming_back_is_said_once_each():
    clock, strip = ManualClock(), SimStrip(LAYOUT.led_count)
    shown = presenter(clock, strip=strip)
    prompt = replay([GAME]).prompt
    assert not shown.tick(0.0, prompt=prompt)
    strip.unplug()
    assert shown.tick(0.0, prompt=prompt) and shown.message == STRIP_MISSING and shown.message_is_error
    clock.advance(5)
    assert shown.tick(clock.monotonic(), prompt=prompt) and shown.message is None
    assert not shown.tick(clock.monotonic(), prompt=prompt)
    strip.plug()
    assert shown.tick(clock.monotonic(), prompt=prompt) and shown.message == STRIP_BACK


def test_a_long_score_pages_on_by_itself_but_not_under_a_review():
    clock = ManualClock()
    shown = presenter(clock, page_seconds=2.5)
    before, after = replay(deal("8H")), replay(deal("KH"))  # the hands and the crib counted
    shown.scored(before, after, undone=False)
    clock.advance(2.5)
    assert not shown.tick(clock.monotonic(), prompt=after.prompt, paging=False)
    assert shown.tick(clock.monotonic(), prompt=after.prompt) and shown.picture.page == 1
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
    shown.render(state, prompt=state.prompt())
    assert shown.picture.image is not None and "I2C bus error" in caplog.text


def test_what_is_shown_is_plain_values_a_web_page_can_send():
    clock = ManualClock()
    shown = presenter(clock)
    state = replay(deal("6D"))
    shown.say("undo to take it back", error=False)
    shown.render(state, prompt=state.prompt())
    snapshot = shown.shown()
    data = json.loads(json.dumps(snapshot.to_json()))
    assert data["screen"]["prompt"] == "undo to take it back" and data["message"] == "undo to take it back"
    assert data["screen"]["scores"] == [["Ann", 3], ["Bob", 0]] and data["error"] is False
    assert len(data["leds"]) == LAYOUT.led_count and data["leds"][LAYOUT.led_for(0, 3)] == list(RED)
    assert data["screen"]["body"] == list(snapshot.screen.body)
