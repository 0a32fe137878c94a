"""`crib stats`: per-player statistics over every game logged in a state directory, and a picture of them."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from companion.commands import CommandError
from companion.config import add_config_arguments, config_from_args
from companion.gamelog import games_dir
from companion.stats import DATABASE, PlayerStats, Report, history, picture


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "stats", help="per-player statistics over every logged game",
        description="Replay every game log in the state directory (games/NNNN.jsonl) and report, per player: "
        "games, wins, skunks given and taken, match points, average pegging, hand and crib per deal, the best "
        f"hand and, for coached deals, the points given away against the best discard. The history is kept in "
        f"{DATABASE} in the state directory and brought up to date from the logs, which are only read.",
    )
    parser.add_argument("--state-dir", type=Path, help="where the game logs live (default: [state] dir)")
    parser.add_argument("--json", action="store_true", help="print the statistics as JSON")
    parser.add_argument("--png", type=Path, metavar="FILE",
                        help="draw the latest game's score race and the per-player averages into FILE")
    add_config_arguments(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    state_dir = args.state_dir or Path(config_from_args(args).state.dir)
    if not games_dir(state_dir).is_dir():
        raise CommandError(f"no games in {state_dir}: play one with `crib sim --state-dir {state_dir}` or `crib run`")
    report = history(state_dir)
    for problem in report.problems:
        print(f"crib stats: {problem}", file=sys.stderr)
    if args.png is not None:
        try:
            picture(report).save(args.png, format="PNG")
        except (OSError, ValueError) as error:
            raise CommandError(f"cannot write the picture to {args.png} ({error}): give a writable .png path") from None
    if args.json:
        print(json.dumps(report.to_json(), ensure_ascii=False))
    else:
        print(describe(report))
    return 0


def describe(report: Report) -> str:
    lines = [f"{report.games} games finished, {report.unfinished} under way, in {report.logs} logs"]
    if report.players:
        lines.append(f"{'player':<10} {'games':>5} {'wins':>4} {'skunks':>7} {'match':>5} {'deals':>5} "
                     f"{'peg':>5} {'hand':>5} {'crib':>5} {'best':>4} {'lost':>5}")
        lines += [_row(p) for p in report.players]
        lines.append("skunks: given/taken; match: match points won; peg, hand, crib: averages a deal; "
                     "best: best hand; lost: average points given away by the discard (coached deals)")
    if report.latest is not None:
        race = report.latest
        final = ", ".join(f"{side} {score}" for side, score in zip(race.sides, race.scores[-1], strict=True))
        outcome = f"{race.winner} won" + (f" (a {race.skunk})" if race.skunk else "") if race.winner else "under way"
        lines.append(f"latest game: {race.log} game {race.game}, {len(race.scores) - 1} deals, {final}: {outcome}")
    return "\n".join(lines)


def _row(p: PlayerStats) -> str:
    def number(value: float | None) -> str:
        return "-" if value is None else f"{value:.2f}"

    return (f"{p.player[:10]:<10} {p.games:>5} {p.wins:>4} {f'{p.skunks_given}/{p.skunks_taken}':>7} "
            f"{p.match_points:>5} {p.deals:>5} {number(p.pegging):>5} {number(p.hand):>5} {number(p.crib):>5} "
            f"{'-' if p.best_hand is None else p.best_hand:>4} {number(p.discard_loss):>5}")
