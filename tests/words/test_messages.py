"""The table's messages are values (a kind and its facts); their words are made by one renderer handed a language,
so one process says the same message in English to the board and in German to a page."""

from __future__ import annotations

import ast
import errno
import json
from pathlib import Path

import pytest

from companion import i18n
from companion.base.clock import ManualClock
from companion.cribbage.cards import Card
from companion.cribbage.facts import Place, Prompt, Seen, Wanted
from companion.cribbage.refusals import Refusal, Why
from companion.i18n import language
from companion.web.snapshot import snapshot
from companion.words import schema
from companion.words.messages import Message, PageAddress, Say
from companion.words.phrases import MESSAGES, message_words
from tests.sample_deal import DEAL
from tests.table.tables import enter, new_table

EN, DE = language("en"), language("de")
C5, C7, H10 = Card.parse("5C"), Card.parse("7C"), Card.parse("10H")
SAMPLES = [  # one message of each kind, with the facts its words need
    Message(Say.WAITING, prompt=Prompt(Wanted.CUT, ("Ann", "Bob")), player="Ann"),
    Message(Say.SEATED, prompt=Prompt(Wanted.PLAY, ("Guest",), count=5), player="Guest", other="Pro", card=C5),
    Message(Say.PROGRESS, count=2, total=4), Message(Say.PROGRESS, player="Bob", count=3, total=6),
    Message(Say.QUESTION, card=C5), Message(Say.NOT_ENTERED, card=C5), Message(Say.ANSWER_FIRST, asked=H10),
    Message(Say.ANSWER_FIRST, card=C7, asked=H10),
    Message(Say.REFUSED, refusal=Refusal(Why.PAST_31, card=C7, count=25, total=32)),
    Message(Say.WORDS, text="Not connected: camera"),
    Message(Say.CANNOT_SAVE, count=errno.ENOSPC, text="No space left on device"),
    Message(Say.CANNOT_SAVE, count=errno.ENXIO, text="No such device or address"),  # the system's words
    Message(Say.CARD_SEEN, seen=Seen(C5, Place.STARTER)),
    Message(Say.NO_CARD_WANTED, prompt=Prompt(Wanted.CRIB, (), dealer="Ann")),
    Message(Say.SCAN_NEW_GAME, prompt=Prompt(Wanted.CRIB, (), dealer="Ann"), text="NEW GAME"),
    Message(Say.PLAY_AGAIN, then=Message(Say.QUESTION, card=C5)),
    Message(Say.DECK_DEALS, card=C5, then=Message(Say.QUESTION, card=C7)),
    Message(Say.NO_DECK_INPUT, text="?"), Message(Say.NO_GO_NOW, then=Message(Say.QUESTION, card=C5)),
    Message(Say.PLAY_PEGGED), Message(Say.CLAIM_AFTER_CARD), Message(Say.NOTHING_OF_YOURS, count=2),
    Message(Say.NO_VOICE), Message(Say.PEG_WHOSE, player="Ann"),
    Message(Say.NO_PLAYER_NAMED, text="Eve", players=("Ann", "Bob")),
    Message(Say.NO_PLAYER_SEAT, count=3, total=2), Message(Say.NO_STATE_DIRECTORY), Message(Say.START_OF_GAME),
    Message(Say.UNDONE_HELD, card=C5, then=Message(Say.PROGRESS, count=1, total=4)),
    Message(Say.UNDO_AGAIN, prompt=Prompt(Wanted.CRIB, (), dealer="Ann")),
    Message(Say.LAST_GAME, prompt=Prompt(Wanted.CRIB, (), dealer="Ann")),
    Message(Say.REOPENED, then=Message(Say.QUESTION, card=C5)), Message(Say.CONFIRM_NEW, text="NEW GAME"),
    Message(Say.LOSER_DEALS, player="Bob"), Message(Say.NO_CUT, player="Ann"), Message(Say.NO_HANDS),
    Message(Say.HELP, text="NEW GAME", voice=True, page=PageAddress("0.0.0.0:8121", "5f3a")), Message(Say.SEATED_HELP),
    Message(Say.VOICE_OFF), Message(Say.VOICE_ON), Message(Say.LOG_CARED, count=3), Message(Say.STRIP_MISSING),
    Message(Say.DEVICES_GONE, names=("camera",)), Message(Say.DEVICES_BACK, names=("scanner", "OLED")),
    Message(Say.DEVICES_GONE, names=("camera",), then=Message(Say.DEVICES_BACK, names=("OLED",))),
    Message(Say.ADDRESS, text="192.168.1.20"), Message(Say.SEAT, count=4, players=("Ann", "Bob")),
    Message(Say.SIT_OUT, count=2), Message(Say.WRONG_TOKENS, count=6, text="192.168.1.30", total=1),
    Message(Say.STRIP_BACK), Message(Say.NOTHING_SCANNED), Message(Say.NOTHING_TYPED),
    Message(Say.NO_KEYPAD, text="5"), Message(Say.NOT_A_KEY, text="Z"), Message(Say.SHOP_CODE, names=("NEW GAME",)),
    Message(Say.NOT_OURS, names=("NEW GAME",)), Message(Say.NOT_AN_ENTRY, text="5X", names=("go", "undo")),
    Message(Say.NO_SEAT, text="7"), Message(Say.PEG_RANGE, text="0", total=121), Message(Say.PEG_RANGE, total=121),
    Message(Say.KEYPAD, keys=("5", "GO"), then=Message(Say.KEY_SUIT, text="5")), Message(Say.KEY_FACE),
    Message(Say.KEY_SUIT, text="5"), Message(Say.KEY_PLAYER), Message(Say.KEY_POINTS), Message(Say.WAIT_FACE),
    Message(Say.WAIT_SUIT, text="5"),
    Message(Say.WAIT_PLAYER), Message(Say.WAIT_POINTS), Message(Say.CARD_HELP),
]
GIVEN = {Say.WORDS}  # words another edge made: said as they are


def test_every_kind_has_words_and_a_sample_here():
    assert set(MESSAGES) == set(Say) == {m.kind for m in SAMPLES} | {Say.UNDONE}


@pytest.mark.parametrize("message", SAMPLES, ids=repr)
def test_each_message_has_words_in_english_and_its_own_in_german(message):
    english, german = message_words(message, EN), message_words(message, DE)
    assert english and german and "{" not in english + german
    assert (english == german) == (message.kind in GIVEN)


def test_one_undo_in_english_and_german_in_one_process(tmp_path: Path) -> None:
    table = new_table(tmp_path)  # an English board
    enter(table, *DEAL[:3])  # the starter 5C, Bob 10C, Ann 4C
    (undone,) = enter(table, "undo")
    assert undone.message == Message(Say.UNDONE, taken=((undone.message.taken[0][0], "Ann"),))  # facts, no words
    assert (undone.words(EN), undone.words(DE)) == ("Undone: Ann's 4♣", "Zurückgenommen: 4♣ von Ann")
    assert table.message == "Undone: Ann's 4♣" and i18n.current() is EN  # the OLED's, in the board's language
    with i18n.speaking(DE):  # a German page's snapshot of the same table
        assert table.shown().message == "Zurückgenommen: 4♣ von Ann" and table.prompt() == "Ann spielt, Stand 10"
    assert table.shown().message == "Undone: Ann's 4♣"


def test_a_refusal_and_a_keypad_mistake_in_both_languages(tmp_path: Path) -> None:
    table = new_table(tmp_path)
    enter(table, "5C")
    (again,) = enter(table, "5C")
    assert again.error and again.message is not None and again.message.kind is Say.REFUSED  # the engine's
    assert again.words(EN) == "5♣ is the starter: play a card from Bob's hand"
    assert again.words(DE) == "5♣ ist die Startkarte: spiel eine Karte von der Hand von Bob"
    (keys,) = enter(table, "keys 5 A", source="keypad")
    assert keys.error and keys.message is not None and keys.message.kind is Say.KEYPAD
    assert keys.words(EN) == "keypad 5 GO: 5 needs its suit first: press 1 ♣, 2 ♦, 3 ♥ or 4 ♠"
    assert keys.words(DE) == "Tastenfeld 5 GO: 5 braucht zuerst seine Farbe: drücke 1 ♣, 2 ♦, 3 ♥ oder 4 ♠"


def test_the_pages_snapshot_carries_the_message_as_facts_and_as_words_in_its_language(tmp_path: Path) -> None:
    table = new_table(tmp_path)  # an English board
    enter(table, "5C")
    enter(table, "keys 5 A", source="keypad")  # a message with a message inside
    english = json.loads(json.dumps(snapshot(table)))
    with i18n.speaking(DE):  # a German page's snapshot
        german = json.loads(json.dumps(snapshot(table)))
    for shot in (english, german):
        schema.validate("snapshot", shot)
        assert shot["message_facts"] == {"kind": "keypad", "keys": ["5", "GO"],
                                         "then": {"kind": "key_suit", "text": "5"}}
    assert english["message"] == "keypad 5 GO: 5 needs its suit first: press 1 ♣, 2 ♦, 3 ♥ or 4 ♠"
    assert german["message"] == "Tastenfeld 5 GO: 5 braucht zuerst seine Farbe: drücke 1 ♣, 2 ♦, 3 ♥ oder 4 ♠"
    (undone,) = enter(table, "undo")
    assert undone.words(DE) == "Zurückgenommen: die Startkarte 5♣"
    shot = json.loads(json.dumps(snapshot(table)))
    schema.validate("snapshot", shot)
    assert shot["message_facts"] == {"kind": "undone", "taken": [{"input": {"type": "starter", "card": "5C"},
                                                                   "player": "Ann"}]}
    clock = table.clock
    assert isinstance(clock, ManualClock)
    clock.advance(60)
    table.tick(clock.monotonic())
    assert snapshot(table)["message_facts"] is None and snapshot(table)["message"] == ""


PACKAGE = Path(__file__).parents[2] / "companion"
MESSAGE_MAKERS = sorted([*(PACKAGE / "table").glob("*.py"), *(PACKAGE / "entry").glob("*.py"), PACKAGE / "gamelog.py"])
DRAWN = {  # words made where they are drawn or raised to a programmer, not messages of the table
    "table/presenter.py": ["Starter {card}"],  # the OLED's line beside the last move, drawn in the board's language
    "entry/keymap.py": ["{key!r} is not a key label: the keys are {keys}"],  # a driver that sends no key's label
}


def translated(source: str) -> list[str]:
    """The messages a module translates (the first argument of each `_()` or `ngettext()`)."""
    return [node.args[0].value for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("_", "ngettext")
            and node.args and isinstance(node.args[0], ast.Constant)]


@pytest.mark.parametrize("path", MESSAGE_MAKERS, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_the_table_and_the_entries_make_messages_not_words(path):
    assert translated(path.read_text(encoding="utf-8")) == DRAWN.get(str(path.relative_to(PACKAGE)), [])


def test_the_scan_finds_words_made():
    assert translated('raise CommandMistake(_("No go now: {prompt}").format(prompt=p))') == ["No go now: {prompt}"]
    assert translated('ngettext("a card", "{n} cards", n)') == ["a card"]
