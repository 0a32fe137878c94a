from __future__ import annotations

import pytest

from companion.cribbage.cards import Card
from companion.deck.meaning import explain_scan
from companion.i18n import speaking


@pytest.mark.parametrize(("text", "said"), [
    ("C5H", "C5H -> five of hearts"),
    ("CTD\r\n", "CTD -> ten of diamonds"),
    ("cah", "cah -> ace of hearts"),
    ("]d1CKS", "]d1CKS -> king of spades"),
    ("XG", "XG -> command GO"),
    ("XN", "XN -> command NEW GAME"),
    ("5H", "5H -> five of hearts, typed as a card code (its barcode says C5H)"),
])
def test_our_codes_say_what_they_are(text: str, said: str) -> None:
    scan = explain_scan(text)
    assert str(scan) == said
    assert scan.ours


def test_a_retail_barcode_is_rejected_with_what_to_do() -> None:
    scan = explain_scan("5012345678900")
    assert not scan.ours and scan.meaning is None
    assert str(scan) == ("5012345678900 -> not a Cribbage Companion code: this looks like a retail barcode "
                         "(EAN-13); scan the sticker on the card")


@pytest.mark.parametrize(("text", "hint"), [
    ("036000291452", "a retail barcode (UPC-A)"),
    ("9780306406157", "a book's ISBN"),
    ("5012345678901", "a number, not one of our codes"),  # wrong check digit
    ("C(H", "C5H typed on a French (AZERTY) keyboard layout"),
    ("C1H", "card codes are C, a rank (A 2-9 T J Q K) and a suit (C D H S)"),
    ("XZ", "the commands are XG GO, XU UNDO, XO OK, XN NEW GAME, XM MENU"),
    ("https://example.com", "scan the sticker on the card"),
    ("\r\n", "set it to end each code with one Enter"),
])
def test_codes_that_are_not_ours_say_why(text: str, hint: str) -> None:
    scan = explain_scan(text)
    assert scan.meaning is None
    assert "not a Cribbage Companion code: " in scan.explanation and hint in scan.explanation


def test_meaning_is_the_card_itself() -> None:
    assert explain_scan("C9C").meaning == Card.parse("9C")
    assert explain_scan("XU").meaning == "undo"


def test_what_a_scan_means_is_said_in_the_readers_language() -> None:
    with speaking("de"):
        assert explain_scan("C9C").explanation == "Kreuz Neun"
        assert explain_scan("XG").explanation == "Befehl GO"
        assert explain_scan("5H").explanation == "Herz Fünf, als Kartencode getippt (sein Barcode sagt C5H)"
        assert explain_scan("").explanation == ("kein Code von Cribbage Companion: der Scanner schickte eine leere "
                                                "Zeile; stelle ihn so ein, dass er jeden Code mit einem Enter beendet")
    assert explain_scan("C9C").explanation == "nine of clubs"  # English outside
