"""`crib selfplay`: complete games between two computer levels, with wins, skunks and points per deal."""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from companion.advice import endgame
from companion.advice.players import LEVELS
from companion.advice.selfplay import deal_points, play_game, report, run
from companion.commands import CommandError


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "selfplay", help="play computer levels against each other",
        description="Play complete 121-point games between two computer levels (easy, standard, pro), the first "
        "dealer alternating, and report each side's wins with a 95% confidence interval, skunks and average "
        "points per deal in pegging (as dealer and as pone), hand and crib; and for the table, deals per game "
        "and the first dealer's win rate. The same seed plays the same games.",
    )
    parser.add_argument("--a", default="pro", choices=LEVELS, help="level of side A (default pro)")
    parser.add_argument("--b", default="standard", choices=LEVELS, help="level of side B (default standard)")
    parser.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the cards and choices (default 1)")
    parser.add_argument("--jobs", type=int, default=1, help="processes to play in (default 1)")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    parser.add_argument("--transcript", metavar="FILE",
                        help="write the first game's table inputs as JSON Lines (for `crib replay`)")
    parser.add_argument("--endgame", metavar="FILE",
                        help="instead of games, play --deals deals between standard players and write what a "
                        "deal brings (the table the pro plays to the score by) to FILE")
    parser.add_argument("--deals", type=int, default=20000, help="deals for --endgame (default 20000)")
    parser.set_defaults(func=selfplay)


def selfplay(args: argparse.Namespace) -> int:
    if args.games < 1 or args.jobs < 1 or args.deals < 1:
        raise CommandError("--games, --jobs and --deals take a number of at least 1")
    if args.endgame:
        return _endgame(args)
    if args.transcript:
        game = play_game((args.a, args.b), 0, f"{args.seed}:0", record=True)
        try:
            with open(args.transcript, "w", encoding="utf-8") as out:
                out.writelines(json.dumps(line) + "\n" for line in game.inputs)
        except OSError as error:
            raise CommandError(f"cannot write {args.transcript}: {error.strerror}") from None
    start = time.perf_counter()
    show = args.games >= 20 and sys.stderr.isatty()
    step = max(1, args.games // 100)

    def progress(done: int) -> None:
        if show and (done % step == 0 or done == args.games):
            print(f"\rplayed {done}/{args.games} games", end="", file=sys.stderr, flush=True)

    sides = run(args.a, args.b, args.games, args.seed, jobs=args.jobs, progress=progress)
    if show:
        print(file=sys.stderr)
    figures = report(sides, args.seed)
    figures["seconds"] = round(time.perf_counter() - start, 2)
    if args.json:
        print(json.dumps(figures))
        return 0
    print(f"{args.games} games, seed {args.seed}, first dealer alternating ({figures['seconds']} s)")
    for name in ("a", "b"):
        side: dict[str, Any] = figures[name]  # type: ignore[assignment]
        low, high = side["win_rate_95ci"]
        per = side["per_deal"]
        print(f"{name.upper()} {side['level']:<8} wins {side['wins']:>5} ({side['win_rate']:.1%}, 95% CI "
              f"{low:.1%} to {high:.1%}), skunks {side['skunks']}, double skunks {side['double_skunks']}; "
              f"per deal: pegging {per['pegging']:.2f} ({per['pegging_as_dealer']:.2f} as dealer, "
              f"{per['pegging_as_pone']:.2f} as pone), hand {per['hand']:.2f}, crib {per['crib']:.2f} (per crib)")
    table: dict[str, Any] = figures["table"]  # type: ignore[assignment]
    low, high = table["first_dealer_win_rate_95ci"]
    per, show = table["per_deal"], table["per_show"]
    print(f"Table: {table['deals_per_game']:.2f} deals a game; the first dealer wins {table['first_dealer_wins']} "
          f"({table['first_dealer_win_rate']:.1%}, 95% CI {low:.1%} to {high:.1%})")
    print(f"Table per deal: dealer pegs {per['pegging_as_dealer']:.2f}, pone {per['pegging_as_pone']:.2f}, "
          f"hand {per['hand']:.2f}, crib {per['crib']:.2f}; per show (leaving out the shows a game ended before): "
          f"hand {show['hand']:.2f}, crib {show['crib']:.2f}")
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
        raise CommandError(f"cannot write {args.endgame}: {error.strerror}") from None
    print(f"{args.deals} deals between standard players written to {args.endgame}")
    return 0
