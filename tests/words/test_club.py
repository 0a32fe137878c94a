"""The club's refusals, a card's outcome and the director's decisions are codes and facts; their words are made by
one renderer handed a language, so one process says each in English and in German at once."""

from __future__ import annotations

import pytest

from companion.club.night import Night
from companion.club.pairing import Seat
from companion.club.refused import Refused
from companion.i18n import language
from companion.words.club import ENTERED, REFUSED, Why, decision_words, entry_words, refusal_words

EN, DE = language("en"), language("de")
REFUSALS = [  # each code with its facts, and its English words as the night said them before they moved here
    (Why.RULES, {"rule": "best_of", "kept": 3, "given": 5},
     "this night keeps best of 3, set when it began: 5 is not this night's (leave the option out)"),
    (Why.RULES, {"rule": "skunks_before_spread", "kept": True, "given": False},
     "this night keeps skunks before spread yes, set when it began: no is not this night's (leave the option out)"),
    (Why.SELF, {"player": "Ann"}, "a player cannot play themselves: name the opponent"),
    (Why.SCORE, {"score": 120, "against": 80, "target": 121},
     "a finished game is 121 to less: the scores 120 and 80 are not"),
    (Why.NO_ROUND, {"round": 7, "rounds": [1, 2]}, "there is no round 7: the rounds drawn are 1, 2"),
    (Why.NO_ROUND, {"round": 1, "rounds": []}, "there is no round 1: the rounds drawn are none"),
    (Why.CLOSED, {"round": 1}, "round 1 is closed: the director takes no more cards for it"),
    (Why.NOT_IN_FIELD, {"player": "Zed", "field": ["Ann", "Bob"]}, "Zed is not in tonight's field (Ann, Bob)"),
    (Why.NOT_SEATED, {"round": 1, "player": "Ann", "opponent": "Bob", "where": "played", "other": "Cat",
                      "table": 2},
     "Ann and Bob were not seated together in round 1: Ann played Cat at table 2"),
    (Why.NOT_SEATED, {"round": 1, "player": "Gus", "opponent": "Ann", "where": "bye"},
     "Gus and Ann were not seated together in round 1: Gus had a bye"),
    (Why.NOT_SEATED, {"round": 1, "player": "Gus", "opponent": "Ann", "where": "unseated"},
     "Gus and Ann were not seated together in round 1: Gus was not seated"),
    (Why.ON_BOARD, {"board": "t1", "player": "Ann", "opponent": "Bob", "round": 1},
     "board t1 has reported the game of Ann and Bob in round 1: it needs no card"),
    (Why.NOT_WAITING, {"item": "t1/0001/1"}, "no game 't1/0001/1' waits for a decision"),
    (Why.UNFOLLOWED, {"item": "t1/0001/1"},
     "a result that does not follow the rules cannot be approved: the board must replay the game"),
    (Why.WHICH_CARD, {"cards": ["Hal", "Gus"]}, "say whose card counts: Hal or Gus"),
    (Why.DRAWN, {}, "the playoffs are drawn already"),
    (Why.TOO_FEW, {}, "the playoffs need at least two players in the standings"),
    (Why.MOVE, {"move": 4, "most": 3}, "--move 4: the moving side moves 1 to 3 tables a round"),
    (Why.ROUND_RANGE, {"movement": "acc", "players": 8, "tables": 4, "move": 2, "rounds": 2},
     "8 players at 4 tables moving 2 a round meet again after 2 rounds: choose a round from 1 to 2"),
    (Why.ROUND_RANGE, {"movement": "round-robin", "players": 4, "rounds": 3},
     "4 players play 3 rounds: choose a round from 1 to 3"),
    (Why.FEW_PLAYERS, {}, "a round needs at least two players"),
    (Why.SAME_NAME, {}, "two players have the same name: give each a different name"),
    (Why.NAME_LENGTH, {"most": 80}, "a player's name must be 1 to 80 characters"),
    (Why.FEW_BOARDS, {"games": 2, "boards": 1},
     "2 games need 2 boards, but 1 are named: name more boards with --boards"),
    (Why.BOARD_TWICE, {}, "a board is named twice in --boards"),
    (Why.SCORING, {"name": "elo", "choices": ["match", "acc"]}, "scoring 'elo': choose match or acc"),
    (Why.BEST_OF, {"best_of": 4}, "best of 4: a match is best of 1, 3, 5 or 7 games"),
    (Why.BAD_ID, {"what": "board", "value": "t 1"},
     "board 't 1' is not a usable id: use 1 to 40 letters, digits, '-', '_' or '.', starting with a letter or digit"),
    (Why.TAKEN_NAME, {"board": "scoreboard"},
     "board 'scoreboard': that name is the scoreboard's or Home Assistant's; name the board otherwise (like t1)"),
    (Why.NO_DIRECTOR, {}, "this scoreboard takes no cards or decisions: start it with --credentials (or "
                          "--director-token-file)"),
    (Why.TOKEN, {}, "the director's token is needed (director.token from `crib club credentials`)"),
    (Why.BODY, {"asked": "object"}, "send a JSON object"),
    (Why.BODY, {"asked": "card"},
     "a card needs round, player, opponent (names), score and against (whole numbers)"),
    (Why.BODY, {"asked": "decision"}, "a decision needs the game's id and approve: true or false"),
    (Why.NO_PLAYER, {"player": "Zed"}, "no player 'Zed' tonight: ask for one of the standings' players"),
    (Why.NO_BOARD, {"board": "x", "boards": ["two-track-121", "three-track-121"]},
     "no board 'x': the boards are two-track-121, three-track-121"),
    (Why.OTHER_PAGE, {}, "this scoreboard's live updates are for its own page"),
]


def test_every_refusal_is_sampled():
    sampled = {f"{why}/{facts.get('where') or facts.get('asked') or facts.get('movement')}"
               if why in (Why.NOT_SEATED, Why.BODY, Why.ROUND_RANGE) else why for why, facts, _words in REFUSALS}
    assert sampled == set(REFUSED) and {why for why, _facts, _words in REFUSALS} == set(Why)


@pytest.mark.parametrize(("why", "facts", "english"), REFUSALS, ids=lambda v: str(v)[:30])
def test_a_refusal_is_said_in_english_and_in_german_by_one_process(why, facts, english):
    assert refusal_words(why, facts, EN) == english
    german = refusal_words(why, facts, DE)
    assert german != english and "{" not in german
    names = [v for v in facts.values() if isinstance(v, str) and v[:1].isupper() and v in english]
    assert all(name in german for name in names)  # the players' names are the same in every language
    assert refusal_words(why, facts, EN) == english  # German did not stay switched on


def test_the_nights_refusals_carry_a_code_and_facts_and_no_words():
    night = Night()
    night.set_round(1, [Seat(1, "t1", ("Ann", "Cat"))], [])
    with pytest.raises(Refused) as refused:
        night.enter(1, "Ann", "Bob", 121, 90)
    assert refused.value.why is Why.NOT_SEATED
    assert refused.value.facts == {"round": 1, "player": "Ann", "opponent": "Bob", "where": "played", "other": "Cat",
                                   "table": 1}
    assert refusal_words(refused.value.why, refused.value.facts, DE) == (
        "Ann und Bob saßen in Runde 1 nicht zusammen: Ann spielte an Tisch 1 gegen Cat")
    assert refused.value.args == ("not_seated", refused.value.facts)  # no words in the value: its code and facts


def test_a_cards_outcome_and_a_decision_are_said_in_both_languages():
    night = Night()
    night.set_round(1, [Seat(1, "t1", ("Ann", "Bob"))], [])
    first = night.enter(1, "Ann", "Bob", 121, 100)
    differs = night.enter(1, "Bob", "Ann", 121, 60)
    agrees = night.enter(1, "Bob", "Ann", 100, 121)
    said = {e.status: entry_words(e.status, e.round, e.card, e.theirs, EN) for e in (first, differs, agrees)}
    assert said == {
        "first": "Ann's card for round 1 is in; it counts when Bob enters the same game",
        "disagreement": "Bob says Bob 121, Ann 60; Ann says Ann 121, Bob 100: the cards differ, so the game does not "
                        "count. It waits for the director, or for both cards to agree",
        "counts": "round 1: Bob 100, Ann 121, entered by both: it counts"}
    late = entry_words("late", 1, first.card, None, EN)
    assert late == ("round 1: Ann 121, Bob 100: entered after the playoffs were drawn, it waits for the director "
                    "(it never moves the bracket)")
    for status in ENTERED:
        german = entry_words(status, 1, differs.card, differs.theirs, DE)
        assert german != entry_words(status, 1, differs.card, differs.theirs, EN) and "{" not in german
    assert decision_words(False, "t1/0001/1", None, EN) == "rejected: the game t1/0001/1 does not count"
    assert decision_words(True, "hand/0001/7", "Ann", EN) == "approved: Ann's card counts"
    assert decision_words(True, "t1/0001/1", None, EN) == "approved: the game t1/0001/1 counts"
    assert {decision_words(True, "x", card, DE) for card in (None, "Ann")} | {decision_words(False, "x", None, DE)} \
        == {"angenommen: das Spiel x zählt", "angenommen: die Karte von Ann zählt", "abgelehnt: das Spiel x zählt "
                                                                                     "nicht"}
