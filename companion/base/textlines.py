"""Text files read a line at a time, with a message that says what to do when one cannot be read or a line is
not UTF-8 text (any byte may come from a scanner or a serial line): the commands and the benchmarks read them."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from typing import BinaryIO

from companion.base.usage import CommandError


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
