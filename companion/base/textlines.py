"""Text files read a line at a time, with a message that says what to do when one cannot be read or a line is
not UTF-8 text (any byte may come from a scanner or a serial line): the commands and the benchmarks read them."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from typing import BinaryIO

from companion.base.usage import CommandError


class Unreadable(CommandError):
    """A text that cannot be read, by its facts: `name` (a path, "-" for standard input), `line` (0: the file
    itself, with the system's `error`) or a line that is not UTF-8 text (its first bad `byte` and its `column`).
    str() is English, for logs and tracebacks; `crib` says it in the reader's language (cli.command_words)."""

    def __init__(self, name: str, line: int = 0, *, error: str = "", byte: int = 0, column: int = 0) -> None:
        self.name, self.line, self.error, self.byte, self.column = name, line, error, byte, column
        super().__init__(f"cannot read {name}: {error}; give a readable file or '-'" if line == 0 else
                         f"{name}: line {line} is not UTF-8 text (byte {byte:#04x} at column {column}): save it as "
                         "UTF-8, or type that line again")


@contextlib.contextmanager
def open_text(path: str) -> Iterator[Iterator[str]]:
    """The lines of a named file, or of standard input for '-', with a message that says what to do when it
    cannot be read or a line is not UTF-8 text (any byte may come from a scanner or a serial line)."""
    if path == "-":
        yield utf8_lines(sys.stdin.buffer, "-")
        return
    try:
        file = open(path, "rb")  # noqa: SIM115 (closed below, after the caller is done)
    except OSError as error:
        raise Unreadable(path, error=error.strerror or str(error)) from None
    with file:
        yield utf8_lines(file, path)


def utf8_lines(stream: BinaryIO, name: str) -> Iterator[str]:
    """Each line decoded on its own, so that a bad byte is an error naming its line rather than a traceback;
    `name` is the stream's path, "-" for standard input."""
    for number, raw in enumerate(stream, 1):
        try:
            yield raw.decode("utf-8")
        except UnicodeDecodeError as error:
            raise Unreadable(name, number, byte=raw[error.start],
                             column=len(raw[:error.start].decode("utf-8", "replace")) + 1) from None
