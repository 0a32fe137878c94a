"""`crib selfplay`: complete games between two computer levels, with wins, skunks and points per deal."""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from companion.advice import endgame
from companion.advice.players import MATCH_LEVELS
from companion.advice.selfplay import deal_points, duplicate, play_game, report, run
from companion.commands import CommandError
from companion.i18n import _, ngettext


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "selfplay", help=_("play computer levels against each other"),
        description=_("Play complete 121-point games between two computer levels (easy, standard, pro, and ev: the "
        "published expected-value strategy, as a measuring stick), the first "
        "dealer alternating, and report each side's wins (with a confidence interval of 95%), skunks and average "
        "points per deal in pegging (as dealer and as pone), hand and crib; and for the table, deals per game "
        "and the first dealer's win rate. The same seed plays the same games."),
    )
    parser.add_argument("--a", default="pro", choices=MATCH_LEVELS, help=_("level of side A (default pro)"))
    parser.add_argument("--b", default="standard", choices=MATCH_LEVELS, help=_("level of side B (default standard)"))
    parser.add_argument("--games", type=int, default=100, help=_("games to play (default 100)"))
    parser.add_argument("--seed", type=int, default=1, help=_("seed of the cards and choices (default 1)"))
    parser.add_argument("--jobs", type=int, default=1, help=_("processes to play in (default 1)"))
    parser.add_argument("--json", action="store_true", help=_("print the figures as one JSON object"))
    parser.add_argument("--transcript", metavar="FILE",
                        help=_("write the first game's table inputs as JSON Lines (for `crib replay`)"))
    parser.add_argument("--endgame", metavar="FILE",
                        help=_("instead of games, play --deals deals between standard players and write what a "
                        "deal brings (the table the pro plays to the score by) to FILE"))
    parser.add_argument("--deals", type=int, default=20000, help=_("deals for --endgame (default 20000)"))
    parser.add_argument("--duplicate", metavar="PAIRS", type=int,
                        help=_("instead of games, deal PAIRS deals twice, A holding each side's cards in turn, and "
                        "report A's points over B a pair (the cards' luck cancels: a change of strength shows in "
                        "far fewer deals)"))
    parser.set_defaults(func=selfplay)


def selfplay(args: argparse.Namespace) -> int:
    if args.games < 1 or args.jobs < 1 or args.deals < 1:
        raise CommandError(_("--games, --jobs and --deals take a number of at least 1"))
    if args.endgame:
        return _endgame(args)
    if args.duplicate is not None:
        return _duplicate(args)
    if args.transcript:
        game = play_game((args.a, args.b), 0, f"{args.seed}:0", record=True)
        try:
            with open(args.transcript, "w", encoding="utf-8") as out:
                out.writelines(json.dumps(line) + "\n" for line in game.inputs)
        except OSError as error:
            raise CommandError(_("cannot write {path}: {error}").format(path=args.transcript,
                                                                        error=error.strerror)) from None
    start = time.perf_counter()
    with _progress(args.games, _("played {done}/{total} games")) as progress:
        sides = run(args.a, args.b, args.games, args.seed, jobs=args.jobs, progress=progress)
    figures = report(sides, args.seed)
    figures["seconds"] = round(time.perf_counter() - start, 2)
    if args.json:
        print(json.dumps(figures))
        return 0
    print(ngettext("{games} game, seed {seed}, first dealer alternating ({seconds} s)",
                   "{games} games, seed {seed}, first dealer alternating ({seconds} s)", args.games).format(
        games=args.games, seed=args.seed, seconds=figures["seconds"]))
    for name in ("a", "b"):
        side = figures["a"] if name == "a" else figures["b"]
        low, high = side["win_rate_95ci"]
        print(_("{side} {level} wins {wins} ({rate:.1%}, 95% CI {low:.1%} to {high:.1%}), skunks {skunks}, "
                "double skunks {double}; per deal: pegging {pegging:.2f} ({pegging_as_dealer:.2f} as dealer, "
                "{pegging_as_pone:.2f} as pone), hand {hand:.2f}, crib {crib:.2f} (per crib)").format(
            side=name.upper(), level=f"{side['level']:<8}", wins=f"{side['wins']:>5}", rate=side["win_rate"], low=low,
            high=high, skunks=side["skunks"], double=side["double_skunks"], **side["per_deal"]))
    table = figures["table"]
    low, high = table["first_dealer_win_rate_95ci"]
    show = table["per_show"]
    print(_("Table: {deals:.2f} deals a game; the first dealer wins {wins} ({rate:.1%}, 95% CI {low:.1%} to "
            "{high:.1%})").format(deals=table["deals_per_game"], wins=table["first_dealer_wins"],
                                  rate=table["first_dealer_win_rate"], low=low, high=high))
    print(_("Table per deal: dealer pegs {pegging_as_dealer:.2f}, pone {pegging_as_pone:.2f}, hand {hand:.2f}, "
            "crib {crib:.2f}; per show (leaving out the shows a game ended before): hand {show_hand:.2f}, crib "
            "{show_crib:.2f}").format(show_hand=show["hand"], show_crib=show["crib"], **table["per_deal"]))
    return 0


@contextmanager
def _progress(total: int, line: str) -> Iterator[Callable[[int], None]]:
    """A line on a terminal saying how many of `total` are done (`line`, with {done} and {total}), every 1%."""
    show = total >= 20 and sys.stderr.isatty()
    step = max(1, total // 100)

    def progress(done: int) -> None:
        if show and (done % step == 0 or done == total):
            print("\r" + line.format(done=done, total=total), end="", file=sys.stderr, flush=True)

    yield progress
    if show:
        print(file=sys.stderr)


def _duplicate(args: argparse.Namespace) -> int:
    if args.duplicate < 2:
        raise CommandError(_("--duplicate takes a number of deal pairs of at least 2"))
    start = time.perf_counter()
    with _progress(args.duplicate, _("played {done}/{total} deal pairs")) as progress:
        nets = duplicate(args.a, args.b, args.duplicate, args.seed, jobs=args.jobs, progress=progress)
    mean, error = statistics.fmean(nets), statistics.stdev(nets) / math.sqrt(len(nets))
    figures = {"pairs": len(nets), "seed": args.seed, "a": args.a, "b": args.b, "net_per_pair": round(mean, 3),
               "standard_error": round(error, 3), "net_95ci": [round(mean - 1.96 * error, 3),
                                                               round(mean + 1.96 * error, 3)],
               "seconds": round(time.perf_counter() - start, 2)}
    if args.json:
        print(json.dumps(figures))
        return 0
    print(_("{pairs} deals each dealt twice, {a} holding each side's cards in turn against {b}, seed {seed} "
            "({seconds} s)").format(pairs=len(nets), a=args.a, b=args.b, seed=args.seed, seconds=figures["seconds"]))
    print(_("{a} nets {mean:+.2f} points a pair over {b} (standard error {error:.2f}, 95% CI {low:+.2f} to "
            "{high:+.2f})").format(a=args.a, b=args.b, mean=mean, error=error, low=mean - 1.96 * error,
                                   high=mean + 1.96 * error))
    return 0


def _endgame(args: argparse.Namespace) -> int:
    data = endgame.count(deal_points("standard", args.deals, args.seed),
                         f"standard-deals-{args.deals}-seed-{args.seed}")
    endgame.from_counts(data)  # the file must load
    try:
        with open(args.endgame, "w", encoding="utf-8") as out:
            json.dump(data, out, indent=1)
            out.write("\n")
    except OSError as error:
        raise CommandError(_("cannot write {path}: {error}").format(path=args.endgame, error=error.strerror)) from None
    print(ngettext("{deals} deal between standard players written to {path}",
                   "{deals} deals between standard players written to {path}", args.deals).format(
        deals=args.deals, path=args.endgame))
    return 0
