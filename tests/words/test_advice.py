"""The advice says why in typed reasons; their words are made by one renderer handed a language, so one process
gives the same hint, lay-away and discard review in English and in German."""

from __future__ import annotations

import ast
import builtins
from pathlib import Path

import pytest

from companion import i18n
from companion.advice import endgame, keeps, model
from companion.advice.coach import DiscardReview
from companion.advice.discard import analyse
from companion.advice.pegging import PlayView, hint
from companion.advice.players import Seat, explain_lay_away
from companion.cli import main
from companion.cribbage.cards import DECK, Card, parse_cards
from companion.i18n import language
from companion.words.advice import (
    BUILT_BY,
    DATA_WORDS,
    AdviceDataError,
    AdviceError,
    AdviceRefusal,
    Because,
    Data,
    Reason,
    Unadvised,
    hint_words,
    lay_away_words,
    reason_words,
    refusal_words,
)
from companion.words.review import analysis_words, review_words
from companion.words.saying import error_words
from tests.words.bilingual import assert_said_apart

EN, DE = language("en"), language("de")
C5, H9 = Card.parse("5C"), Card.parse("9H")
HAND, DISCARD = parse_cards(["5H", "5D", "6C", "4S"]), parse_cards(["JS", "QD"])
SAMPLES = [  # one reason of each kind, with the facts its words need
    Reason(Because.WINS_NOW, count=15, points=2, need=2), Reason(Because.WINS_NOW, count=12, points=2, need=1),
    Reason(Because.ALSO_WINS, H9), Reason(Because.LEAVES_GAME, H9, points=2, share=0.4),
    Reason(Because.LEAVES_GAME, H9, points=0, share=0.25), Reason(Because.PEGS, count=31, points=2),
    Reason(Because.PEGS, count=20, points=6), Reason(Because.LOW_LEAD), Reason(Because.LEAVES_COUNT, count=17),
    Reason(Because.AS_WELL, H9), Reason(Because.WINS, share=0.625), Reason(Because.RISK, H9, count=6, share=1.25),
    Reason(Because.RISK, H9, count=0, share=0.75), Reason(Because.OUTPEGS, H9, C5, count=10, points=2, other=1),
    Reason(Because.OUTPEGS, H9, C5, count=10, points=2, other=0), Reason(Because.KEEPS, H9),
    Reason(Because.WINS_OVER, H9, share=0.7, other_share=0.55), Reason(Because.WORTH_MORE, H9, share=0.35),
    Reason(Because.THEY_NEED, need=6, dealer=True), Reason(Because.THEY_NEED, need=6),
    Reason(Because.EV_PEGS, points=2), Reason(Because.EV_NO_PAIR), Reason(Because.EV_OFF_COUNT, count=21),
    Reason(Because.EV_LOWEST_LEAD), Reason(Because.EV_LOWEST_CARD),
    Reason(Because.EV_WINS, share=0.4, other_share=0.5), Reason(Because.EV_WORTH_LESS, share=1.5),
    Reason(Because.NEAR_END, cards=HAND, share=0.5, other_share=0.45),
    Reason(Because.CRIB_FOR, cards=DISCARD, others=HAND[:2], share=5.25, other_share=4.5, exact=5.0, other_exact=4.75,
           dealer=True),
    Reason(Because.CRIB_FOR, cards=DISCARD, others=HAND[:2], share=4.25, other_share=5.5, exact=4.0, other_exact=4.75),
    Reason(Because.CRIB_AGAINST, cards=DISCARD, others=HAND[:2], share=1.1, exact=1.4, dealer=True),
    Reason(Because.CRIB_AGAINST, cards=DISCARD, others=HAND[:2], share=1.1, exact=1.4),
    Reason(Because.PLAY_PEGS, cards=HAND, others=(*HAND[:3], *DISCARD[:1]), share=1.3),
]


def test_every_kind_has_a_sample_here():
    assert {r.kind for r in SAMPLES} == set(Because)


@pytest.mark.parametrize("reason", SAMPLES, ids=repr)
def test_each_reason_has_words_in_english_and_its_own_in_german(reason):
    english, german = reason_words(reason, EN), reason_words(reason, DE)
    assert_said_apart(english, german)


def test_one_hint_in_english_and_german_in_one_process():
    hand, pile = parse_cards(["9C", "3D", "AH"]), parse_cards(["10S", "JD"])
    view = PlayView(hand, pile, tuple(c for c in DECK if c not in (*hand, *pile)), 4, need=121, opponent_need=121)
    advice = hint(view)
    assert advice.reasons[0] == Reason(Because.PEGS, count=29, points=3)  # facts, no words
    assert advice.reasons[1].kind is Because.RISK and advice.reasons[1].card == Card.parse("AH")
    english, german = hint_words(advice, EN), hint_words(advice, DE)
    assert english.startswith("Play the nine (9): it pegs 3 now; it keeps the ace back: the count is 20, and on the "
                              "ace your opponent would peg 1.6 on average; over the rest of the play it is worth 3.5 "
                              "more than the ace.")
    assert german.startswith("Die beste Karte ist die Neun (9): sie bringt jetzt 3; so bleibt das Ass auf der Hand")
    assert "beim Stand von 20 brächte das Ass deinem Gegner im Schnitt 1,6" in german and "the " not in german
    assert i18n.current() is EN  # rendering German switched nothing


def test_one_discard_review_and_one_lay_away_in_english_and_german_in_one_process():
    cards = parse_cards(["5H", "5D", "6C", "JS", "4S", "QD"])
    analysis = analyse(cards, dealer=True)
    worse = DiscardReview("Ann", analysis, analysis.split_for(parse_cards(["5H", "5D"])))
    assert (review_words(worse, EN), review_words(worse, DE)) == (
        "That is not the optimal discard: your discard averages 11.0 points; keeping 4-5-5-6 and laying away J-Q "
        "averages 20.7 (9.7 more).",
        "Das ist nicht der beste Abwurf: deiner bringt im Schnitt 11,0 Punkte; 4-5-5-6 behalten und J-Q abwerfen "
        "bringt 20,7 (9,7 mehr).")
    best = DiscardReview("Ann", analysis, analysis.best)
    assert review_words(best, EN) == ("Best discard: Keep 4-5-5-6: it averages 16.0 in hand (12 to 24); J-Q in your "
                                      "crib adds 4.7; net +20.7.")
    german = review_words(best, DE)
    assert german == "Bester Abwurf: " + analysis_words(analysis, None, DE) and "netto +20,7" in german
    explained = explain_lay_away(parse_cards(["5H", "10H", "2C", "2S", "9C", "7H"]), Seat(dealer=True))
    assert [r.kind for r in explained.reasons] == [Because.CRIB_AGAINST, Because.PLAY_PEGS] and not explained.agree
    english, german = lay_away_words(explained, EN), lay_away_words(explained, DE)
    assert english.startswith("Lay away 2-2 and keep 5-7-9-10. The pro keeps 5-7-9-10 over 2-2-7-9, the "
                              "expected-value choice (0.50 more in hand and crib by the exact count): the crib is "
                              "yours: with the cards he likely lays away, 2-2 makes it only 1.1 less than 5-10")
    assert german.startswith("Lege 2-2 ab und behalte 5-7-9-10.") and "0,50" in german and "the " not in german



REFUSALS = [  # one refusal of each kind
    AdviceRefusal(Unadvised.NO_VARIANT, "seven", ("two", "three")),
    AdviceRefusal(Unadvised.DEAL_SIZE, "three", count=5, total=6), AdviceRefusal(Unadvised.FIVE_CARDS),
    AdviceRefusal(Unadvised.DEAL, total=4), AdviceRefusal(Unadvised.CARD_TWICE),
    AdviceRefusal(Unadvised.NOT_A_DISCARD, cards=(C5, H9), others=HAND), AdviceRefusal(Unadvised.SAY_GO),
    *(AdviceRefusal(Unadvised.UNREADABLE, "/x/y.json", data=data, error="No such file or directory") for data in Data),
    *(AdviceRefusal(Unadvised.NOT_JSON, data=data, error="Expecting value: line 1 column 1 (char 0)") for data in Data),
    *(AdviceRefusal(Unadvised.NOT_IN_FORM, data=data, error="'counts'") for data in Data),
]


def test_every_refusal_kind_has_a_sample_here():
    assert {r.why for r in REFUSALS} == set(Unadvised)


@pytest.mark.parametrize("refusal", REFUSALS, ids=str)
def test_each_refusal_has_words_in_english_and_its_own_in_german(refusal):
    english, german = refusal_words(refusal, EN), refusal_words(refusal, DE)
    assert_said_apart(english, german)


def test_cards_the_advice_cannot_use_are_refused_with_facts_said_in_either_language():
    with pytest.raises(AdviceError) as raised:
        analyse(parse_cards(["5H", "5D", "6C", "JS"]), dealer=True)
    assert raised.value.refusal == AdviceRefusal(Unadvised.DEAL, total=4) and str(raised.value) == "deal: total=4"
    assert refusal_words(raised.value.refusal, EN) == ("a deal gives six cards (five in five-card or three-player "
                                                      "games); got 4")
    assert refusal_words(raised.value.refusal, DE).endswith("erhalten: 4")


@pytest.mark.parametrize(("load", "data"), [(model.load, Data.MODEL), (keeps.load, Data.KEEPS),
                                             (endgame.load, Data.ENDGAME)])
def test_a_data_file_of_the_advice_that_cannot_be_used_is_refused_with_facts(load, data, tmp_path):
    missing, garbled, shapeless = tmp_path / "missing.json", tmp_path / "garbled.json", tmp_path / "shapeless.json"
    garbled.write_text("{not json")
    shapeless.write_text('{"name": "mine"}')
    said = {}
    for path, why in ((missing, Unadvised.UNREADABLE), (garbled, Unadvised.NOT_JSON),
                      (shapeless, Unadvised.NOT_IN_FORM)):
        with pytest.raises(AdviceDataError) as raised:
            load(path)
        assert (raised.value.refusal.why, raised.value.refusal.data) == (why, data)
        said[why] = error_words(raised.value, EN), error_words(raised.value, DE)
        assert_said_apart(*said[why])
    assert said[Unadvised.UNREADABLE][0] == f"cannot read {DATA_WORDS[data]} {missing}: No such file or directory"
    assert said[Unadvised.NOT_JSON][0].endswith(f"build it again with `{BUILT_BY[data]}`")
    assert said[Unadvised.NOT_IN_FORM][1].endswith("erstelle die Datei neu")


def test_crib_advise_says_a_model_it_cannot_read_in_the_readers_language(tmp_path, capsys):
    args = ["advise", "5H", "5D", "6C", "JS", "4S", "QD", "--dealer", "--model", str(tmp_path / "none.json")]
    assert main([*args, "--lang", "de"]) == 2
    assert capsys.readouterr().err == f"crib advise: kann das Gegnermodell {tmp_path / 'none.json'} nicht lesen: " \
                                      "No such file or directory\n"


PACKAGE = Path(__file__).parents[2] / "companion"
WORDLESS = sorted([*(PACKAGE / "advice").glob("*.py"), PACKAGE / "stats.py"])


def words_made(source: str) -> list[str]:
    """What a module says in words of the catalog: each call of `_`, `N_`, `gettext` or `ngettext`."""
    return [ast.unparse(node) for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Call)
            and (node.func.id if isinstance(node.func, ast.Name) else
                 node.func.attr if isinstance(node.func, ast.Attribute) else "") in ("_", "N_", "gettext", "ngettext")]


@pytest.mark.parametrize("path", WORDLESS, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_the_advice_and_the_statistics_make_facts_not_words(path):
    assert words_made(path.read_text(encoding="utf-8")) == []


def said_raised(source: str) -> list[str]:
    """Each error of ours (not Python's own) raised with a sentence (a string or an f-string) for its reason."""
    return [ast.unparse(node) for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and node.exc.args
            and isinstance(node.exc.func, ast.Name) and not hasattr(builtins, node.exc.func.id)
            and (isinstance(node.exc.args[0], ast.JoinedStr) or isinstance(getattr(node.exc.args[0], "value", 0), str))]


@pytest.mark.parametrize("path", [*WORDLESS, PACKAGE / "play" / "computer.py"],
                         ids=lambda p: str(p.relative_to(PACKAGE)))
def test_the_advice_the_statistics_and_the_settings_raise_their_errors_with_typed_refusals(path):
    assert said_raised(path.read_text(encoding="utf-8")) == []


def test_the_scan_finds_errors_raised_with_words():
    assert said_raised('raise InputError(f"cannot read {what}")') == ['raise InputError(f\'cannot read {what}\')']
    assert said_raised('raise RuleError("no")\nraise ValueError(f"{n} characters")\nraise E(R(W.X))') == [
        "raise RuleError('no')"]


def test_the_scan_finds_words_made():
    assert words_made('raise E(_("no game {n}").format(n=n))') == ['_(\'no game {n}\')']
    assert words_made('lang.ngettext("a card", "{n} cards", n)') == ["lang.ngettext('a card', '{n} cards', n)"]
