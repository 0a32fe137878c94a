"""`crib score`: the count of a hand (or crib) and its starter as said, itemised, or a batch of totals."""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import Any, BinaryIO

from companion.commands import CommandError
from companion.cribbage.cards import Card, parse_cards
from companion.cribbage.errors import CardSyntaxError
from companion.cribbage.scoring import Score, score_show, show_total


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "score", help="count a hand or crib with its starter",
        description="Count a hand: four cards then the starter (5H 5D 5C JS 5S). Cards are typed like 5H, 10d, "
        "TH, ah or 5♥. With --batch, read one hand a line (an optional trailing word 'crib') and print one "
        "total a line, in order.",
    )
    add_card_arguments(parser, "four hand cards, then the starter")
    parser.add_argument("--crib", action="store_true", help="count as the crib (only a five-card flush counts)")
    parser.add_argument("--itemise", action="store_true", help="each fifteen, pair, run, flush and nobs on a line "
                        "of its own with its cards and points, before the count")
    parser.set_defaults(func=run)


def add_card_arguments(parser: argparse.ArgumentParser, cards_help: str) -> None:
    """The cards on the command line, or --batch FILE of them, and --json: shared by `score` and `peg`."""
    parser.add_argument("cards", nargs="*", metavar="CARD", help=cards_help)
    parser.add_argument("--json", action="store_true", help="print the items as JSON")
    parser.add_argument("--batch", metavar="FILE", help="score every line of FILE ('-' for standard input)")


def write_batch(args: argparse.Namespace, totals: Callable[[Iterable[str]], Iterator[int]]) -> None:
    """One total a line for every line of --batch FILE."""
    if args.cards:
        raise CommandError("give cards or --batch FILE, not both")
    with open_text(args.batch) as lines:
        sys.stdout.write("".join(f"{total}\n" for total in totals(lines)))


def run(args: argparse.Namespace) -> int:
    if args.batch is not None:
        write_batch(args, functools.partial(batch_totals, crib=args.crib))
        return 0
    cards = parse_cards(args.cards)
    if len(cards) != 5:
        raise CommandError(f"give four hand cards and then the starter, like 5H 5D 5C JS 5S (got {len(cards)})")
    print_score(score_show(cards[:4], cards[4], crib=args.crib), as_json=args.json, itemise=args.itemise)
    return 0


def print_score(score: Score, *, as_json: bool, itemise: bool = False) -> None:
    """The count as said ('total 12: fifteen two, fifteen four, and a double run is twelve'), or as JSON;
    `itemise` puts each item with its cards first."""
    if as_json:
        print(json.dumps(score.to_json(), ensure_ascii=False))
        return
    if itemise:
        for line in score.lines():
            print(line)
    print(f"total {score.total}: {score.say()}")


@contextlib.contextmanager
def open_text(path: str) -> Iterator[Iterator[str]]:
    """The lines of a named file, or of standard input for '-', with a message that says what to do when it
    cannot be read or a line is not UTF-8 text (any byte may come from a scanner or a serial line)."""
    if path == "-":
        yield utf8_lines(sys.stdin.buffer, "standard input")
        return
    try:
        file = open(path, "rb")  # noqa: SIM115 (closed below, after the caller is done)
    except OSError as error:
        raise CommandError(f"cannot read {path}: {error.strerror}; give a readable file or '-'") from None
    with file:
        yield utf8_lines(file, path)


def utf8_lines(stream: BinaryIO, name: str) -> Iterator[str]:
    """Each line decoded on its own, so that a bad byte is an error naming its line rather than a traceback."""
    for number, raw in enumerate(stream, 1):
        try:
            yield raw.decode("utf-8")
        except UnicodeDecodeError as error:
            raise CommandError(f"{name}: line {number} is not UTF-8 text (byte {raw[error.start]:#04x} at column "
                               f"{len(raw[:error.start].decode('utf-8', 'replace')) + 1}): save it as UTF-8, "
                               "or type that line again") from None


read_card = functools.cache(Card.parse)  # batches read the same few texts again and again


def batch_totals(lines: Iterable[str], *, crib: bool = False) -> Iterator[int]:
    """Totals of one hand a line ("5H 5D 5C JS 5S", optionally "crib" at the end); errors name the line."""
    for number, line in enumerate(lines, 1):
        words = line.replace(",", " ").split()
        line_crib = crib
        if words and words[-1].lower() == "crib":
            words.pop()
            line_crib = True
        try:
            cards = [read_card(w) for w in words]
        except CardSyntaxError as error:
            raise CommandError(f"line {number}: {error}") from None
        if len(cards) != 5 or len(set(cards)) != 5:
            raise CommandError(f"line {number}: give five different cards, four in hand then the starter, "
                               f"like 5H 5D 5C JS 5S (got {line.strip()!r})")
        yield show_total(cards[:4], cards[4], crib=line_crib)
