"""The OLED of a game against the computer: after each card a computer player plays, the screen names it with the
count it made ("Pro 6♠: 31"), above the scores it made or the pile; after its go, "Pro: go". The person's own
moves are not repeated (the pile and the count show them). In English and in German."""

from __future__ import annotations

import random

import pytest

from companion.cribbage.facts import Phase
from companion.devices.base import Entry
from companion.play.computer import Settings
from companion.table.announcer import spoken
from companion.table.story import Go, Played, Undone
from companion.view.screen import COLUMNS, screen_text, word_pages
from tests.web.computer_games import Game


def replies(game: Game) -> list[tuple[Played | Go, list[str]]]:
    """The computer's moves after the person's, one loop turn at a time, each with the screen right after it."""
    found = []
    for _ in range(12):
        done = len(game.outcomes)
        game.step()
        for outcome in game.outcomes[done:]:
            moves = [fact for fact in outcome.told if isinstance(fact, Played | Go)]
            if moves and moves[-1].player == "Pro":
                found.append((moves[-1], screen_text(game.table.shown().screen)))
    return found


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_oled_shows_each_card_the_computer_played_and_its_go(tmp_path, language, speak):
    speak(language)
    game = Game(tmp_path, Settings("Guest", ("pro",), seed=26))
    rng = random.Random(3)
    played = goes = 0
    while game.table.state.deal_number <= 3:
        game.settle()
        game.person_moves(rng)
        for move, lines in replies(game):
            assert all(len(line) <= COLUMNS for line in lines)
            if isinstance(move, Go):
                assert lines[2].startswith("Pro: Go" if language == "de" else "Pro: go"), lines
                goes += 1
            else:
                assert lines[2].startswith(f"Pro {move.card.pretty}: {move.count}"), lines
                played += 1
    assert played >= 10 and goes >= 1


def at_the_persons_turn_in_the_play(tmp_path) -> tuple[Game, random.Random]:
    """A game against the pro, played on until the person is to play a card."""
    game = Game(tmp_path, Settings("Guest", ("pro",), seed=26))
    rng = random.Random(3)
    game.settle()
    while not (game.table.state.phase is Phase.PLAY and game.table.state.turn == "Guest"):
        game.person_moves(rng)
        game.settle()
    return game, rng


def test_the_persons_own_card_is_not_repeated_on_the_oled(tmp_path):
    game, _ = at_the_persons_turn_in_the_play(tmp_path)
    state = game.table.state
    card = min(state.held("Guest") or (), key=lambda c: c.value)
    game.table.emit(Entry(str(card), "terminal"))
    for outcome in game.table.drain(0):
        assert any(isinstance(fact, Played) and fact.player == "Guest" for fact in outcome.told)
    lines = screen_text(game.table.shown().screen)
    assert lines[2].startswith("Count "), lines  # the count and the pile, as at any table


@pytest.mark.parametrize("language", ["en", "de"])
def test_an_undo_of_the_persons_card_and_the_computers_reply_is_one_line_on_the_oled_and_in_the_voice(
        tmp_path, language, speak):
    speak(language)
    game, rng = at_the_persons_turn_in_the_play(tmp_path)
    before = game.table.state
    game.person_moves(rng)
    game.settle()
    mine, reply = game.table.state.inputs[len(before.inputs):][:2]
    game.table.emit(Entry("undo", "terminal"))
    game.settle()
    assert game.table.state.inputs == before.inputs
    undos = [fact for fact in game.outcomes[-1].told if isinstance(fact, Undone)]
    assert len(undos) == 1 and [back.player for back in undos[0].taken_back] == ["Guest", "Pro"]
    if language == "de":
        line = f"Zurückgenommen: {mine.card.pretty} von Guest und {reply.card.pretty} von Pro"
    else:
        line = f"Undone: Guest's {mine.card.pretty} and Pro's {reply.card.pretty}"
    assert game.table.message == line
    pages = word_pages(game.table.shown().screen)  # the OLED's prompt lines, page by page: the undo's line
    assert " ".join(word for page in pages for text in page for word in text.split()) == line
    assert spoken(game.outcomes[-1].told, prompt_words="", speak=frozenset()) == [line]  # and the voice
