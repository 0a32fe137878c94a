"""A tournament night over a real Mosquitto: the director seats rounds with `crib club round`, each board is
told its players, plays whole games to 121, and the ACC standings, the scorecards, the CSV, the playoffs and
the page all agree with a count by hand of the boards' own games."""

from __future__ import annotations

import csv
import io
import itertools
import os
from pathlib import Path

import pytest

from companion.cli import main
from companion.club.mosquitto import Mosquitto, wait_for
from companion.club.tournament import Scoring
from companion.cribbage.game import GameState
from companion.words.phrases import message_words
from tests.club.night_fixtures import Board
from tests.club.scoreboard import Scoreboard
from tests.web.chromium import keep

CLUB = "weekend"
PLAYERS = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"]  # the fewest without a bye whose top quarter is a final
BOARDS = ["t1", "t2", "t3"]
GAMES = 60.0
"""Seconds the scoreboard may take to follow a round's games (hundreds of messages each) on a loaded machine: the
broker's usual 10 s timed out at a load average of 13."""
ARTEFACTS = Path(os.environ.get("CRIB_ARTEFACTS", Path(__file__).parents[2] / "test-artefacts")) / "club"


def hand_count(finals: list[GameState]) -> dict[str, dict[str, int]]:
    """The ACC card by hand: a win 2, 3 when the loser is short of 91; spread 121 less the loser's score."""
    rows = {p: {"points": 0, "wins": 0, "games": 0, "spread": 0, "skunks": 0} for p in PLAYERS}
    for state in finals:
        winner = state.winner
        assert winner is not None
        [loser] = [side for side in state.sides if side != winner]
        short = 121 - state.scores[loser]
        [won], [lost] = winner.players, loser.players
        rows[won]["points"] += 3 if state.scores[loser] < 91 else 2
        rows[won]["skunks"] += state.scores[loser] < 91
        rows[won]["wins"] += 1
        rows[won]["spread"] += short
        rows[lost]["spread"] -= short
        rows[won]["games"] += 1
        rows[lost]["games"] += 1
    return rows


def crib(*args: str, night: Path) -> int:
    return main(["club", *args, "--club", CLUB, "--night-dir", str(night)])


@pytest.mark.slow
def test_a_tournament_night_of_whole_games_matches_a_hand_count_and_the_bracket_follows_it(tmp_path, capsys,
                                                                                             request):
    broker = Mosquitto(tmp_path / "broker", CLUB, ["scoreboard", *BOARDS])
    broker.start()
    scoreboard = Scoreboard(broker, tmp_path / "night", club=CLUB, scoring=Scoring("acc"))
    boards = {b: Board(b, tmp_path / b, broker.broker(b), CLUB) for b in BOARDS}
    finals: list[GameState] = []
    try:
        for number in (1, 2):
            if number == 1:
                assert crib("round", "--players", ",".join(PLAYERS), "--boards", ",".join(BOARDS),
                            night=tmp_path / "night") == 0
            else:
                assert crib("round", night=tmp_path / "night") == 0  # the night keeps the field and the boards
            printed = capsys.readouterr().out
            seats = scoreboard.get("/api/round")
            assert seats["round"] == number
            wait_for(lambda n=number: all(b.publisher.seat and b.publisher.seat.round == n for b in boards.values()),
                     "every board to hear its seat")
            told = {name: message_words(seat) for name, board in boards.items()
                    if (seat := board.publisher.take_seat()) is not None}
            for seat in seats["tables"]:  # each board's screen says its table and players, as printed
                words = f"Table {seat['table']}: {seat['players'][0]} against {seat['players'][1]}"
                assert told[seat["board"]] == words
                assert f"Table {seat['table']} ({seat['board']}): {seat['players'][0]} against " in printed
            for seat in seats["tables"]:
                finals.append(boards[seat["board"]].play_game(10 * number + seat["table"], tuple(seat["players"])))
            wait_for(lambda: scoreboard.night.games_finished() == len(finals), "the round's games", timeout=GAMES)

        expected = hand_count(finals)
        page = scoreboard.get("/api/standings")
        assert {r["player"]: {k: r[k] for k in expected["Ann"]} for r in page} == expected
        ranked = sorted(page, key=lambda r: r["rank"])
        assert [r["rank"] for r in page] == [r["rank"] for r in ranked]
        assert all((a["points"], a["wins"], a["spread"]) >= (b["points"], b["wins"], b["spread"])
                   for a, b in itertools.pairwise(ranked))

        exported = tmp_path / "standings.csv"
        assert crib("export", "--standings", str(exported), "--games", str(tmp_path / "g.csv"),
                    night=tmp_path / "night") == 0  # the night's own scoring: ACC
        rows = list(csv.DictReader(io.StringIO(exported.read_text())))
        assert [(r["player"], int(r["points"]), int(r["spread"]), int(r["rank"])) for r in rows] == [
            (r["player"], r["points"], r["spread"], r["rank"]) for r in page]
        assert len((tmp_path / "g.csv").read_text().splitlines()) == 1 + len(finals)
        for row in page:  # each card adds up to the player's line in the standings
            card = scoreboard.get(f"/api/scorecard?player={row['player']}")["lines"]
            assert [line["round"] for line in card] == [1, 2]
            assert (card[-1]["total"], card[-1]["total_spread"]) == (row["points"], row["spread"])

        assert crib("playoffs", "--best-of", "3", night=tmp_path / "night") == 0
        printed = capsys.readouterr().out
        top = [r["player"] for r in page[:2]]  # the top quarter of six, rounded up
        assert f"seed 1: {top[0]}\n  seed 2: {top[1]}" in printed
        wait_for(lambda: scoreboard.night.bracket() is not None, "the bracket")
        wait_for(lambda: boards["t1"].publisher.seat is not None and set(boards["t1"].publisher.seat.players) == set(
            top), "the final's seat at t1")  # the boards are told the playoffs' seats, not round 2's
        wins = {top[0]: 0, top[1]: 0}
        seed = 100
        while max(wins.values()) < 2:  # the final, best of three, on board t1
            final = boards["t1"].play_game(seed, (top[0], top[1]))
            assert final.winner is not None
            wins[final.winner.players[0]] += 1
            seed += 1
            wait_for(lambda: scoreboard.night.games_finished() == len(finals) + sum(wins.values()), "a final game",
                     timeout=GAMES)
        champion = max(wins, key=lambda p: wins[p])
        [[match]] = scoreboard.get("/api/bracket")["rounds"]
        assert match["winner"] == champion and sorted(match["wins"]) == sorted(wins.values())
        assert scoreboard.get("/api/standings") == page  # the playoffs are not qualifying games
        assert crib("playoffs", night=tmp_path / "night") == 0
        printed = capsys.readouterr().out
        assert f"{champion} wins the final" in printed and "goes through" not in printed

        if Path("/usr/bin/chromium").exists():
            sync_api = pytest.importorskip("playwright.sync_api")
            browser = request.getfixturevalue("browser")  # the tests' shared Chromium (tests/conftest.py)
            view = browser.new_page(viewport={"width": 1280, "height": 900})
            view.goto(f"http://127.0.0.1:{scoreboard.port}/?card={top[0]}")
            body = view.locator("#standings tbody tr")
            sync_api.expect(body).to_have_count(len(PLAYERS))
            for i, row in enumerate(rows):  # the page's standings are the CSV's
                sync_api.expect(body.nth(i)).to_have_text(" ".join(
                    [row["rank"], row["player"], row["points"], row["wins"], row["games"],
                     f"{int(row['spread']):+d}".replace("+0", "0"), row["skunks"]]).replace(" ", ""))
            sync_api.expect(view.locator(".entrant.won")).to_contain_text(champion)
            sync_api.expect(view.locator("#card-lines tbody tr")).to_have_count(2)
            keep(view, ARTEFACTS / "tournament.png", full_page=True)
            browser.close()
    finally:
        for board in boards.values():
            board.close()
        scoreboard.stop()
        broker.stop()
