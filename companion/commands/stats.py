"""`crib stats`: per-player statistics over the games logged in a state directory, and a picture of them."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from companion.commands import CommandError, game_state_dir, need_extra
from companion.config import add_config_arguments
from companion.i18n import N_, Language, _, current
from companion.stats import DATABASE, PlayerStats, Report, Selection, history
from companion.words.statistics import game_line, game_name, problem_words

LISTED = 10  # games listed by number (the latest ones)


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "stats", help=_("per-player statistics over every logged game"),
        description=_("Replay every game log in the state directory (games/NNNN.jsonl) and report, per player: "
                      "games, wins, skunks given and taken, match points, average pegging, hand and crib per deal, "
                      "the best hand and, for coached deals, the points given away against the best discard. The "
                      "history is kept in {database} in the state directory and brought up to date from the logs, "
                      "which are only read. Without --state-dir: the board's games, else crib sim's.")
        .format(database=DATABASE),
    )
    parser.add_argument("--state-dir", type=Path, help=_("where the game logs live (default: [state] dir, else "
                        "crib sim's when the board has no game)"))
    parser.add_argument("--game", type=int, metavar="N", help=_("only game N (the numbers `crib stats` lists)"))
    parser.add_argument("--last", type=int, metavar="N", help=_("only the last N games"))
    parser.add_argument("--player", metavar="NAME", help=_("only the games NAME played, and only NAME's figures"))
    parser.add_argument("--json", action="store_true", help=_("print the statistics as JSON"))
    parser.add_argument("--png", type=Path, metavar="FILE",
                        help=_("draw the latest game's score race, the averages per player and their hand scores "
                        "against all hands into FILE (needs the [plots] extra: matplotlib)"))
    add_config_arguments(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.game is not None and args.last is not None:
        raise CommandError(_("give --game N or --last N, not both"))
    if args.png is not None:
        need_extra("plots", "matplotlib")
    state_dir = game_state_dir(args, "stats")
    report = history(state_dir, Selection(args.game, args.last, args.player))  # cli.py says a SelectionError
    for problem in report.problems:
        print(_("crib stats: {problem}").format(problem=problem_words(problem, current())), file=sys.stderr)
    if args.png is not None:
        from companion.words.statistics import draw

        try:
            draw(report, args.png, current())
        except (OSError, ValueError) as error:
            raise CommandError(_("cannot write the picture to {png} ({error}): give a writable .png path")
                               .format(png=args.png, error=error)) from None
    if args.json:
        print(json.dumps(report.to_json(current()), ensure_ascii=False))
    else:
        print(describe(report, current()))
    return 0


def describe(report: Report, lang: Language) -> str:
    """The statistics as `crib stats` prints them, in `lang`."""
    _ = lang.gettext
    games = lang.ngettext("{count} game finished", "{count} games finished", report.games).format(count=report.games)
    logs = lang.ngettext("{count} log", "{count} logs", report.logs).format(count=report.logs)
    lines = [_("{games}, {unfinished} under way, in {logs}").format(games=games, unfinished=report.unfinished,
                                                                      logs=logs)]
    if report.players:
        heads = [_(head) for head in COLUMNS]
        widths = [max(len(head), least) for head, least in zip(heads, WIDTHS, strict=True)]
        lines.append(" ".join(head.ljust(w) if i == 0 else head.rjust(w)
                              for i, (head, w) in enumerate(zip(heads, widths, strict=True))))
        lines += [_row(p, widths, lang) for p in report.players]
        lines.append(_("skunks: given/taken; match: match points won; peg, hand, crib: averages a deal; "
                       "best: best hand; lost: average points given away by the discard (coached deals)"))
    if len(report.chosen) > 1:
        earlier = len(report.chosen) - LISTED
        lines.append(_("games (--game N, --last N):") + (_(" {earlier} earlier not listed").format(earlier=earlier)
                                                         if earlier > 0 else ""))
        lines += [f"  {game_line(game, lang)}" for game in report.chosen[-LISTED:]]
    if report.latest is not None:
        race = report.latest
        deals = len(race.scores) - 1
        after = lang.ngettext("after {deals} deal", "after {deals} deals", deals).format(deals=deals)
        lines.append((_("latest game: {name}, {after}") if race.winner is None
                      else _("latest game: {name}, {after}: {winner} won")
                      ).format(name=game_name(race, lang), after=after,
                               winner=None if race.winner is None else race.sides[race.winner]["name"]))
    return "\n".join(lines)


# The table's columns (catalog messages) and their least widths; a longer heading widens its column.
COLUMNS = (N_("player"), N_("games"), N_("wins"), N_("skunks"), N_("match"), N_("deals played"), N_("peg"),
           N_("hand"), N_("crib"), N_("best"), N_("lost"))
WIDTHS = (10, 5, 4, 7, 5, 5, 5, 5, 5, 4, 5)


def _row(p: PlayerStats, widths: list[int], lang: Language) -> str:
    def number(value: float | None) -> str:
        return "-" if value is None else lang.decimal(value, 2)

    values = [p.games, p.wins, f"{p.skunks_given}/{p.skunks_taken}", p.match_points, p.deals, number(p.pegging),
             number(p.hand), number(p.crib), "-" if p.best_hand is None else p.best_hand, number(p.discard_loss)]
    cells = [str(c).rjust(w) for c, w in zip(values, widths[1:], strict=True)]
    return " ".join([p.player[:10].ljust(widths[0]), *cells])
