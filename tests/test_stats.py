"""Statistics from the game logs of a state directory, kept in SQLite; the logs stay the source of truth."""

from __future__ import annotations

import json
import random
import sqlite3
from contextlib import closing
from statistics import mean

import pytest

from companion import stats
from companion.advice.coach import review_discard
from companion.cli import main
from companion.cribbage.cards import Card
from companion.cribbage.game import apply, initial_state, replay
from companion.cribbage.transcript import GameInput, PegInput, StarterInput, UndoInput, read_transcript
from companion.i18n import language
from companion.stats import history
from companion.web import archive
from companion.words import schema
from companion.words.projection import state_json
from companion.words.statistics import ALL_HANDS, problem_words
from tests.cribbage.all_hands import RULES_TABLE
from tests.cribbage.dealer import play_game
from tests.facts import name
from tests.game_logs import SAMPLE, copy_sample, write_log

SAMPLE_CARD = Card.parse("5S")


def test_the_sample_game_to_121_figure_by_figure(tmp_path):
    # tests/data/games/two_121.jsonl (test_two_players_to_121): four deals of the same cards, Ann deals first.
    # Each deal the dealer pegs 9 (run 3, fifteen and run 5, last card 1), the pone 1 (the go); the pone's
    # hand is 29, the dealer's 24, the crib 2. Ann reaches 121 counting her 29 in deal 4, before Bob's hand.
    copy_sample(tmp_path, 1)
    report = history(tmp_path)
    assert (report.logs, report.games, report.unfinished, report.problems) == (1, 1, 0, ())
    ann, bob = report.players
    assert (ann.player, ann.games, ann.wins, ann.skunks_given, ann.skunks_taken, ann.match_points) == (
        "Ann", 1, 1, 0, 0, 1)  # Bob ended on 104: no skunk; a plain win is 1 match point
    assert (bob.games, bob.wins, bob.match_points) == (1, 0, 0)
    assert (ann.deals, ann.pegging) == (4, 5.0)  # 9 + 1 + 9 + 1 over four deals
    assert (bob.deals, bob.pegging) == (4, 5.0)  # 1 + 9 + 1 + 9
    assert (ann.hands, ann.hand, ann.best_hand) == (4, 26.5, 29)  # 24, 29, 24, 29 (the last one capped on the
    # board at 20 points, but the hand counts 29)
    assert (bob.hands, bob.hand) == (3, pytest.approx(82 / 3))  # 29, 24, 29: deal 4's hand never counted
    assert (ann.cribs, ann.crib, bob.cribs, bob.crib) == (2, 2.0, 1, 2.0)  # deal 4's crib never counted
    assert (ann.coached, ann.discard_loss) == (0, None)  # no hands entered: nothing to review
    race = report.latest
    assert race is not None and (race.log, race.game, race.target) == ("0001.jsonl", 1, 121)
    assert [(side["players"], side["name"], side["score"]) for side in race.sides] == [(["Ann"], "Ann", 121),
                                                                                       (["Bob"], "Bob", 104)]
    # after each deal: 35-30, 65-65, 100-95, then Bob pegs 9 to 104 and Ann counts out
    assert race.scores == ((0, 0), (35, 30), (65, 65), (100, 95), (121, 104))
    assert (race.winner, race.skunk) == (0, None)  # the index of Ann's side


def test_random_games_agree_with_their_replays_and_the_coach(tmp_path):
    expected_wins = {"Ann": 0, "Bob": 0}
    pegged = {"Ann": [], "Bob": []}
    losses = {"Ann": [], "Bob": []}
    for number, seed in enumerate((11, 12, 13), 1):
        inputs, final = play_game(random.Random(seed), "two", target=121, enter_hands=number == 2)
        write_log(tmp_path, number, inputs)
        assert final.winner is not None
        expected_wins[name(final.winner)] += 1
        for record in final.deals:
            if record.starter is None:
                continue
            for player, points in pegged.items():
                points.append(sum(e.points for e in final.events if e.deal == record.number
                                          and e.player == player and e.kind.in_play))
        state = initial_state()  # the coach's review at the table: when the starter is turned
        for inp in inputs:
            if isinstance(inp, StarterInput) and state.hands:
                losses["Ann"].append(review_discard(state, "Ann").loss)
                losses["Bob"].append(review_discard(state, "Bob").loss)
            state = apply(state, inp)
    report = history(tmp_path)
    assert report.games == 3 and report.problems == ()
    for stats_of in report.players:
        assert stats_of.wins == expected_wins[stats_of.player]
        assert stats_of.deals == len(pegged[stats_of.player])
        assert stats_of.pegging == pytest.approx(mean(pegged[stats_of.player]))
        assert stats_of.coached == len(losses[stats_of.player]) > 0
        assert stats_of.discard_loss == pytest.approx(mean(losses[stats_of.player]))
    assert report.latest is not None and report.latest.log == "0003.jsonl"


def test_an_acc_match_log_counts_each_game(tmp_path):
    game = GameInput(("Ann", "Bob"), match=True, match_scoring="acc")
    write_log(tmp_path, 1, [GameInput(("Ann", "Bob"), dealer="Ann", match=True, match_scoring="acc"),
                            PegInput("Bob", 80), PegInput("Ann", 121),  # Ann skunks Bob: 3 game points
                            game, PegInput("Bob", 121)])  # Bob double-skunks Ann: 3 in ACC scoring, not 4
    report = history(tmp_path)
    assert (report.games, report.unfinished) == (2, 0)
    for player in report.players:
        assert (player.games, player.wins, player.skunks_given, player.skunks_taken, player.match_points) == (
            2, 1, 1, 1, 3)
        assert (player.deals, player.pegging, player.hand) == (0, None, None)  # manual pegs only: no deal played
    race = report.latest  # the second game: pegged by hand within its first deal
    assert race is not None and (race.game, race.scores, race.winner, race.skunk) == (
        2, ((0, 0), (0, 121)), 1, "double skunk")


def test_torn_and_damaged_logs_are_named_and_the_others_still_count(tmp_path, monkeypatch):
    copy_sample(tmp_path, 1)
    torn = copy_sample(tmp_path, 2)
    torn.write_bytes(torn.read_bytes() + b'{"type":"pl')  # a write cut short by a crash
    damaged = copy_sample(tmp_path, 3)
    lines = damaged.read_text().splitlines()
    lines[5] = lines[5][:12]
    damaged.write_text("\n".join(lines) + "\n")
    refused = write_log(tmp_path, 4, [GameInput(("Ann", "Bob"), dealer="Ann"), StarterInput(SAMPLE_CARD),
                                      StarterInput(Card.parse("2C"))])
    undone = write_log(tmp_path, 5, [GameInput(("Ann", "Bob"), dealer="Ann"), UndoInput(), UndoInput()])
    before = {path: path.read_bytes() for path in (torn, damaged, refused, undone)}
    report = history(tmp_path)
    assert report.games == 2 and report.unfinished == 0  # 0001 and the part of 0002 before its torn line
    first, second, third, fourth = (problem_words(p, language("en")) for p in report.problems)
    assert "0002.jsonl" in first and "cut short" in first
    assert "0003.jsonl" in second and "line 6" in second and "left out" in second
    assert "0004.jsonl" in third and "the starter is already turned" in third and "left out" in third
    assert "0005.jsonl: line 3 holds an undo with no input before it to take back" in fourth  # the log's reader
    assert fourth.endswith("its games are left out of the statistics")  # refuses it: the statistics replay no more
    assert {path: path.read_bytes() for path in before} == before  # only read, never repaired
    monkeypatch.setattr(stats.GameLog, "open", lambda *_, **__: pytest.fail("a log read again"))
    again = history(tmp_path).problems  # still said on the next run, whole from the database
    assert [problem_words(p, language("de")) for p in again] == [problem_words(p, language("de"))
                                                                  for p in report.problems]


def test_a_moved_state_directory_names_its_damaged_log_where_it_is_now(tmp_path):
    before, after = tmp_path / "before", tmp_path / "after"
    torn = copy_sample(before, 1)
    torn.write_bytes(torn.read_bytes() + b'{"type":"pl')
    (problem,) = history(before).problems
    assert str(torn) in problem_words(problem, language("en"))
    before.rename(after)  # the database moves with the logs, their sizes and times unchanged
    (problem,) = history(after).problems
    said = problem_words(problem, language("en"))
    assert str(after / "games" / "0001.jsonl") in said and str(before) not in said


def test_a_database_that_kept_only_the_problems_kinds_is_rebuilt_with_their_facts(tmp_path):
    torn = copy_sample(tmp_path, 1)
    torn.write_bytes(torn.read_bytes() + b'{"type":"pl')
    stat = torn.stat()
    with closing(sqlite3.connect(tmp_path / stats.DATABASE)) as old, old:  # schema 6: a log's problems by kind
        old.execute("CREATE TABLE logs (path TEXT PRIMARY KEY, size INTEGER, mtime_ns INTEGER, problems TEXT)")
        old.execute("INSERT INTO logs VALUES (?, ?, ?, ?)", (torn.name, stat.st_size, stat.st_mtime_ns, '["noted"]'))
        old.execute("PRAGMA user_version = 6")
    report = history(tmp_path)
    assert report.games == 1  # the log is read again: the old database knew only its problem's kind
    (problem,) = report.problems
    assert "0001.jsonl: line " in problem_words(problem, language("en")) and "cut short" in problem_words(
        problem, language("en"))


OLD_PROBLEMS = {  # what the first schema 7 kept of a log's problems: a bare list, before the path they name
    "0002.jsonl": [{"kind": "unreadable", "finding": {"kind": "lone_undo", "path": "{dir}/0002.jsonl", "line": 3,
                                                      "facts": {}}}],
    "0003.jsonl": [{"kind": "unreadable", "finding": {
        "kind": "refused", "path": "{dir}/0003.jsonl", "line": 3, "facts": {
            "input": '{"type":"starter","card":"2C"}', "why": {"refusal": {
                "why": "starter_turned", "card": "5H", "prompt": {
                    "wanted": "play", "players": ["Bob"], "count": 0, "dealer": "Ann", "counting": None,
                    "again": False, "winner": None, "won": 0, "others": [], "skunk": None}}}}}}]}


def old_database(state_dir, problems, version):
    """The statistics' database as an older version kept it: the logs' rows as `problems` holds them (by the
    logs' sizes and times now, so they are taken as they stand), and a game of a log that no longer holds it."""
    with closing(sqlite3.connect(state_dir / stats.DATABASE)) as old, old:
        old.executescript(stats.SCHEMA)
        for path in sorted((state_dir / "games").glob("*.jsonl")):
            kept = json.dumps(problems.get(path.name, [])).replace("{dir}", str(path.parent))
            old.execute("INSERT INTO logs VALUES (?, ?, ?, ?)",
                        (path.name, path.stat().st_size, path.stat().st_mtime_ns, kept))
        old.execute("INSERT INTO games VALUES ('0001.jsonl', 1, '[]', 121, 1, 0, NULL, NULL, '{}')")
        old.execute(f"PRAGMA user_version = {version}")


def test_statistics_kept_by_the_first_schema_7_are_read_again_from_the_logs_and_said(tmp_path):
    # Trouble.REFUSED and Why.LONE_UNDO were never kept by a schema 7 (the log's reader refused those lines
    # first: "unreadable", as below), but its first days kept the problems without the path they name
    copy_sample(tmp_path, 1)
    write_log(tmp_path, 2, [GameInput(("Ann", "Bob"), dealer="Ann"), UndoInput(), UndoInput()])
    write_log(tmp_path, 3, [GameInput(("Ann", "Bob"), dealer="Ann"), StarterInput(Card.parse("5H")),
                            StarterInput(Card.parse("2C"))])
    old_database(tmp_path, OLD_PROBLEMS, 7)
    report = history(tmp_path)
    assert (report.logs, report.games) == (3, 1) and [p.player for p in report.players] == ["Ann", "Bob"]
    second, third = (problem_words(p, language("de")) for p in report.problems)
    assert "0002.jsonl: Zeile 3 enthält ein Zurücknehmen" in second and "0003.jsonl: Zeile 3 enthält" in third
    assert main(["stats", "--state-dir", str(tmp_path)]) == 0  # `crib stats` too: no traceback


def test_a_kept_problem_this_version_cannot_read_back_has_its_log_read_again(tmp_path, monkeypatch):
    copy_sample(tmp_path, 1)
    write_log(tmp_path, 2, [GameInput(("Ann", "Bob"), dealer="Ann"), UndoInput(), UndoInput()])
    unknown = {"0001.jsonl": {"read": "{dir}/0001.jsonl", "problems": []},  # as this version keeps them
               "0002.jsonl": {"read": "{dir}/0002.jsonl", "problems": [{"kind": "refused", "log": "0002.jsonl"}]}}
    old_database(tmp_path, unknown, stats.SCHEMA_VERSION)
    read = []
    real = stats.read_log
    monkeypatch.setattr(stats, "read_log", lambda path: read.append(path.name) or real(path))
    (problem,) = history(tmp_path).problems
    assert read == ["0002.jsonl"] and "line 3 holds an undo" in problem_words(problem, language("en"))


def test_the_database_follows_the_logs_and_is_rebuilt_when_lost(tmp_path, monkeypatch):
    read = []
    real = stats.read_log
    monkeypatch.setattr(stats, "read_log", lambda path: read.append(path.name) or real(path))
    copy_sample(tmp_path, 1)
    second = copy_sample(tmp_path, 2)
    report = history(tmp_path)
    assert sorted(read) == ["0001.jsonl", "0002.jsonl"] and report.games == 2
    read.clear()
    assert history(tmp_path) == report and read == []  # nothing changed: nothing replayed
    with second.open("a") as log:
        log.write('{"type":"game","players":["Ann","Bob"],"dealer":"Bob"}\n{"type":"peg","player":"Bob","points":7}\n')
    report = history(tmp_path)
    assert read == ["0002.jsonl"] and (report.games, report.unfinished) == (2, 1)
    second.unlink()
    read.clear()
    report = history(tmp_path)
    assert read == [] and (report.logs, report.games, report.unfinished) == (1, 1, 0)
    (tmp_path / stats.DATABASE).write_bytes(b"not a database at all" * 100)
    assert history(tmp_path) == report and read == ["0001.jsonl"]  # rebuilt from the logs


def test_the_picture_compares_against_the_rules_table_of_all_hands():
    assert {score: hand for score, (hand, _) in RULES_TABLE.items()} == ALL_HANDS
    assert sum(ALL_HANDS.values()) == 12_994_800


def test_the_statistics_json_names_sides_as_the_projection_does_and_follows_its_schema(tmp_path, capsys):
    copy_sample(tmp_path, 1)  # Ann wins 121 to 104
    inputs, _final = play_game(random.Random(5), "two", target=121)
    write_log(tmp_path, 2, inputs[:len(inputs) // 2])  # a game under way: no winner yet
    assert main(["stats", "--state-dir", str(tmp_path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    schema.validate("stats", data)
    finished, under_way = data["chosen"]
    assert finished["sides"] == state_json(replay(read_transcript(SAMPLE.read_text().splitlines())))["sides"]
    assert finished["winner"] == 0 and finished["sides"][0]["name"] == "Ann"
    assert under_way["winner"] is None and not under_way["finished"]
    assert data["latest"]["sides"] == finished["sides"] and data["latest"]["winner"] == 0
    overview = archive.overview(tmp_path, language("en"))
    schema.validate("stats-overview", json.loads(json.dumps(overview)))
    assert [(g["sides"], g["winner"]) for g in overview["games_list"]] == [
        (g["sides"], g["winner"]) for g in data["chosen"]]
    for broken in ({**data, "latest": {**data["latest"], "winner": "Ann"}},
                   {**data, "chosen": [{**finished, "sides": ["Ann", "Bob"]}]}):
        with pytest.raises(schema.Invalid, match="not a stats payload"):
            schema.validate("stats", broken)
