"""The statistics keep facts; a game's line and a selection no game fits are said by one renderer handed a
language, so one process says them in English and in German at once."""

from __future__ import annotations

import json
from typing import get_args

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion import i18n
from companion.cribbage.cards import DECK
from companion.cribbage.facts import Place, Prompt, ScoreKind, Seen, Side, Wanted
from companion.cribbage.refusals import Act, Refusal, Why
from companion.cribbage.rules import SkunkName
from companion.cribbage.transcript import InputKind
from companion.i18n import language
from companion.stats import Game, Selection, SelectionError, history
from companion.words.contract import SideJSON
from companion.words.logbook import Finding, Found
from companion.words.statistics import (
    LogProblem,
    SelectionRefusal,
    Trouble,
    Unfit,
    game_line,
    game_name,
    problem_words,
    selection_words,
    when_words,
)
from tests.game_logs import copy_sample
from tests.words.bilingual import assert_said_apart

EN, DE = language("en"), language("de")


def side(name: str, score: int) -> SideJSON:
    return {"players": [name], "name": name, "score": score, "back_peg": 0, "match_points": 0}


SAMPLES = [  # one refusal of each kind
    SelectionRefusal(Unfit.NO_PLAYER, "Zed", ("Ann", "Bob")), SelectionRefusal(Unfit.NO_PLAYER, "Zed"),
    SelectionRefusal(Unfit.NO_GAME, game=3, count=1), SelectionRefusal(Unfit.NO_GAME, game=3, count=2),
    SelectionRefusal(Unfit.NOT_IN_GAME, "Ann", game=2), SelectionRefusal(Unfit.LAST, count=0),
]


def test_every_kind_has_a_sample_here():
    assert {r.why for r in SAMPLES} == set(Unfit)


@pytest.mark.parametrize("refusal", SAMPLES, ids=str)
def test_each_refusal_has_words_in_english_and_its_own_in_german(refusal):
    english, german = selection_words(refusal, EN), selection_words(refusal, DE)
    assert_said_apart(english, german)


def test_one_refusal_of_a_selection_in_english_and_german_in_one_process(tmp_path):
    copy_sample(tmp_path, 1)
    with pytest.raises(SelectionError) as raised:
        history(tmp_path, Selection(game=3))
    refusal = raised.value.refusal
    assert refusal == SelectionRefusal(Unfit.NO_GAME, game=3, count=1)  # facts, no words
    assert str(raised.value) == "no_game: game=3, count=1"  # for logs: the code and its facts
    assert selection_words(refusal, EN) == "no game 3: there is 1 game, numbered from 1 (`crib stats` lists them)"
    assert selection_words(refusal, DE).startswith("kein Spiel 3: es gibt 1 Spiel")
    with pytest.raises(SelectionError) as raised:
        history(tmp_path, Selection(player="Zed"))
    assert raised.value.refusal == SelectionRefusal(Unfit.NO_PLAYER, "Zed", ("Ann", "Bob"))
    assert selection_words(raised.value.refusal, EN) == "no player 'Zed' in these games: the players are Ann, Bob"


def test_one_game_line_in_english_and_german_in_one_process():
    game = Game(2, "0002.jsonl", 1, (side("Guest", 121), side("Pro", 80)), 0, "skunk", "2026-03-14T12:00",
                (("Pro", "pro"),), finished=True)
    assert (game_line(game, EN), game_line(game, DE)) == (
        "game 2: 2026-03-14 12:00, Guest 121 v Pro (pro) 80 (a skunk): Guest won",
        "Spiel 2: 14.03.2026 12:00, Guest 121 gegen Pro (Profi) 80 (Schneider): Guest gewann")
    under_way = Game(3, "0003.jsonl", 1, (side("Ann", 30), side("Bob", 41)), None, None)
    assert (game_name(under_way, EN), game_line(under_way, EN)) == ("Ann 30 v Bob 41 (under way)",
                                                                    "game 3: Ann 30 v Bob 41 (under way)")
    assert (when_words("2026-11-26T21:40", EN), when_words("2026-11-26T21:40", DE)) == ("2026-11-26 21:40",
                                                                                        "26.11.2026 21:40")
    assert i18n.current() is EN  # rendering German switched nothing


def test_a_log_left_out_is_kept_as_facts_and_said_in_either_language(tmp_path):
    copy_sample(tmp_path, 1)
    (tmp_path / "games" / "0002.jsonl").write_text("garbage\n")
    history(tmp_path, Selection())  # the problems are kept in the database ...
    (problem,) = history(tmp_path).problems  # ... and read back from it as facts, in no language
    assert problem.kind is Trouble.NOTED and problem.finding is not None and problem.finding.kind is Found.TORN
    assert "0002.jsonl: line 1 was cut short" in problem_words(problem, EN)  # the log reader's words, ...
    assert "0002.jsonl: Zeile 1 wurde durch einen Absturz abgeschnitten" in problem_words(problem, DE)  # ... either
    unreadable = LogProblem(Trouble.UNREADABLE, Finding(Found.NUL_LINE, "0003.jsonl", 6))
    assert (problem_words(unreadable, EN), problem_words(unreadable, DE)) == (
        "0003.jsonl: line 6 holds NUL bytes where a line was due (the disk lost a write). The game cannot be "
        "resumed past it: run `crib repair` (it keeps the lines before it and sets the rest aside in a file), or "
        "start a new game; its games are left out of the statistics",
        "0003.jsonl: Zeile 6 enthält NUL-Bytes, wo eine Zeile stehen sollte (der Datenträger hat einen "
        "Schreibvorgang verloren). Das Spiel kann nicht darüber hinaus fortgesetzt werden: starte `crib repair` (es "
        "behält die Zeilen davor und legt den Rest in einer Datei beiseite) oder beginne ein neues Spiel; seine "
        "Spiele bleiben in der Statistik außen vor")


# --- a log's problem kept whole: to JSON and back ------------------------------------------------------------

NAMES = st.text(min_size=1, max_size=8)  # a player's name is never empty
CARDS = st.sampled_from(DECK)
SIDES = st.builds(Side, st.lists(NAMES, min_size=1, max_size=2).map(tuple))
COUNTS = st.none() | st.integers(-200, 200)
PROMPTS = st.builds(Prompt, st.sampled_from(Wanted), st.lists(NAMES, max_size=3).map(tuple), COUNTS,
                    st.none() | NAMES, st.none() | st.sampled_from(ScoreKind), st.booleans(), st.none() | SIDES,
                    st.integers(0, 121), st.lists(st.integers(0, 121), max_size=3).map(tuple),
                    st.none() | st.sampled_from(get_args(SkunkName)))


def refusals(cause: st.SearchStrategy[Refusal | None]) -> st.SearchStrategy[Refusal]:
    return st.builds(
        Refusal, st.sampled_from(Why), card=st.none() | CARDS, cards=st.lists(CARDS, max_size=4).map(tuple),
        player=st.none() | NAMES, other=st.none() | NAMES, players=st.lists(NAMES, max_size=3).map(tuple),
        count=COUNTS, total=COUNTS, points=COUNTS, size=COUNTS, prompt=st.none() | PROMPTS,
        seen=st.none() | st.builds(Seen, CARDS, st.sampled_from(Place), st.none() | NAMES),
        act=st.none() | st.sampled_from(Act), counting=st.none() | st.sampled_from(ScoreKind),
        side=st.none() | SIDES, text=st.text(max_size=12), input=st.none() | st.sampled_from(get_args(InputKind)),
        field=st.text(max_size=8), names=st.lists(NAMES, max_size=3).map(tuple), cause=cause)


REFUSALS = st.recursive(refusals(st.none()), lambda inner: refusals(st.none() | inner), max_leaves=3)
FACTS = st.dictionaries(st.sampled_from(["error", "kept", "size", "name", "header", "input", "why", "version"]),
                        st.text(max_size=12) | st.integers() | REFUSALS, max_size=3)
FINDINGS = st.recursive(
    st.builds(Finding, st.sampled_from(Found), st.text(max_size=20), st.integers(0, 10**6), FACTS),
    lambda inner: st.builds(Finding, st.just(Found.RESUMED), st.text(max_size=20), st.integers(0, 10**6),
                            st.fixed_dictionaries({"damage": inner, "kept": st.integers(0, 99)})), max_leaves=2)


@given(st.builds(LogProblem, st.sampled_from(Trouble), FINDINGS))
def test_a_logs_problem_comes_back_from_json_equal(problem):
    assert LogProblem.from_json(json.loads(json.dumps(problem.to_json()))) == problem


def test_a_problem_comes_back_with_the_prompt_its_words_need():
    over = Refusal(Why.GAME_OVER, prompt=Prompt(Wanted.NEW_GAME, winner=Side(("Ann",)), won=121, others=(90,),
                                                skunk="skunk"))
    problem = LogProblem(Trouble.UNREADABLE, Finding(Found.REFUSED, "0005.jsonl", 4, {"input": '{"type": "go"}',
                                                                                        "why": over}))
    back = LogProblem.from_json(json.loads(json.dumps(problem.to_json())))
    for lang in (EN, DE):
        assert problem_words(back, lang) == problem_words(problem, lang)
    assert_said_apart(problem_words(back, EN), problem_words(back, DE))
