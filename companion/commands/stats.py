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
from companion.i18n import N_, _
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
        raise CommandError(_("no games in {state_dir}: play one with `crib sim --state-dir {state_dir}` or `crib run`")
                           .format(state_dir=state_dir))
    report = history(state_dir)
    for problem in report.problems:
        print(_("crib stats: {problem}").format(problem=problem), file=sys.stderr)
    if args.png is not None:
        try:
            picture(report).save(args.png, format="PNG")
        except (OSError, ValueError) as error:
            raise CommandError(_("cannot write the picture to {png} ({error}): give a writable .png path")
                               .format(png=args.png, error=error)) from None
    if args.json:
        print(json.dumps(report.to_json(), ensure_ascii=False))
    else:
        print(describe(report))
    return 0


def describe(report: Report) -> str:
    lines = [_("{games} games finished, {unfinished} under way, in {logs} logs")
             .format(games=report.games, unfinished=report.unfinished, logs=report.logs)]
    if report.players:
        heads = [_(head) for head in COLUMNS]
        widths = [max(len(head), least) for head, least in zip(heads, WIDTHS, strict=True)]
        lines.append(" ".join(head.ljust(w) if i == 0 else head.rjust(w)
                              for i, (head, w) in enumerate(zip(heads, widths, strict=True))))
        lines += [_row(p, widths) for p in report.players]
        lines.append(_("skunks: given/taken; match: match points won; peg, hand, crib: averages a deal; "
                       "best: best hand; lost: average points given away by the discard (coached deals)"))
    if report.latest is not None:
        race = report.latest
        final = ", ".join(f"{side} {score}" for side, score in zip(race.sides, race.scores[-1], strict=True))
        outcome = (_("under way") if not race.winner else _("{winner} won").format(winner=race.winner) if not race.skunk
                   else _("{winner} won (a double skunk)").format(winner=race.winner) if race.skunk == "double skunk"
                   else _("{winner} won (a skunk)").format(winner=race.winner))
        lines.append(_("latest game: {log} game {game}, {deals} deals, {final}: {outcome}")
                     .format(log=race.log, game=race.game, deals=len(race.scores) - 1, final=final, outcome=outcome))
    return "\n".join(lines)


# The table's columns (catalog messages) and their least widths; a longer heading widens its column.
COLUMNS = (N_("player"), N_("games"), N_("wins"), N_("skunks"), N_("match"), N_("deals"), N_("peg"), N_("hand"),
           N_("crib"), N_("best"), N_("lost"))
WIDTHS = (10, 5, 4, 7, 5, 5, 5, 5, 5, 4, 5)


def _row(p: PlayerStats, widths: list[int]) -> str:
    def number(value: float | None) -> str:
        return "-" if value is None else f"{value:.2f}"

    values = [p.games, p.wins, f"{p.skunks_given}/{p.skunks_taken}", p.match_points, p.deals, number(p.pegging),
             number(p.hand), number(p.crib), "-" if p.best_hand is None else p.best_hand, number(p.discard_loss)]
    cells = [str(c).rjust(w) for c, w in zip(values, widths[1:], strict=True)]
    return " ".join([p.player[:10].ljust(widths[0]), *cells])
