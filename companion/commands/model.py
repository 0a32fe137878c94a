"""`crib model`: build the opponent model (the discards a sensible player makes) from random deals, or with
`--keeps` the table of what he keeps from every six ranks."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from companion.advice import keeps
from companion.advice.model_build import build, build_keeps
from companion.commands import CommandError
from companion.i18n import _


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "model", help=_("build the opponent model used by `crib advise --model` and the pro player"),
        description=_("Deal random six-card hands, let the standard player choose its discard as dealer and as "
        "pone, and count the pairs of ranks laid away. The shipped model companion/advice/opponent_model.json "
        "was built with: crib model --deals 20000 --seed 1 --out companion/advice/opponent_model.json; "
        "the table of keeps companion/advice/keeps.json with: crib model --keeps --out companion/advice/keeps.json"),
    )
    parser.add_argument("--deals", type=int, default=20000, help=_("random deals to count (default 20000)"))
    parser.add_argument("--seed", type=int, default=1, help=_("seed of the deals (default 1)"))
    parser.add_argument("--keeps", action="store_true",
                        help=_("instead, what the standard player keeps from every six ranks, as dealer and as pone "
                               "(the pro reads the opponent's hand from it)"))
    parser.add_argument("--out", default="-", metavar="FILE", help=_("where to write it (default standard output)"))
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.deals < 1:
        raise CommandError(_("--deals takes a number of at least 1"))
    total = len(keeps.sixes()) if args.keeps else args.deals
    step = max(1, total // 100)
    line = _("counted {done}/{total} sets of six ranks") if args.keeps else _("counted {done}/{total} deals")

    def progress(done: int) -> None:
        if sys.stderr.isatty() and (done % step == 0 or done == total):
            print("\r" + line.format(done=done, total=total), end="", file=sys.stderr, flush=True)

    data = build_keeps(progress) if args.keeps else build(args.deals, args.seed, progress)
    text = json.dumps(data, indent=1) + "\n"
    if sys.stderr.isatty():
        print(file=sys.stderr)
    if args.out == "-":
        sys.stdout.write(text)
        return 0
    try:
        with open(args.out, "w", encoding="utf-8") as out:
            out.write(text)
    except OSError as error:
        raise CommandError(_("cannot write {path}: {error}").format(path=args.out, error=error.strerror)) from None
    return 0
