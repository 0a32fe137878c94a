"""The engine refuses in a code with its facts; the words are made at the edge, in each person's language."""

from __future__ import annotations

import json
import re

import pytest

from companion.cribbage.cards import Card, parse_cards
from companion.cribbage.errors import CardSyntaxError, InputError, RuleError
from companion.cribbage.facts import NoteKind, Place, Prompt, ScoreKind, Seen, Side, Wanted
from companion.cribbage.game import apply, initial_state, replay
from companion.cribbage.refusals import Act, Refusal, Why
from companion.cribbage.transcript import ClaimInput, GameInput, PlayInput, StarterInput, parse_input
from companion.i18n import language
from companion.words.phrases import REFUSALS, note, refusal
from companion.words.saying import error_words

ENGLISH, GERMAN = language("en"), language("de")
START = [GameInput(("Ann", "Bob"), dealer="Ann"), StarterInput(Card.parse("5C"))]


def sample(why: Why, act: Act | None = None) -> Refusal:
    """A refusal of `why` with every fact filled, as the longest words need them."""
    five, jack = parse_cards("5H JS")
    return Refusal(why, card=five, cards=(five, jack), player="Ann", other="Bob", players=("Ann", "Bob"), count=25,
                   total=35, points=7, size=4, prompt=Prompt(Wanted.PLAY, ("Bob",), count=25, dealer="Ann"),
                   seen=Seen(five, Place.PLAYED, "Bob"), act=act, counting=ScoreKind.HAND, side=Side(("Ann",)),
                   text="'5X'", input="play", field="card", names=("play", "go"),
                   cause=Refusal(Why.NO_SUIT, text="5X"))


def test_the_words_of_refusals_are_a_table_of_one_entry_a_code():
    assert set(REFUSALS) == set(Why)  # each said by its own entry, none by a fall-through


@pytest.mark.parametrize("act", [None, *Act])
@pytest.mark.parametrize("why", list(Why))
def test_every_refusal_is_said_in_english_and_in_german(why, act):
    english, german = refusal(sample(why, act), ENGLISH), refusal(sample(why, act), GERMAN)
    for words in (english, german):
        assert words and not re.search(r"\{\w*(![rs])?\}", words) and "None" not in words, words
        assert not words.startswith(("line ", "Zeile ")) or why is Why.BAD_LINE, words  # each code has its words
    assert english != german


def test_one_refusal_in_both_languages_at_once():
    state = replay([*START, *(PlayInput(Card.parse(c)) for c in ("KH", "QD", "5D"))])
    with pytest.raises(RuleError) as caught:
        apply(state, PlayInput(Card.parse("9S")))
    assert caught.value.refusal == Refusal(Why.PAST_31, card=Card.parse("9S"), player="Ann", count=25, total=34)
    assert apply(state, PlayInput(Card.parse("6S"))).played[-1] == ("Ann", Card.parse("6S"))  # 31: nothing changed
    assert error_words(caught.value, ENGLISH) == "the count is 25: 9S would make 34; play a lower card or say go"
    assert error_words(caught.value, GERMAN) == ("der Stand ist 25: 9S ergäbe 34; spiel eine niedrigere Karte oder "
                                                 "sag Go")
    assert str(caught.value) == "past_31(card=9S, player=Ann, count=25, total=34)"  # for logs: the code, no words


def test_a_card_seen_says_where_it_is():
    state = replay([*START, PlayInput(Card.parse("KH"))])
    with pytest.raises(RuleError) as caught:
        apply(state, PlayInput(Card.parse("KH")))
    why = caught.value.refusal
    assert why is not None and why.why is Why.CARD_SEEN and why.seen == Seen(Card.parse("KH"), Place.PLAYED, "Bob")
    assert refusal(why, ENGLISH) == "K♥ was played by Bob: play a card from Ann's hand"
    assert refusal(why, GERMAN) == "K♥ hat Bob schon gespielt: spiel eine Karte von der Hand von Ann"


def test_syntax_and_malformed_inputs_carry_their_refusal_too():
    with pytest.raises(CardSyntaxError) as card:
        Card.parse("5X")
    assert card.value.refusal == Refusal(Why.NO_SUIT, text="5X")
    with pytest.raises(InputError) as line:
        parse_input('{"type":"play","card":"5X"}')
    assert line.value.refusal == Refusal(Why.BAD_FIELD, input="play", field="card", cause=card.value.refusal)
    assert error_words(line.value, ENGLISH).startswith("play input, field 'card': '5X' has no suit I know: type ")
    assert error_words(line.value, GERMAN).startswith("Eingabe play, Feld 'card': '5X' ")


def test_the_json_of_a_refusal_is_its_code_and_plain_facts():
    why = Refusal(Why.PAST_31, card=Card.parse("9S"), player="Ann", count=25, total=34,
                  prompt=Prompt(Wanted.PLAY, ("Ann",), count=25))
    assert json.loads(json.dumps(why.to_json())) == {"why": "past_31", "card": "9S", "player": "Ann", "count": 25,
                                                     "total": 34, "prompt": "play"}


def test_notes_are_typed_facts_said_in_each_language():
    state = replay([GameInput(("Ann", "Bob"), dealer="Ann", muggins=True), StarterInput(Card.parse("5C")),
                    PlayInput(Card.parse("10H")), PlayInput(Card.parse("5D"), claim=0)])
    claimed, missed = state.events[-1].notes
    assert (claimed.kind, claimed.claimed, missed.kind, missed.player, missed.points) == (
        NoteKind.CLAIMED, 0, NoteKind.MISSED, "Ann", 2)
    assert [note(n, ENGLISH) for n in (claimed, missed)] == ["claimed zero", "Ann missed two: muggins for 2"]
    assert [note(n, GERMAN) for n in (claimed, missed)] == ["null angesagt", "Ann hat zwei übersehen: Muggins für 2"]


def test_a_claim_outside_muggins_is_refused_by_its_code():
    state = replay(START)
    with pytest.raises(RuleError) as caught:
        apply(state, ClaimInput(7))
    assert caught.value.refusal == Refusal(Why.NO_MUGGINS, act=Act.CLAIM)
    assert apply(initial_state(), START[0]).phase == "deal"
