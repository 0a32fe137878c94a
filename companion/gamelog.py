"""The game log: every accepted table input, one JSON object a line (the transcript format of RULES.md).

The log is append-only and each line is flushed and fsynced before the outputs change, so whatever the
table was shown survives a crash or a power cut. On start the log is read back and replayed. A write cut
short by a crash leaves a torn last line: it is dropped with a warning and the file truncated to the last
good line. A damaged line before the end is an error that names the line: nothing is thrown away silently.

Cards the table has acknowledged but not yet sent to the engine (the first crib cards, a coached hand) are
kept beside the log in `NNNN.pending.json`, replaced atomically (write, fsync, rename, fsync the directory)
before the screen says "Crib: 2 of 4", and removed once they are logged; it records how many inputs the log
held, so a file left by a crash just after the crib was logged is recognised as stale and ignored.

A state directory holds one log per game (or match) in `games/`, numbered; the highest is the current one.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from companion.cribbage.errors import CribbageError
from companion.cribbage.transcript import Input, input_to_json, parse_input

_BLANK = b"\0 \t\r"  # a power cut can leave NUL bytes where a write was due


class GameLogError(Exception):
    """A log that cannot be read back; the message names the file and line and says what to do."""


class GameLog:
    """An open game log. `inputs` are the lines read back; `warnings` say what was repaired."""

    def __init__(self, path: Path, inputs: list[Input], warnings: list[str]) -> None:
        self.path = path
        self.inputs = inputs
        self.warnings = warnings

    @classmethod
    def open(cls, path: Path, *, repair: bool = True) -> GameLog:
        """Read the log at `path` (created empty if missing), repairing a torn last line unless told not to."""
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists():
            path.touch()
            _sync_directory(path.parent)
        data = path.read_bytes()
        inputs: list[Input] = []
        warnings: list[str] = []
        good = 0  # bytes of complete, readable lines
        lines = data.split(b"\n")  # the piece after the last newline is empty unless a write was cut short
        for index, raw in enumerate(lines):
            number, terminated = index + 1, index < len(lines) - 1
            if not raw.strip(_BLANK):
                good += len(raw) + 1 if terminated else 0
                continue
            try:
                obj = json.loads(raw.decode("utf-8"))
            except (ValueError, RecursionError) as error:  # garbage such as "[[[[..." nests past the stack
                if not any(rest.strip(_BLANK) for rest in lines[index + 1 :]):
                    warnings.append(
                        f"{path}: line {number} was cut short by a crash ({len(raw)} bytes) and is dropped; "
                        f"the {len(inputs)} inputs before it are kept"
                    )
                    break
                raise GameLogError(
                    f"{path}: line {number} is damaged ({error}); the game cannot be resumed past it. "
                    f"Fix or delete that line, or start a new game (--new) and keep this file to look at"
                ) from error
            try:
                inputs.append(parse_input(obj))
            except CribbageError as error:
                raise GameLogError(
                    f"{path}: line {number} is not a table input ({error}). Fix or delete that line, "
                    f"or start a new game (--new)"
                ) from error
            good += len(raw) + 1
        if repair and good != len(data):  # cut off a torn line, or end a whole last line that lacks its newline
            with path.open("r+b") as file:
                file.truncate(min(good, len(data)))
                if good > len(data):
                    file.seek(0, os.SEEK_END)
                    file.write(b"\n")
                os.fsync(file.fileno())
        return cls(path, inputs, warnings)

    @property
    def pending_path(self) -> Path:
        return self.path.with_name(self.path.stem + ".pending.json")

    def read_pending(self) -> dict[str, Any] | None:
        """What was held when the log had as many inputs as now, or None (nothing held, or stale)."""
        try:
            data = json.loads(self.pending_path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, ValueError, RecursionError) as error:
            self.warnings.append(f"{self.pending_path}: unreadable ({error}); the cards held are dropped")
            return None
        if not isinstance(data, dict) or data.get("inputs") != len(self.inputs):
            return None
        return data

    def write_pending(self, data: dict[str, Any] | None) -> None:
        """Keep `data` (with the log's length) durably beside the log; None removes it."""
        path = self.pending_path
        if data is None:
            if path.exists():
                path.unlink()
                _sync_directory(path.parent)
            return
        temporary = path.with_name(path.name + ".tmp")
        with temporary.open("wb") as file:
            file.write(json.dumps({**data, "inputs": len(self.inputs)}, ensure_ascii=False).encode("utf-8"))
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
        _sync_directory(path.parent)

    def append(self, inp: Input) -> None:
        """Write one input and make it durable before returning."""
        line = json.dumps(input_to_json(inp), ensure_ascii=False, separators=(",", ":")) + "\n"
        with self.path.open("ab") as file:
            file.write(line.encode("utf-8"))
            file.flush()
            os.fsync(file.fileno())
        self.inputs.append(inp)


def _sync_directory(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def games_dir(state_dir: Path) -> Path:
    return state_dir / "games"


def current_log(state_dir: Path) -> Path | None:
    """The newest game log in `state_dir`, or None when no game was ever started there."""
    logs = sorted(games_dir(state_dir).glob("*.jsonl"))
    return logs[-1] if logs else None


def next_log(state_dir: Path) -> Path:
    """A path for a new game's log, numbered after the existing ones."""
    numbers = [int(p.stem) for p in games_dir(state_dir).glob("*.jsonl") if p.stem.isdigit()]
    return games_dir(state_dir) / f"{max(numbers, default=0) + 1:04d}.jsonl"
