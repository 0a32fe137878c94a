"""The statistics page's data, from the SQLite history `companion.stats` keeps beside the logs.

`overview` is `crib stats --json` with the list of games (for the score race of any game) and the costliest
discards (the cards laid away beside the best ones); `hand_scores` is a
player's hands by score beside all 12,994,800 hands of RULES.md (the exact distribution); `game` replays one
game of a log deal by deal with the engine. Log names come from the request only to be looked up among the
names the games folder holds.
"""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

from companion.cribbage.rules import skunk_lines
from companion.gamelog import GameLog, GameLogError, games_dir
from companion.i18n import Language
from companion.stats import DATABASE, games_of, history
from companion.words.contract import (
    BestHandJSON,
    CostlyDiscardJSON,
    DrawnCardJSON,
    GameJSON,
    HandScoresJSON,
    OverviewGameJSON,
    OverviewJSON,
    SideJSON,
)
from companion.words.projection import state_json
from companion.words.statistics import ALL_HANDS, game_name


def _query(state_dir: Path, sql: str, args: tuple[object, ...] = ()) -> list[tuple[Any, ...]]:  # SQLite's rows
    with closing(sqlite3.connect(f"file:{state_dir / DATABASE}?mode=ro", uri=True)) as connection:
        return connection.execute(sql, args).fetchall()


def overview(state_dir: Path, lang: Language) -> OverviewJSON:
    """Per-player figures and every game with its race (the score of each side after each deal), the games
    named in `lang`."""
    found = history(state_dir)
    report = found.to_json(lang)
    named = {(g.log, g.game): g for g in found.chosen}
    races: dict[tuple[str, int], dict[int, list[int]]] = {}
    for log, game, side, score in _query(state_dir, "SELECT log, game, side, score FROM race "
                                                    "ORDER BY log, game, deal"):
        races.setdefault((log, game), {}).setdefault(side, []).append(score)
    games: list[OverviewGameJSON] = []
    for log, game, sides_json, target, finished, winner, skunk in _query(
            state_dir, "SELECT log, game, sides, target, finished, winner, skunk FROM games ORDER BY log, game"):
        sides: list[SideJSON] = json.loads(sides_json)
        shown: OverviewGameJSON = {
            "log": log, "game": game, "sides": sides, "target": target, "skunk_lines": list(skunk_lines(target)),
            "finished": bool(finished), "winner": winner, "skunk": skunk,
            "race": [races.get((log, game), {}).get(i, [0]) for i in range(len(sides))]}
        chosen = named.get((log, game))
        if chosen is not None:
            listed = chosen.to_json(lang)
            shown |= {"name": listed["name"], "played": listed["played"], "time": listed["time"],
                      "levels": listed["levels"]}
        games.append(shown)
    best: list[BestHandJSON] = [
        {"player": player, "hand": hand, "log": log, "game": game, "deal": deal,
         "name": game_name(named[log, game], lang) if (log, game) in named else f"{log} {game}"}
        for player, hand, log, game, deal in _query(
            state_dir, "SELECT player, hand, log, game, deal FROM deals WHERE hand IS NOT NULL "
                       "ORDER BY hand DESC, log, game, deal LIMIT 5")]
    discards: list[CostlyDiscardJSON] = [
        {"player": player, "loss": round(loss, 2), "laid": _cards(laid), "best": _cards(better), "log": log,
         "game": game, "deal": deal}
        for player, loss, laid, better, log, game, deal in _query(
            state_dir, "SELECT player, discard_loss, laid, best, log, game, deal FROM deals "
                       "WHERE discard_loss > 0.005 ORDER BY discard_loss DESC, log, game, deal LIMIT 5")]
    return {**report, "games_list": games, "best_hands": best, "costly_discards": discards}


def _cards(codes: str) -> list[DrawnCardJSON]:
    """Cards kept as codes, as the page draws them."""
    return [{"code": code, "suit": code[-1]} for code in json.loads(codes)]


def hand_scores(state_dir: Path, player: str) -> HandScoresJSON:
    """How often `player`'s hands scored each points, beside the share of all hands with that score."""
    history(state_dir)
    counts = dict.fromkeys(range(30), 0)
    for hand, n in _query(state_dir, "SELECT hand, COUNT(*) FROM deals WHERE player = ? AND hand IS NOT NULL "
                                     "GROUP BY hand", (player,)):
        counts[int(hand)] = n
    total = sum(ALL_HANDS.values())
    return {"player": player, "hands": sum(counts.values()), "counts": [counts[s] for s in range(30)],
            "all": [ALL_HANDS.get(s, 0) / total for s in range(30)]}


def game(state_dir: Path, name: str, number: int, lang: Language) -> GameJSON | None:
    """One game of a log: the projection of its end (projection.state_json), with each side's score after each
    deal (`race`, in the order of `sides`), or None; its words in `lang`."""
    folder = games_dir(state_dir)
    found = next((path for path in folder.glob("*.jsonl") if path.name == name), None) if folder.is_dir() else None
    if found is None:
        return None
    try:
        games = games_of(GameLog.open(found, repair=False))
    except (GameLogError, OSError):
        return None
    if not 1 <= number <= len(games):
        return None
    state = games[number - 1]
    race = [[0] for _ in state.sides]
    for record in state.deals:
        for side, scores in zip(state.sides, race, strict=True):
            scores.append(scores[-1] + sum(e.points for e in state.events
                                           if e.deal == record.number and e.side == side))
    named = next((g for g in history(state_dir).chosen if (g.log, g.game) == (name, number)), None)
    found_game: GameJSON = {"log": name, "game": number, "state": state_json(state, lang=lang), "race": race}
    if named is not None:
        day, _at, time = named.played.partition("T")
        found_game["name"], found_game["played"], found_game["time"] = game_name(named, lang), day, time
        found_game["levels"] = dict(named.levels)
    return found_game
