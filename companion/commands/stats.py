"""`crib stats`: per-player statistics over the games logged in a state directory, and a picture of them."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from companion.commands import CommandError, game_state_dir, need_extra
from companion.config import add_config_arguments
from companion.stats import DATABASE, PlayerStats, Report, Selection, SelectionError, history, plural

LISTED = 10  # games listed by number (the latest ones)


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "stats", help="per-player statistics over every logged game",
        description="Replay every game log in the state directory (games/NNNN.jsonl) and report, per player: "
        "games, wins, skunks given and taken, match points, average pegging, hand and crib per deal, the best "
        f"hand and, for coached deals, the points given away against the best discard. The history is kept in "
        f"{DATABASE} in the state directory and brought up to date from the logs, which are only read. "
        "Without --state-dir: the board's games, else crib sim's.",
    )
    parser.add_argument("--state-dir", type=Path, help="where the game logs live (default: [state] dir, else "
                        "crib sim's when the board has no game)")
    parser.add_argument("--game", type=int, metavar="N", help="only game N (the numbers `crib stats` lists)")
    parser.add_argument("--last", type=int, metavar="N", help="only the last N games")
    parser.add_argument("--player", metavar="NAME", help="only the games NAME played, and only NAME's figures")
    parser.add_argument("--json", action="store_true", help="print the statistics as JSON")
    parser.add_argument("--png", type=Path, metavar="FILE",
                        help="draw the latest game's score race, the averages per player and their hand scores "
                        "against all hands into FILE (needs the [plots] extra: matplotlib)")
    add_config_arguments(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.game is not None and args.last is not None:
        raise CommandError("give --game N or --last N, not both")
    if args.png is not None:
        need_extra("plots", "matplotlib")
    state_dir = game_state_dir(args, "stats")
    try:
        report = history(state_dir, Selection(args.game, args.last, args.player))
    except SelectionError as error:
        raise CommandError(str(error)) from None
    for problem in report.problems:
        print(f"crib stats: {problem}", file=sys.stderr)
    if args.png is not None:
        from companion.stats import draw

        try:
            draw(report, args.png)
        except (OSError, ValueError) as error:
            raise CommandError(f"cannot write the picture to {args.png} ({error}): give a writable .png path") from None
    if args.json:
        print(json.dumps(report.to_json(), ensure_ascii=False))
    else:
        print(describe(report))
    return 0


def describe(report: Report) -> str:
    lines = [f"{plural(report.games, 'game')} finished, {report.unfinished} under way, in {plural(report.logs, 'log')}"]
    if report.players:
        lines.append(f"{'player':<10} {'games':>5} {'wins':>4} {'skunks':>7} {'match':>5} {'deals':>5} "
                     f"{'peg':>5} {'hand':>5} {'crib':>5} {'best':>4} {'lost':>5}")
        lines += [_row(p) for p in report.players]
        lines.append("skunks: given/taken; match: match points won; peg, hand, crib: averages a deal; "
                     "best: best hand; lost: average points given away by the discard (coached deals)")
    if len(report.chosen) > 1:
        earlier = len(report.chosen) - LISTED
        lines.append("games (--game N, --last N):" + (f" {earlier} earlier not listed" if earlier > 0 else ""))
        lines += [f"  {game.describe()}" for game in report.chosen[-LISTED:]]
    if report.latest is not None:
        race = report.latest
        final = ", ".join(f"{side} {score}" for side, score in zip(race.sides, race.scores[-1], strict=True))
        outcome = f"{race.winner} won" + (f" (a {race.skunk})" if race.skunk else "") if race.winner else "under way"
        lines.append(f"latest game: {race.log} game {race.game}, {plural(len(race.scores) - 1, 'deal')}, {final}: "
                     f"{outcome}")
    return "\n".join(lines)


def _row(p: PlayerStats) -> str:
    def number(value: float | None) -> str:
        return "-" if value is None else f"{value:.2f}"

    return (f"{p.player[:10]:<10} {p.games:>5} {p.wins:>4} {f'{p.skunks_given}/{p.skunks_taken}':>7} "
            f"{p.match_points:>5} {p.deals:>5} {number(p.pegging):>5} {number(p.hand):>5} {number(p.crib):>5} "
            f"{'-' if p.best_hand is None else p.best_hand:>4} {number(p.discard_loss):>5}")
