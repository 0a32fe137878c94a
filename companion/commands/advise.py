"""`crib advise`: the exact discard analysis of a dealt hand, every way to lay away ranked by expected net points."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any, TextIO

from companion.advice.discard import DEALS, Analysis, analyse
from companion.advice.model import ROLES, UNIFORM, OpponentModel, load
from companion.base.textlines import open_text
from companion.commands import CommandError
from companion.cribbage.cards import parse_cards
from companion.cribbage.errors import CribbageError
from companion.i18n import N_, Language, _, current
from companion.words.review import analysis_words
from companion.words.saying import error_words


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "advise", help=_("which cards to lay away to the crib"),
        description=_("Rank every way to lay away from a dealt hand by expected net points: the average hand over "
        "every starter (with its minimum and maximum) plus the expected crib for the dealer, minus it for the "
        "pone. The crib is exact over every pair the opponent could lay away and every starter: uniformly by "
        "default, or weighted by the opponent model with --model. With --batch, read one hand a line "
        "('5H 5D 6C JS 4S QD dealer', optionally a variant word after the role) and print one JSON object a line."),
    )
    parser.add_argument("cards", nargs="*", metavar="CARD", help=_("the dealt cards: six (five in five-card or "
                        "three-player games)"))
    role = parser.add_mutually_exclusive_group()
    role.add_argument("--dealer", action="store_true", help=_("the crib is yours"))
    role.add_argument("--pone", action="store_true", help=_("the crib is your opponent's"))
    parser.add_argument("--variant", choices=tuple(DEALS), help=_("for five-card hands: five-card (two to the "
                        "crib) or three / four players (one to the crib)"))
    parser.add_argument("--model", nargs="?", const="shipped", metavar="FILE",
                        help=_("weight the opponent's discard by the opponent model (the shipped one, or FILE "
                        "written by `crib model`)"))
    parser.add_argument("--json", action="store_true", help=_("print the analysis as JSON"))
    parser.add_argument("--batch", metavar="FILE", help=_("advise every line of FILE ('-' for standard input)"))
    parser.set_defaults(func=advise)


def chosen_model(args: argparse.Namespace) -> OpponentModel:
    if args.model is None:
        return UNIFORM
    return load(None if args.model == "shipped" else Path(args.model))


def advise(args: argparse.Namespace) -> int:
    model = chosen_model(args)
    if args.batch is not None:
        if args.cards:
            raise CommandError(_("give cards or --batch FILE, not both"))
        with open_text(args.batch) as lines:
            return batch(lines, model, sys.stdout)
    if not args.cards:
        raise CommandError(_("give the dealt cards, like: crib advise 5H 5D 6C JS 4S QD --dealer"))
    if not (args.dealer or args.pone):
        raise CommandError(_("say whose crib it is: --dealer (yours) or --pone (your opponent's)"))
    analysis = analyse(parse_cards(args.cards), dealer=args.dealer, variant=args.variant, model=model)
    if args.json:
        print(json.dumps(analysis_json(analysis, current()), ensure_ascii=False))
    else:
        print_analysis(analysis)
    return 0


def print_analysis(analysis: Analysis) -> None:
    role = _("dealer (your crib)") if analysis.dealer else _("pone (your opponent's crib)")
    print(_("{cards} as {role}; crib model: {model}").format(cards=" ".join(str(c) for c in analysis.cards),
                                                             role=role, model=analysis.model))
    width = 3 * len(analysis.best.keep) + 2
    keep, discard, hand, least, most, crib, net = (_(head) for head in HEADS)
    print(f"{keep:<{width}}{discard:<10}{hand:>7}{least:>5}{most:>5}{crib:>8}{net:>8}")
    sign = 1 if analysis.dealer else -1
    lang = current()
    for split in analysis.splits:
        print(f"{' '.join(str(c) for c in split.keep):<{width}}{' '.join(str(c) for c in split.discard):<10}"
              f"{lang.decimal(split.hand, 2):>7}{split.hand_min:>5}{split.hand_max:>5}"
              f"{lang.decimal(sign * split.crib, 2, sign=True):>8}{lang.decimal(split.net, 2):>8}")
    print(analysis_words(analysis, None, lang))


HEADS = (N_("keep"), N_("discard"), N_("hand"), N_("min"), N_("max"), N_("crib"), N_("net"))  # the table's columns


def analysis_json(analysis: Analysis, lang: Language) -> dict[str, object]:
    """The analysis as JSON, with its advice in words in `lang` before the splits."""
    facts = analysis.to_json()
    splits = facts.pop("splits")
    return {**facts, "advice": analysis_words(analysis, None, lang), "splits": splits}


def batch(lines: Iterable[str], model: OpponentModel, out: TextIO) -> int:
    """One JSON object per input line; a bad line gets an object with its error, and the exit status is 2."""
    status = 0
    for number, line in enumerate(lines, 1):
        words = line.split()
        if not words or words[0].startswith("#"):
            continue
        try:
            variant = role = None
            while words and (words[-1] in DEALS or words[-1].lower() in ROLES):
                word = words.pop()
                if word in DEALS:
                    variant = word
                else:
                    role = word.lower()
            if role is None:
                raise CommandError(_("end the line with the role, dealer or pone, like: 5H 5D 6C JS 4S QD dealer"))
            analysis = analyse(parse_cards(words), dealer=role == "dealer", variant=variant, model=model)
            out.write(json.dumps(analysis_json(analysis, current()), ensure_ascii=False) + "\n")
        except (CribbageError, CommandError) as error:
            said = error_words(error, current()) if isinstance(error, CribbageError) else str(error)
            out.write(json.dumps({"line": number, "error": said}) + "\n")
            status = 2
    return status
