"""The held cards: the crib and coached hands wait here, and in the file beside the log, until all are in."""

from __future__ import annotations

import pytest

from companion.base.clock import ManualClock
from companion.boards import load_layout
from companion.cribbage.cards import Card
from companion.cribbage.game import replay
from companion.cribbage.transcript import HandInput, Input, StarterInput
from companion.entry import Entry
from companion.gamelog import GameLog
from companion.i18n import language
from companion.table import CommandMistake, HeldCards, Table
from companion.words.logbook import Found, finding_words
from companion.words.phrases import message_words
from tests.sample_deal import DEAL, GAME, deal


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(c) for c in text.split())


def at_the_crib() -> list[Input]:
    return deal(DEAL[-5])  # the starter and the whole play: the crib is wanted


def test_crib_cards_wait_until_the_fourth_then_go_together():
    state = replay(at_the_crib())
    assert state.phase == "crib"
    held = HeldCards()
    assert [held.offer(state, card) for card in cards("2C 3D 9S")] == [None, None, None]
    assert message_words(held.progress(state)) == "Crib: 3 of 4"
    assert held.offer(state, Card.parse("KH")) == cards("2C 3D 9S KH")
    assert held.cards == list(cards("2C 3D 9S"))  # the table clears them once the engine took the crib


@pytest.mark.parametrize(("card", "where"), [("2C", "2♣ is in the crib already"), ("JH", "J♥ was played by Bob"),
                                             ("5C", "5♣ is the starter")])
def test_a_card_seen_already_is_refused_saying_where_it_is_and_not_held(card, where):
    state = replay(at_the_crib())
    held = HeldCards()
    held.offer(state, Card.parse("2C"))
    with pytest.raises(CommandMistake) as refused:
        held.offer(state, Card.parse(card))
    assert message_words(refused.value.refusal) == f"{where}: enter another card"
    assert held.cards == [Card.parse("2C")]


def test_undo_takes_back_the_last_card_held():
    state = replay(at_the_crib())
    held = HeldCards()
    assert held.take_back() is None
    held.offer(state, Card.parse("2C"))
    held.offer(state, Card.parse("3D"))
    assert held.take_back() == Card.parse("3D") and message_words(held.progress(state)) == "Crib: 1 of 4"


def test_coaching_wants_the_pones_hand_then_the_dealers_unless_skipped():
    state = replay([GAME])
    assert HeldCards().coached_player(state) is None  # not coaching
    held = HeldCards(coaching=True)
    assert held.coached_player(state) == "Bob" and held.wanted(state) == 6
    assert message_words(held.progress(state)) == "Bob's hand: 0 of 6"
    state = replay([GAME, HandInput("Bob", cards("10C 5H 5D JH 2C 3D"))])
    assert held.coached_player(state) == "Ann"
    state = replay([*state.inputs, HandInput("Ann", cards("4C 6D 7S 8H 9S KH"))])
    assert held.coached_player(state) is None  # both in: the starter is next
    fresh = replay([GAME])
    held.skip_hands(fresh)
    assert held.coached_player(fresh) is None
    assert held.coached_player(replay([GAME, StarterInput(Card.parse("5C"))])) is None


def test_what_is_held_survives_in_the_file_beside_the_log(tmp_path):
    game_log = GameLog.open(tmp_path / "0001.jsonl")
    for inp in at_the_crib():
        game_log.append(inp)
    state = replay(game_log.inputs)
    held = HeldCards()
    held.offer(state, Card.parse("2C"))
    held.offer(state, Card.parse("3D"))
    held.keep(game_log, state)
    assert game_log.pending_path.exists()
    again = HeldCards()
    again.restore(GameLog.open(game_log.path), state)
    assert again.cards == list(cards("2C 3D"))
    held.cards.clear()
    held.keep(game_log, state)  # nothing held: no file
    assert not game_log.pending_path.exists()


def test_a_file_the_log_has_moved_past_is_stale_and_removed(tmp_path):
    game_log = GameLog.open(tmp_path / "0001.jsonl")
    for inp in at_the_crib():
        game_log.append(inp)
    state = replay(game_log.inputs)
    held = HeldCards()
    held.offer(state, Card.parse("2C"))
    held.keep(game_log, state)
    game_log.append(deal(DEAL[-1])[-1])  # the crib went in, the file stayed (a crash in between)
    again = HeldCards()
    again.restore(game_log, replay(game_log.inputs))
    assert again.cards == [] and not game_log.pending_path.exists()


def test_unreadable_held_cards_are_dropped_with_a_warning(tmp_path):
    game_log = GameLog.open(tmp_path / "0001.jsonl")
    for inp in at_the_crib():
        game_log.append(inp)
    game_log.pending_path.write_text(f'{{"cards": ["ZZ"], "inputs": {len(game_log.inputs)}}}')
    held = HeldCards()
    held.restore(game_log, replay(game_log.inputs))
    assert held.cards == [] and not game_log.pending_path.exists()
    assert game_log.warnings[-1].kind is Found.PENDING_CARD
    assert finding_words(game_log.warnings[-1], language("en")) == (
        f"{game_log.pending_path}: 'ZZ' is not a card: type a rank A 2-9 10 (or T) J Q K then a suit C D H S (or ♣ "
        "♦ ♥ ♠), for example 5H, 10D, ah, Q♠; the cards held are dropped")


def test_a_held_cards_file_with_a_number_for_a_card_is_dropped_with_a_warning_not_a_crash(tmp_path):
    def table() -> Table:
        return Table(GameLog.open(tmp_path / "0001.jsonl"), setup=GAME, layout=load_layout("two-track-121"),
                     clock=ManualClock())

    first = table()
    for text in DEAL[:-3]:
        first.handle(Entry(text, "terminal"))
    assert first.prompt() == "Crib: 1 of 4"
    pending = first.log.pending_path
    pending.write_text(pending.read_text().replace('"cards": ["', '"cards": [5, "'))
    again = table()  # starts, and says the held cards are gone
    assert again.cards == [] and again.prompt() == "Enter Ann's crib"
    said = finding_words(again.log.warnings[-1], language("en"))
    assert "not a list of cards" in said and str(pending) in said


def test_crib_cards_held_when_a_peg_wins_the_game_go_as_a_restart_would_drop_them(tmp_path):
    game_log = GameLog.open(tmp_path / "0001.jsonl")
    for inp in at_the_crib():
        game_log.append(inp)
    table = Table(game_log, setup=GAME, layout=load_layout("two-track-121"), clock=ManualClock())
    table.handle(Entry("2C", "keypad"))
    assert table.cards == [Card.parse("2C")]
    won = table.handle(Entry("peg 2 121", "keypad"))
    assert won.accepted is not None and table.state.winner is not None
    assert table.cards == [] and not table.log.pending_path.exists()
    again = Table(GameLog.open(table.log.path), setup=GAME, layout=load_layout("two-track-121"),
                  clock=ManualClock())
    assert again.state == table.state and again.cards == table.cards
