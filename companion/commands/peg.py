"""`crib peg`: the pegging points of the last card, given the cards played since the count was last reset."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from companion.commands import CommandError
from companion.commands.score import add_card_arguments, print_score, read_card, write_batch
from companion.cribbage.cards import Card, parse_cards
from companion.cribbage.scoring import score_pegging
from companion.i18n import _


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "peg", help=_("points for the last card played"),
        description=_("Points for the last card (fifteen, thirty-one, pairs, runs) given every card played since "
        "the count was last reset, in order: crib peg 9H 6D 8C 7S. Go and last-card points depend on what "
        "follows and are not included. With --batch, one sequence a line and one total a line."),
    )
    add_card_arguments(parser, _("the cards since the last reset, in order"))
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.batch is not None:
        return write_batch(args, line_total)
    cards = parse_cards(args.cards)
    if not cards:
        raise CommandError(_("give the cards played since the last reset, in order, like 9H 6D 8C 7S"))
    _check_distinct(cards)
    print_score(score_pegging(cards), as_json=args.json)
    return 0


def _check_distinct(cards: Sequence[Card]) -> None:
    if len(set(cards)) != len(cards):
        twice = next(c for c in cards if cards.count(c) > 1)
        raise CommandError(_("{twice} is given twice: each card is played once").format(twice=twice))


def line_total(line: str) -> int:
    """The points for the last card of one sequence a line (`--batch`)."""
    cards = [read_card(w) for w in line.replace(",", " ").split()]
    if not cards:
        raise CommandError(_("no cards: give the cards since the last reset, like 9H 6D 8C 7S"))
    _check_distinct(cards)
    return score_pegging(cards).total
