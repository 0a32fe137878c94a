from __future__ import annotations

import itertools

import pytest

from companion.base.clock import ManualClock
from companion.cribbage.cards import DECK
from companion.entry import Entry
from companion.entry.commands import CardEntered, Command, Points, Rejected, decode_entry
from companion.entry.keymap import KEYS, LAYOUT, KeySequence, explain_keys
from companion.words.phrases import message_words


def entries(keys: str, clock: ManualClock | None = None) -> list[str]:
    sequence = KeySequence(clock or ManualClock())
    return [text for key in keys.split() if (text := sequence.press(key)) is not None]


def test_the_layout_is_a_4x4_grid_of_distinct_keys() -> None:
    assert len(LAYOUT) == 4 and all(len(row) == 4 for row in LAYOUT)
    assert len(KEYS) == 16


def test_every_card_takes_at_most_three_presses_exhaustively() -> None:
    shortest: dict[str, int] = {}
    for length in (1, 2, 3):
        for keys in itertools.product(sorted(KEYS), repeat=length):
            found = entries(" ".join(keys))
            if len(found) == 1 and found[0] not in shortest:
                shortest[found[0]] = length
    for card in DECK:
        assert shortest.get(str(card), 99) <= 3, card
        assert shortest[str(card)] == (3 if card.rank > 10 else 2)
    for word in ("go", "undo", "ok", "menu"):
        assert shortest[word] == 1


@pytest.mark.parametrize(("keys", "card"), [("1 1", "AC"), ("5 3", "5H"), ("0 2", "10D"), ("* 1 4", "JS"),
                                            ("* 3 3", "KH"), ("7 9 4", "9S")])
def test_cards_from_presses(keys: str, card: str) -> None:
    assert entries(keys) == [card]
    assert decode_entry(Entry(card, "keypad")) == CardEntered(DECK[[str(c) for c in DECK].index(card)])


def test_command_keys_and_manual_pegging() -> None:
    assert entries("A B C D") == ["go", "undo", "ok", "menu"]
    assert entries("# 2 1 2 C") == ["peg 2 12"]
    assert entries("# * 5 C") == ["peg 5"]
    assert decode_entry(Entry("peg 2 12", "keypad")) == Points(1, 12)
    assert decode_entry(Entry("peg 5", "keypad")) == Points(None, 5)
    assert decode_entry(Entry("go", "keypad")) == Command("go")


def test_undo_clears_a_half_entered_card_only() -> None:
    assert entries("5 B 6 2") == ["6D"]
    assert entries("* 2 B B") == ["undo"]


def test_spoiled_sequences_are_rejected_with_what_to_press() -> None:
    assert entries("5 A") == ["keys 5 A"]
    rejected = decode_entry(Entry("keys 5 A", "keypad"))
    assert isinstance(rejected, Rejected)
    assert message_words(rejected.message) == "keypad 5 GO: 5 needs its suit first: press 1 ♣, 2 ♦, 3 ♥ or 4 ♠"
    assert entries("* 4") == ["keys * 4"]
    assert "after * press 1 (jack), 2 (queen) or 3 (king)" in message_words(explain_keys(["*", "4"]))
    assert entries("# 2 1 2 3") == ["keys # 2 1 2 3"]
    assert "one or two digits and then OK" in message_words(explain_keys(["#", "2", "1", "2", "3"]))


def test_a_new_rank_replaces_one_waiting_for_its_suit() -> None:
    assert entries("7 9 1") == ["9C"]


def test_half_entered_sequences_time_out_on_the_clock() -> None:
    clock = ManualClock()
    sequence = KeySequence(clock, timeout=4.0)
    assert sequence.press("5") is None
    clock.advance(3.9)
    assert sequence.poll() is None
    assert sequence.pending == ("5",)
    clock.advance(0.1)
    assert sequence.poll() == "keys 5"
    assert sequence.pending == ()
    assert sequence.poll() is None
    assert "5 waits for its suit" in message_words(explain_keys(["5"]))
    # each press restarts the wait
    assert sequence.press("*") is None
    clock.advance(3.0)
    assert sequence.press("2") is None
    clock.advance(3.0)
    assert sequence.poll() is None
    assert sequence.press("3") == "QH"


def test_a_press_after_the_timeout_starts_a_new_card() -> None:
    clock = ManualClock()
    sequence = KeySequence(clock, timeout=4.0)
    sequence.press("5")
    clock.advance(10)
    assert sequence.press("2") is None  # not the two of... a new rank, waiting for a suit
    assert sequence.press("4") == "2S"


def test_unknown_key_labels_are_refused() -> None:
    with pytest.raises(ValueError, match="is not a key label"):
        KeySequence(ManualClock()).press("E")
