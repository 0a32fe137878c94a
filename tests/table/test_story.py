"""The story of the table: what each entry told, as typed facts (a card played by whom and its count, a go, each
score with its running total, an undo and what it took back, a refusal's code, whose turn it is), and the same
facts as JSON for the page, without a word."""

from __future__ import annotations

import json
import random
from pathlib import Path

from companion.base.clock import ManualClock
from companion.boards import load_layout
from companion.cribbage.cards import Card
from companion.cribbage.facts import ScoreKind, Wanted
from companion.cribbage.transcript import GameInput, PlayInput
from companion.entry import Entry
from companion.gamelog import GameLog
from companion.table import Outcome, Table
from companion.table.story import (
    DealBegun,
    Fact,
    GameStarted,
    Go,
    Played,
    Refused,
    Scored,
    StarterTurned,
    TakenBack,
    Turn,
    Undone,
    story_json,
)
from tests.golden import GOLDEN

DEAL = [line for line in (GOLDEN / "deal.txt").read_text().splitlines() if line and not line.startswith("#")]


def table(tmp_path: Path) -> Table:
    return Table(GameLog.open(tmp_path / "0001.jsonl"), setup=GameInput(("Ann", "Bob"), dealer="Ann"),
                 layout=load_layout("two-track-121"), clock=ManualClock())


def enter(board: Table, *texts: str) -> list[Outcome]:
    outcomes = []
    for text in texts:
        board.emit(Entry(text, "terminal"))
        outcomes += board.drain()
    return outcomes


def moves(facts: list[Fact]) -> list[Fact]:
    return [fact for fact in facts if not isinstance(fact, Turn)]


def test_the_start_tells_the_game_its_dealer_and_whose_turn(tmp_path):
    board = table(tmp_path)
    facts = [fact for _n, fact in board.story.facts]
    assert facts[:2] == [GameStarted(("Ann", "Bob"), 1), DealBegun(1, "Ann")]
    assert isinstance(facts[-1], Turn) and facts[-1].prompt.wanted is Wanted.STARTER


def test_the_play_is_told_card_by_card_with_the_counts_the_goes_and_each_score_with_its_total(tmp_path):
    board = table(tmp_path)
    told = [fact for outcome in enter(board, *DEAL[:9]) for fact in outcome.told]
    assert moves(told)[0] == StarterTurned(Card.parse("5C"), "Ann")
    played = [(f.player, str(f.card), f.count) for f in told if isinstance(f, Played)]
    assert played == [("Bob", "10C", 10), ("Ann", "4C", 14), ("Bob", "5H", 19), ("Ann", "6D", 25),
                      ("Bob", "5D", 30), ("Ann", "7S", 7)]
    assert [f.player for f in told if isinstance(f, Go)] == ["Ann", "Bob"]
    scored = [(f.event.kind, f.event.player, f.event.points, f.total) for f in told if isinstance(f, Scored)]
    assert scored == [(ScoreKind.PEGGING, "Ann", 3, 3), (ScoreKind.GO, "Bob", 1, 1)]
    assert board.state.scores == {board.state.side_of["Ann"]: 3, board.state.side_of["Bob"]: 1}
    after_card = enter(board, DEAL[9])[0].told  # Bob's jack: whose turn it is after it
    assert isinstance(after_card[0], Played) and isinstance(after_card[-1], Turn)
    assert after_card[-1].prompt.players == ("Ann",)


def test_an_undo_tells_what_it_took_back_and_a_refusal_its_code(tmp_path):
    board = table(tmp_path)
    enter(board, *DEAL[:3])
    undone = enter(board, "undo")[0]
    assert moves(list(undone.told)) == [Undone((TakenBack(PlayInput(Card.parse("4C")), "Ann"),))]
    refused = enter(board, "9C", "QQ")  # Ann's 9C, then a word that is not a card
    assert isinstance(refused[0].told[0], Played)
    assert refused[1].error and refused[1].told == (Refused("entry"),)
    over = enter(board, "KH", "KS")  # 10 + 9 + 10 = 29, then a king would make 39
    assert over[-1].error and isinstance(over[-1].told[0], Refused) and over[-1].told[0].code == "rule"
    assert board.presenter.picture.recent == ()  # a refusal leaves the screen's scores as they were


def test_the_story_as_json_has_no_words_and_says_who_played_and_the_running_total(tmp_path):
    board = table(tmp_path)
    enter(board, *DEAL[:4])
    story = story_json(board.story, board.state.sides)
    text = json.dumps(story)
    assert story["count"] == board.story.count == story["facts"][-1]["n"]
    played = [f for f in story["facts"] if f["type"] == "played"]
    assert [(f["player"], f["card"]["code"], f["count"]) for f in played] == [
        ("Bob", "10C", 10), ("Ann", "4C", 14), ("Bob", "5H", 19)]
    turn = story["facts"][-1]
    assert turn["type"] == "turn" and turn["awaited"]["wanted"] == "play" and turn["awaited"]["players"] == ["Ann"]
    assert "Bob to play" not in text and "Count" not in text
    enter(board, DEAL[4])  # Ann's 6D: a run of three, 3 points
    scored = [f for f in story_json(board.story, board.state.sides)["facts"] if f["type"] == "scored"]
    assert scored == [{"n": scored[0]["n"], "type": "scored", "kind": "pegging", "side": 0, "player": "Ann",
                       "points": 3, "total": 3, "claimed": None,
                       "items": [{"kind": "run", "cards": ["4C", "5H", "6D"], "points": 3}]}]


def test_the_pages_snapshot_carries_the_story_of_a_game_against_the_computer(tmp_path):
    from companion.play.computer import Settings
    from companion.web.snapshot import snapshot
    from tests.web.computer_games import Game

    game = Game(tmp_path, Settings("Guest", ("pro",), seed=21))
    rng = random.Random(2)
    while len(game.table.state.played) < 4:
        game.settle()
        game.person_moves(rng)
    shot = json.loads(json.dumps(snapshot(game.table, game.computer)))
    facts = shot["story"]["facts"]
    assert [f["n"] for f in facts] == list(range(facts[0]["n"], shot["story"]["count"] + 1))
    played = [(f["player"], f["card"]["code"]) for f in facts if f["type"] == "played"]
    assert played == [(player, str(card)) for player, card in game.table.state.played]  # who played each card
    cut = [f for f in facts if f["type"] == "cut"]
    assert facts[0]["n"] == 1 and {f["player"] for f in cut} == {"Guest", "Pro"}
    assert any(f["type"] == "laid_away" and f["player"] == "Pro" and f["cards"] == 2 for f in facts)
