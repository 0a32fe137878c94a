"""`crib score`: the count of a hand (or crib) and its starter as said, itemised, or a batch of totals."""

from __future__ import annotations

import argparse
import contextlib
import functools
import sys
from collections.abc import Callable, Iterator
from typing import Any, TextIO

from companion.base.textlines import Unreadable
from companion.commands import CommandError
from companion.cribbage.cards import Card, parse_cards
from companion.cribbage.errors import CribbageError
from companion.cribbage.scoring import Score, score_show, show_total
from companion.i18n import ENGLISH, _
from companion.words.count import lines, say


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "score", help=_("count a hand or crib with its starter"),
        description=_("Count a hand: four cards then the starter (5H 5D 5C JS 5S). Cards are typed like 5H, 10d, "
        "TH, ah or 5♥. With --batch, read one hand a line (an optional trailing word 'crib') and print one "
        "total a line, in order."),
    )
    add_card_arguments(parser, _("four hand cards, then the starter"))
    parser.add_argument("--crib", action="store_true", help=_("count as the crib (only a five-card flush counts)"))
    parser.add_argument("--itemise", action="store_true", help=_("each fifteen, pair, run, flush and nobs on a line "
                        "of its own with its cards and points, before the count"))
    parser.set_defaults(func=run)


def add_card_arguments(parser: argparse.ArgumentParser, cards_help: str) -> None:
    """The cards on the command line, or --batch FILE of them, and --json: shared by `score` and `peg`."""
    parser.add_argument("cards", nargs="*", metavar="CARD", help=cards_help)
    parser.add_argument("--json", action="store_true", help=_("print the items as JSON"))
    parser.add_argument("--batch", metavar="FILE", help=_("score every line of FILE ('-' for standard input)"))


LineTotal = Callable[[str], int]
"""The total of one line of a batch; raises CribbageError or CommandError saying what is wrong with it."""
BAD_TOTAL = "-"
"""Printed in place of a bad line's total, so the totals stay beside their lines."""
NAMED_BAD_LINES = 10
CHUNK = 1 << 22  # characters read at a time: a batch from a pipe is scored as it comes, in bounded memory


def write_batch(args: argparse.Namespace, line_total: LineTotal,
                totals: Callable[[str], list[int | None]] | None = None) -> int:
    """One total a line for every line of --batch FILE. `totals`, if given, scores a chunk of lines at once
    (None where it cannot); `line_total` scores the others one by one, and a line it refuses gets '-' and
    is named on stderr, after the totals of all the others."""
    if args.cards:
        raise CommandError(_("give cards or --batch FILE, not both"))
    bad: list[str] = []
    count = 0
    with open_batch(args.batch) as file:
        for text in _chunks(file):
            results: list[int | None] = totals(text) if totals else [None] * text.count("\n")
            if None in results:
                lines = text[:-1].split("\n")
                for index in (i for i, total in enumerate(results) if total is None):
                    number = count + index + 1
                    try:
                        results[index] = line_total(_utf8(lines[index], number, args.batch))
                    except CribbageError as error:
                        from companion.words.saying import error_words  # only for a bad line

                        bad.append(_("line {number}: {error} (got {line!r})").format(
                            number=number, error=error_words(error), line=lines[index].strip()))
                    except CommandError as error:
                        from companion.words.saying import command_words

                        bad.append(_("line {number}: {error} (got {line!r})").format(
                            number=number, error=command_words(error), line=lines[index].strip()))
            sys.stdout.write("\n".join(BAD_TOTAL if total is None else str(total) for total in results)
                             if bad else "\n".join(map(str, results)))
            sys.stdout.write("\n")
            count += len(results)
    for message in bad[:NAMED_BAD_LINES]:
        print(f"crib {args.command}: {message}", file=sys.stderr)
    if bad:
        said = (_("{bad} of {count} lines not scored (the first {named} named above): their totals are '{mark}'; "
                  "correct them and run again") if len(bad) > NAMED_BAD_LINES else
                _("{bad} of {count} lines not scored: their totals are '{mark}'; correct them and run again"))
        print(f"crib {args.command}: {said.format(bad=len(bad), count=count, named=NAMED_BAD_LINES, mark=BAD_TOTAL)}",
              file=sys.stderr)
        return 2
    return 0


def _chunks(file: TextIO) -> Iterator[str]:
    """Whole lines, about CHUNK characters at a time (one at a time from a terminal), each ending in a line end."""
    interactive = file.isatty()
    while True:
        text = file.readline() if interactive else file.read(CHUNK)
        if not text:
            return
        if not text.endswith("\n"):
            text += file.readline()
        yield text if text.endswith("\n") else text + "\n"


def run(args: argparse.Namespace) -> int:
    if args.batch is not None:
        return write_batch(args, functools.partial(line_total, crib=args.crib),
                           functools.partial(_batch_totals, crib=args.crib))
    cards = parse_cards(args.cards)
    if len(cards) != 5:
        raise CommandError(_("give four hand cards and then the starter, like 5H 5D 5C JS 5S (got {cards})")
                           .format(cards=len(cards)))
    print_score(score_show(cards[:4], cards[4], crib=args.crib), as_json=args.json, itemise=args.itemise)
    return 0


def print_score(score: Score, *, as_json: bool, itemise: bool = False) -> None:
    """The count as said ('total 12: fifteen two, fifteen four, and a double run is twelve'), or as JSON;
    `itemise` puts each item with its cards first."""
    if as_json:
        import json  # only for --json: `crib score` starts without it

        print(json.dumps({**score.to_json(), "said": say(score, ENGLISH)}, ensure_ascii=False))  # JSON in English
        return
    if itemise:
        for line in lines(score):
            print(line)
    print(_("total {total}: {said}").format(total=score.total, said=say(score)))


@contextlib.contextmanager
def open_batch(path: str) -> Iterator[TextIO]:
    """A batch file, or standard input for '-', read as text whose bytes that are not UTF-8 are kept (as
    surrogates) so that the line holding one is a bad line (`_utf8`), not a traceback."""
    if path == "-":
        if hasattr(sys.stdin, "reconfigure"):
            sys.stdin.reconfigure(errors="surrogateescape")
        yield sys.stdin
        return
    try:
        file = open(path, encoding="utf-8", errors="surrogateescape")  # noqa: SIM115 (closed below)
    except OSError as error:
        raise Unreadable(path, error=error.strerror or str(error)) from None
    with file:
        yield file


def _utf8(line: str, number: int, path: str) -> str:
    """`line` when it was UTF-8 text; otherwise the error that names its first bad byte."""
    try:
        line.encode("utf-8")
    except UnicodeEncodeError as error:
        raise Unreadable(path, number, byte=ord(line[error.start]) - 0xDC00, column=error.start + 1) from None
    return line


read_card = functools.cache(Card.parse)  # batches read the same few texts again and again


def line_total(line: str, *, crib: bool = False) -> int:
    """The total of one hand a line ("5H 5D 5C JS 5S", optionally "crib" at the end), one card at a time."""
    words = line.replace(",", " ").split()
    if words and words[-1].lower() == "crib":
        words.pop()
        crib = True
    cards = [read_card(w) for w in words]
    if len(cards) != 5 or len(set(cards)) != 5:
        raise CommandError(_("give five different cards, four in hand then the starter, like 5H 5D 5C JS 5S"))
    return show_total(cards[:4], cards[4], crib=crib)


def _batch_totals(text: str, *, crib: bool = False) -> list[int | None]:
    from companion.batch import batch_totals  # numpy: only for batches

    return batch_totals(text, crib=crib)
