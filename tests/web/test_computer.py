"""Games against the computer: the virtual deck deals, the computer players move, all through the table's queue
and log; undo takes back to the person's own move; the game resumes after a restart; feedback and muggins."""

from __future__ import annotations

import random

import pytest

from companion.cribbage import transcript as t
from companion.cribbage.errors import InputError
from companion.cribbage.facts import ScoreKind
from companion.cribbage.game import replay
from companion.devices.base import Entry
from companion.gamelog import GameLog
from companion.i18n import language
from companion.play.computer import Settings, dealer_entry, deck_for, read_settings
from companion.words.review import review_words
from tests.facts import said
from tests.web.computer_games import Game, play_out


@pytest.mark.parametrize(("levels", "target", "muggins"), [
    (("easy",), 121, False), (("standard", "pro"), 61, True), (("easy", "standard", "easy"), 61, False)])
def test_a_whole_game_against_the_computer_is_a_log_the_engine_replays(tmp_path, levels, target, muggins):
    game = Game(tmp_path, Settings("Guest", levels, target, muggins, seed=7))
    play_out(game, 1)
    state = game.table.state
    assert state.winner is not None and max(state.scores.values()) == target
    assert replay(GameLog.open(game.table.log.path).inputs) == state  # the log is the game
    assert not [o for o in game.outcomes if o.error]  # no move of the deck or a computer was refused
    dealt = [inp for inp in state.inputs if isinstance(inp, t.HandInput)]
    assert {inp.player for inp in dealt} == set(state.players)
    assert all(len(inp.cards) == state.dealt_size for inp in dealt)


def test_each_deal_is_the_seeded_shuffle(tmp_path):
    game = Game(tmp_path, Settings("Guest", ("standard",), seed=11))
    game.settle()
    state = game.table.state
    deck = deck_for(game.settings, state)
    order = (state.left_of(state.dealer), state.dealer)
    assert state.hands[order[0]] == tuple(deck[0:6]) and state.hands[order[1]] == tuple(deck[6:12])
    other = Game(tmp_path / "again", Settings("Guest", ("standard",), seed=11))
    other.settle()
    assert other.table.state.hands == state.hands


def test_the_computer_waits_a_moment_before_it_plays(tmp_path):
    game = Game(tmp_path, Settings("Guest", ("easy",), seed=3))
    game.settle()
    state = game.table.state
    you = "Guest"
    game.table.emit(dealer_entry(t.DiscardInput(you, state.hands[you][:2])))
    game.step()  # the discard
    assert game.table.state.starter is None  # the starter comes 0.5 s later
    game.step()
    game.step()
    game.step()
    assert game.table.state.starter is not None


def test_undo_takes_back_the_computers_moves_and_the_persons_last(tmp_path):
    game = Game(tmp_path, Settings("Guest", ("standard",), seed=5))
    rng = random.Random(2)
    game.settle()
    game.person_moves(rng)  # the discard
    game.settle()
    while game.table.state.turn != "Guest" or not game.table.state.played:
        game.person_moves(rng)
        game.settle()
    before = game.table.state
    game.person_moves(rng)  # a card played by the person, then the computer answers
    game.settle()
    assert len(game.table.state.played) >= len(before.played) + 1
    game.table.emit(Entry("undo", "web"))
    game.settle()
    assert game.table.state.played == before.played
    assert game.table.state.turn == "Guest"


def test_a_game_against_the_computer_resumes_after_a_restart(tmp_path):
    game = Game(tmp_path, Settings("Guest", ("easy",), seed=9))
    rng = random.Random(4)
    for _ in range(6):
        game.settle()
        game.person_moves(rng)
    game.settle()
    state = game.table.state
    assert read_settings(game.table.log.path) == game.settings
    again = Game(tmp_path, game.settings, resume=True)
    assert again.table.state == state
    assert again.computer.settings == game.settings
    play_out(again, 4)
    assert again.table.state.winner is not None


def test_discard_feedback_is_said_at_easy_and_not_when_turned_off(tmp_path):
    game = Game(tmp_path, Settings("Guest", ("easy",), seed=2))
    game.settle()
    hand = game.table.state.hands["Guest"]
    game.table.emit(dealer_entry(t.DiscardInput("Guest", hand[:2])))
    game.settle()
    from companion.advice.coach import review_discard

    review = review_discard(game.table.state, "Guest")
    assert game.computer.review == review and game.computer.feedback() == review_words(review, language("en"))
    if not review.optimal:
        assert game.computer.feedback().startswith("That is not the optimal discard")
        said = game.computer.feedback()
        assert f"{review.best.net:.1f}" in said and f"{review.chosen.net:.1f}" in said
    quiet = Game(tmp_path / "quiet", Settings("Guest", ("easy",), seed=2, feedback=False))
    quiet.settle()
    quiet.table.emit(dealer_entry(t.DiscardInput("Guest", hand[:2])))
    quiet.settle()
    assert quiet.computer.review is None and quiet.computer.feedback() == ""


def test_muggins_the_computer_takes_what_the_person_missed_and_says_so(tmp_path):
    game = Game(tmp_path, Settings("Guest", ("standard",), muggins=True, seed=8))
    rng = random.Random(3)
    for _ in range(400):
        game.settle()
        if any(e.kind is ScoreKind.MUGGINS for e in game.table.state.events):
            break
        game.person_moves(rng, claim_low=True)
    events = game.table.state.events
    taken = next(e for e in events if e.kind is ScoreKind.MUGGINS)
    assert taken.player == "Standard" and taken.side.players == ("Standard",)
    assert game.computer.muggins == taken and game.computer.said() == f"Muggins! {said(taken)}"
    assert game.computer.said().startswith("Muggins! Standard takes ") and "that Guest missed" in game.computer.said()
    assert game.computer.said(language("de")).startswith("Muggins! Standard nimmt ")  # a German page's words


def test_a_new_game_against_the_computer_from_the_page_starts_a_fresh_log(tmp_path):
    game = Game(tmp_path, Settings("Guest", ("easy",), seed=1))
    game.settle()
    first = game.table.log.path
    settings = Settings("Ann", ("pro",), 61, seed=3)
    game.table.emit(game.computer.new_game(settings))
    game.settle()
    assert game.table.log.path != first
    assert game.computer.settings == settings
    assert game.table.state.players == ("Ann", "Pro") and game.table.state.target == 61
    assert "Ann" in game.table.state.hands


@pytest.mark.parametrize("data", [
    {"person": "", "levels": ["easy"]}, {"levels": []}, {"levels": ["easy"] * 4}, {"levels": ["hard"]},
    {"target": 100}, {"match": 9}, {"muggins": "yes"}, {"seed": "x"}, {"colour": "red"}, [],
    {"person": "Easy", "levels": ["easy"]}, {"levels": ["pro"], "names": ["Profi", "Leicht"]},
    {"levels": ["pro"], "names": [""]}, {"levels": ["pro"], "names": "Profi"}])
def test_bad_settings_say_what_is_wrong(data):
    with pytest.raises(InputError):
        Settings.from_json(data)


def test_the_computer_players_are_named_in_the_language_the_game_starts_in_and_keep_their_names(tmp_path):
    german = Settings("Gast", ("pro", "easy", "pro")).named(language("de"))
    assert german.computers == ("Profi", "Leicht", "Profi 2")
    assert Settings("Guest", ("pro", "easy", "pro")).named(language("en")).computers == ("Pro", "Easy", "Pro 2")
    assert Settings("Guest", ("standard",)).computers == ("Standard",)  # settings kept before names were
    game = Game(tmp_path, german)
    assert game.table.state.players == ("Gast", "Profi", "Leicht", "Profi 2")
    assert Settings.from_json(german.to_json()) == german  # resumed with the names it began with
    assert read_settings(game.table.log.path) == german


def test_the_pro_reads_the_person_over_the_whole_game(tmp_path):
    # The pro keeps, from deal to deal, what the person's plays say about the rules he follows.
    game = Game(tmp_path, Settings("Guest", ("pro",), 61, seed=4))
    rng = random.Random(6)
    while game.table.state.deal_number < 3 and game.table.state.winner is None:
        game.settle()
        game.person_moves(rng)
    pro = game.computer._players["Pro"]
    assert game.computer._player(game.table.state, "Pro") is pro
    assert pro.evidence != 0.0  # two deals' plays weighed (a person playing at random follows neither well)
