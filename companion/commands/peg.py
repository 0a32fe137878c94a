"""`crib peg`: the pegging points of the last card, given the cards played since the count was last reset."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator, Sequence
from typing import Any, TextIO

from companion.commands import CommandError
from companion.commands.score import open_text, print_score, read_card
from companion.cribbage.cards import Card, parse_cards
from companion.cribbage.errors import CribbageError
from companion.cribbage.scoring import score_pegging


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "peg", help="points for the last card played",
        description="Points for the last card (fifteen, thirty-one, pairs, runs) given every card played since "
        "the count was last reset, in order: crib peg 9H 6D 8C 7S. Go and last-card points depend on what "
        "follows and are not included. With --batch, one sequence a line and one total a line.",
    )
    parser.add_argument("cards", nargs="*", metavar="CARD", help="the cards since the last reset, in order")
    parser.add_argument("--json", action="store_true", help="print the items as JSON")
    parser.add_argument("--batch", metavar="FILE", help="score every line of FILE ('-' for standard input)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.batch is not None:
        if args.cards:
            raise CommandError("give cards or --batch FILE, not both")
        with open_text(args.batch) as lines:
            sys.stdout.write("".join(f"{total}\n" for total in batch_totals(lines)))
        return 0
    cards = parse_cards(args.cards)
    if not cards:
        raise CommandError("give the cards played since the last reset, in order, like 9H 6D 8C 7S")
    _check_distinct(cards)
    print_score(score_pegging(cards), as_json=args.json)
    return 0


def _check_distinct(cards: Sequence[Card]) -> None:
    if len(set(cards)) != len(cards):
        twice = next(c for c in cards if cards.count(c) > 1)
        raise CommandError(f"{twice} is given twice: each card is played once")


def batch_totals(lines: TextIO) -> Iterator[int]:
    for number, line in enumerate(lines, 1):
        try:
            cards = [read_card(w) for w in line.replace(",", " ").split()]
            if not cards:
                raise CommandError("no cards: give the cards since the last reset, like 9H 6D 8C 7S")
            _check_distinct(cards)
            yield score_pegging(cards).total
        except (CribbageError, CommandError) as error:
            raise CommandError(f"line {number}: {error}") from None
