"""A card a camera read without being sure is asked about on the OLED and entered only when confirmed: OK enters
it, a card the person enters replaces it, UNDO drops it; the next card held up to a camera meanwhile, or GO, is
refused in words that say to answer first (never a card dropped or entered without a word); the table's refusals
apply to it as to any card, and a misread that slipped through is undone like any entry."""

from __future__ import annotations

from pathlib import Path

from companion.cribbage.cards import Card
from companion.cribbage.transcript import PlayInput, StarterInput, UndoInput
from companion.entry import Entry
from companion.i18n import language
from companion.table import Outcome, Table
from tests.table.tables import enter, new_table


def seen(table: Table, code: str) -> str:
    """A card the camera was not sure of: what the board says."""
    outcome = shown(table, code, sure=False)
    assert outcome.accepted is None and not outcome.error
    return outcome.words()


def shown(table: Table, code: str, *, sure: bool = True, source: str = "camera") -> Outcome:
    """A card held up to a camera (the board's, or a phone's: camera:phone)."""
    table.emit(Entry(code, source, sure=sure))
    (outcome,) = table.drain()
    return outcome


def test_a_doubtful_card_is_asked_about_and_entered_only_when_ok_confirms_it(tmp_path: Path) -> None:
    table = new_table(tmp_path)
    assert seen(table, "5C") == "5♣? OK, or enter the card"
    assert len(table.log.inputs) == 1 and table.prompt() == "5♣? OK, or enter the card"
    assert table.shown().screen.prompt == "5♣? OK, or enter the card"  # on the OLED while it waits
    (ok,) = enter(table, "ok", source="keypad")
    assert ok.accepted == StarterInput(Card.parse("5C"))
    assert table.prompt() == "Bob to play, count 0"


def test_another_card_replaces_the_guess_and_undo_drops_it(tmp_path: Path) -> None:
    table = new_table(tmp_path)
    seen(table, "6C")
    (typed,) = enter(table, "5C")  # the player corrects it on the keypad
    assert typed.accepted == StarterInput(Card.parse("5C"))
    assert seen(table, "10S") == "10♠? OK, or enter the card"
    (undo,) = enter(table, "undo")
    assert undo.accepted is None and undo.words() == "Not entered: 10♠"
    assert len(table.log.inputs) == 2 and table.prompt() == "Bob to play, count 0"
    (ok,) = enter(table, "ok")  # nothing is asked now: OK means what it always does
    assert ok.accepted is None and len(table.log.inputs) == 2


def test_a_confirmed_card_meets_the_tables_refusals_and_a_misread_is_undone(tmp_path: Path) -> None:
    table = new_table(tmp_path)
    enter(table, "5C", "10C")
    seen(table, "10C")
    (again,) = enter(table, "ok")
    assert again.error and "10♣" in again.words() and len(table.log.inputs) == 3  # already played: refused
    seen(table, "4C")
    (wrong,) = enter(table, "ok")  # confirmed by mistake: Ann's 4♣ entered
    assert wrong.accepted == PlayInput(Card.parse("4C"))
    (undo,) = enter(table, "undo")
    assert undo.accepted == UndoInput() and "4♣" in undo.words()
    assert len(table.state.played) == 1


def test_a_bad_entry_while_asking_changes_nothing_and_keeps_the_question(tmp_path: Path) -> None:
    table = new_table(tmp_path)
    seen(table, "5C")
    (bad,) = enter(table, "5X")
    assert bad.error and table.prompt() == "5♣? OK, or enter the card"
    (ok,) = enter(table, "ok")
    assert ok.accepted == StarterInput(Card.parse("5C"))


def test_the_question_and_what_became_of_it_are_said_in_each_readers_language(tmp_path: Path) -> None:
    table = new_table(tmp_path)  # an English board
    asked = shown(table, "5C", sure=False)
    assert asked.words(language("de")) == "5♣? OK oder Karte eingeben"  # a German page's words for the question
    assert asked.words(language("en")) == table.message == "5♣? OK, or enter the card"  # and the OLED's
    assert table.prompt(language("de")) == "5♣? OK oder Karte eingeben"
    (undo,) = enter(table, "undo")
    assert undo.words(language("de")) == "Nicht eingegeben: 5♣"
    assert undo.words() == "Not entered: 5♣"  # the OLED's, in the board's language


def test_the_next_card_held_up_before_the_answer_is_refused_in_words_and_the_question_stays(tmp_path: Path) -> None:
    table = new_table(tmp_path)
    seen(table, "10H")
    for sure in (True, False):  # read for sure or not, from the board's camera or a phone's
        nxt = shown(table, "7C", sure=sure, source="camera:phone")
        assert nxt.error and nxt.accepted is None
        assert nxt.words() == ("7♣ not entered: first answer about 10♥ (OK, or enter the card), then show 7♣ "
                               "again")
        assert table.shown().message == nxt.words() and table.shown().error  # the OLED's message line, in red
        assert table.prompt() == "10♥? OK, or enter the card" and table.doubt.card == Card.parse("10H")
        assert len(table.log.inputs) == 1
    (ok,) = enter(table, "ok", source="keypad")
    assert ok.accepted == StarterInput(Card.parse("10H"))
    assert shown(table, "7C").accepted == PlayInput(Card.parse("7C"))  # shown again: entered


def test_go_while_asking_is_refused_and_menu_is_done_as_usual(tmp_path: Path) -> None:
    table = new_table(tmp_path)
    enter(table, "5C")
    seen(table, "10C")
    (go,) = enter(table, "go", source="keypad")
    assert go.error and go.words() == "First answer about 10♣: OK, enter the card, or undo"
    assert len(table.log.inputs) == 2 and table.doubt.card == Card.parse("10C")
    (menu,) = enter(table, "menu", source="keypad")
    assert not menu.error and "undo" in menu.words() and table.prompt() == "10♣? OK, or enter the card"
    (ok,) = enter(table, "ok", source="keypad")
    assert ok.accepted == PlayInput(Card.parse("10C"))


def test_the_same_card_shown_again_is_asked_again_or_entered_when_now_sure(tmp_path: Path) -> None:
    table = new_table(tmp_path)
    seen(table, "5C")
    assert seen(table, "5C") == "5♣? OK, or enter the card" and len(table.log.inputs) == 1
    sure = shown(table, "5C")
    assert sure.accepted == StarterInput(Card.parse("5C")) and table.doubt.card is None


def test_the_refusal_while_asking_is_said_in_a_pages_language(tmp_path: Path) -> None:
    table = new_table(tmp_path)
    seen(table, "10H")
    refused = shown(table, "7C")
    assert refused.words(language("de")) == ("7♣ nicht eingegeben: erst die Frage zu 10♥ beantworten (OK oder Karte "
                                             "eingeben), dann 7♣ noch einmal zeigen")
    (go,) = enter(table, "go")
    assert go.words(language("de")) == "Erst die Frage zu 10♥ beantworten: OK, Karte eingeben oder undo"
