"""`crib scan-test`: scan codes and see what the companion understands, one line per scan."""

from __future__ import annotations

import argparse
import contextlib
import queue
import sys
from collections.abc import Generator
from typing import TextIO

from companion.base.clock import SystemClock
from companion.commands import CommandError
from companion.config import load_config
from companion.deck.meaning import explain_scan
from companion.devices.base import DeviceError, EntryDevice
from companion.entry import Entry
from companion.i18n import _, current
from companion.words.saying import error_words


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "scan-test",
        help=_("check a barcode scanner: echo each code and say what it means"),
        description=_("Read codes from a barcode scanner and say, for each, what the companion understands: "
        "'C5H -> five of hearts', 'XG -> command GO', or why a code is not ours. By default it reads "
        "what the scanner types (a keyboard-wedge scanner is a keyboard: scan into this terminal); "
        "--evdev reads a keyboard-wedge scanner directly and --serial a scanner in serial mode, "
        "as the daemon does. Stop with Ctrl-D (end of input) or Ctrl-C."),
    )
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--serial", metavar="PORT", help=_("a scanner in serial (USB-CDC) mode, e.g. /dev/ttyACM0"))
    source.add_argument("--evdev", metavar="DEVICE",
                        help=_("a keyboard-wedge scanner: its /dev/input path, or USB vendor:product as lsusb shows "
                        'it ("" for the one input device that types letters and digits; grabbed: its typing reaches '
                        "only this command)"))
    parser.add_argument("--baud", type=int, help=_("with --serial: the scanner's speed (default: the configuration's "
                        "scanner.baud, 9600 as shipped)"))
    parser.add_argument("--count", type=int, metavar="N", help=_("stop after N codes"))
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.count is not None and args.count < 1:
        raise CommandError(_("--count {count}: give at least 1").format(count=args.count))
    if args.serial or args.evdev:
        codes = _from_device(_open(args))
    else:
        if sys.stdin.isatty():
            print(_("Scan a code (this terminal must have the focus); Ctrl-D to stop."), file=sys.stderr)
        codes = _from_text(sys.stdin)
    understood = unknown = 0
    with contextlib.closing(codes):  # closes the scanner, on Ctrl-C too
        for text in codes:
            scan = explain_scan(text)
            print(scan, flush=True)
            understood += scan.ours
            unknown += not scan.ours
            if args.count is not None and understood + unknown >= args.count:
                break
    print(_("{understood} understood, {unknown} not ours").format(understood=understood, unknown=unknown),
          file=sys.stderr)
    return 0


def _from_text(stream: TextIO) -> Generator[str]:
    """One code per line; blank lines (a second line end from the scanner) are skipped."""
    for line in stream:
        if line.strip():
            yield line


def _open(args: argparse.Namespace) -> EntryDevice:
    from companion.devices.scanner import EvdevScanner, SerialScanner

    scanner = load_config().scanner  # as the daemon reads the scanner: the same speed and duplicate window
    clock, window = SystemClock(), scanner.duplicate_window_ms / 1000
    try:
        if args.serial:
            return SerialScanner(args.serial, baud=args.baud or scanner.baud, clock=clock, duplicate_window=window)
        return EvdevScanner(args.evdev, clock=clock, duplicate_window=window)
    except DeviceError as error:
        raise CommandError(error_words(error, current())) from error


def _from_device(device: EntryDevice) -> Generator[str]:
    """The codes the scanner driver emits (cleaned, repeats within the duplicate window counted once)."""
    entries: queue.Queue[Entry] = queue.Queue()
    device.start(entries.put)
    print(_("Reading {device}: scan a code; Ctrl-C to stop.").format(device=device.name), file=sys.stderr)
    try:
        while True:
            yield entries.get().text
    finally:
        device.close()
