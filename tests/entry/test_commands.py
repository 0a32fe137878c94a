from __future__ import annotations

import pytest

from companion.base.clock import ManualClock
from companion.cribbage.cards import Card
from companion.entry import Entry
from companion.entry.commands import CardEntered, Command, Points, Rejected, decode_entry
from companion.entry.scans import DuplicateFilter, normalise_scan
from companion.words.phrases import message_words


@pytest.mark.parametrize("text", ["5H", "5h", " 5♥ ", "C5H", "c5h"])
def test_cards_typed_or_scanned(text: str) -> None:
    assert decode_entry(Entry(text)) == CardEntered(Card.parse("5H"))
    assert decode_entry(Entry(text, "scanner")) == CardEntered(Card.parse("5H"))


@pytest.mark.parametrize(("text", "word"), [("XG", "go"), ("xu", "undo"), ("XO", "ok"), ("XN", "new"), ("XM", "menu"),
                                            ("GO", "go"), ("Undo", "undo"), ("new game", "new"), ("next", "ok")])
def test_commands(text: str, word: str) -> None:
    assert decode_entry(Entry(text)) == Command(word)


def test_a_grocery_barcode_is_not_ours_and_says_what_to_scan() -> None:
    decoded = decode_entry(Entry("5012345678900\r\n", "scanner:evdev"))
    assert isinstance(decoded, Rejected)
    assert message_words(decoded.message).startswith("not a Cribbage Companion code")
    assert "scan the sticker on the card" in message_words(decoded.message)
    # anything else a scanner reads is not ours either, even when it looks like typing
    other = decode_entry(Entry("HELLO", "scanner:serial"))
    assert isinstance(other, Rejected) and message_words(other.message).startswith("not a Cribbage Companion code")


def test_typed_nonsense_says_what_to_type() -> None:
    decoded = decode_entry(Entry("5X"))
    assert isinstance(decoded, Rejected)
    assert message_words(decoded.message).startswith("'5X' is not a card or a command: type a card like 5H")
    assert isinstance(decode_entry(Entry("   ")), Rejected)


def test_manual_pegging_text() -> None:
    assert decode_entry(Entry("peg 7")) == Points(None, 7)
    assert decode_entry(Entry("PEG 1 29")) == Points(0, 29)
    assert decode_entry(Entry("peg Bob 3")) == Points(None, 3, player_name="Bob")
    assert decode_entry(Entry("peg  Ann & Cat  12")) == Points(None, 12, player_name="Ann & Cat")
    for bad, words in [("peg 0", "cannot be pegged"), ("peg 5 3", "no player 5"), ("peg 200", "cannot be pegged")]:
        decoded = decode_entry(Entry(bad))
        assert isinstance(decoded, Rejected) and words in message_words(decoded.message)


def test_keypad_texts_without_a_keypad() -> None:
    decoded = decode_entry(Entry("key:5"))
    assert isinstance(decoded, Rejected) and "no keypad" in message_words(decoded.message)
    decoded = decode_entry(Entry("key:Z"))
    assert isinstance(decoded, Rejected) and "'Z' is not a key" in message_words(decoded.message)


@pytest.mark.parametrize(("raw", "payload"), [("C5H\r\n", "C5H"), ("]d1c5h", "C5H"), ("\x1d]C0XG\t", "XG"),
                                              ("  cth ", "CTH")])
def test_scan_normalisation(raw: str, payload: str) -> None:
    assert normalise_scan(raw) == payload


def test_the_same_code_within_the_window_counts_once() -> None:
    clock = ManualClock()
    duplicates = DuplicateFilter(clock, window=1.5)
    assert duplicates.accept("C5H")
    clock.advance(0.2)
    assert not duplicates.accept("C5H")
    clock.advance(1.4)  # still held over the label: the window runs from the last reading
    assert not duplicates.accept("C5H")
    assert duplicates.accept("C6H")
    assert duplicates.accept("C5H")  # another code came between
    clock.advance(2.0)
    assert duplicates.accept("C5H")
