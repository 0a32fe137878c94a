"""The game log: every accepted table input, one JSON object a line (the transcript format of RULES.md).

The first line of a log is its header, `{"log":"cribbage-companion","version":1}`; logs written before there was
a header start with their first input and are read the same. The log is append-only and each line is flushed
and fsynced before the outputs change, so whatever the table was shown survives a crash or a power cut. On
start the log is read back: every line must be a table input that the engine accepts where it stands, or the
log is refused with an error naming the file and the line (`repair` keeps the lines before it and sets the
rest aside in a file beside the log). A write cut short by a crash leaves a torn last line, or NUL bytes
where the file grew but the data never arrived: either is dropped with a warning and the file truncated to
the last good line.

A write that fails (a full, read-only or size-limited disk) raises `CannotSave` with the words to show, and
leaves the file as it was before the write, so the log stays valid and the next append simply tries again.

Cards the table has acknowledged but not yet sent to the engine (the first crib cards, a coached hand) are
kept beside the log in `NNNN.pending.json`, replaced atomically (write, fsync, rename, fsync the directory)
before the screen says "Crib: 2 of 4", and removed once they are logged; it records how many inputs the log
held, so a file left by a crash just after the crib was logged is recognised as stale and ignored.

A state directory holds one log per game (or match) in `games/`, numbered; the highest is the current one.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from typing_extensions import TypedDict

from companion.cribbage.errors import CribbageError
from companion.cribbage.game import GameState, apply, initial_state
from companion.cribbage.refusals import Refusal, Why
from companion.cribbage.transcript import Input, UndoInput, input_to_line, parse_input
from companion.i18n import current
from companion.words.logbook import Finding, Found, finding_words
from companion.words.messages import Message, Say

HEADER = {"log": "cribbage-companion", "version": 1}
VERSION = 1
_HEADER_LINE = json.dumps(HEADER, separators=(",", ":")).encode() + b"\n"
_BLANK = b" \t\r"


class GameLogError(Exception):
    """A log that cannot be read back: what was found (`refusal`, a `Finding`, as every typed error carries its
    reason; its words, made at each edge in its language, name the file and line and say what to do); `str()` is
    them in the language current, for the system log."""

    def __init__(self, finding: Finding, *, path: Path | None = None, good: int = 0) -> None:
        super().__init__(finding)
        self.refusal = finding
        self.path = path
        self.line = finding.line  # the first line that cannot be used (0: the whole file)
        self.good = good  # bytes before that line: the part `repair` keeps

    def __str__(self) -> str:
        return finding_words(self.refusal, current())


class CannotSave(GameLogError):
    """A write that failed; the log is as it was before it. `message` is for the screens (its words are made at
    each, in its language); `str()` is the same in the language current, for the system log."""

    def __init__(self, path: Path, error: OSError) -> None:
        self.message = Message(Say.CANNOT_SAVE, count=error.errno, text=error.strerror or str(error))
        super().__init__(Finding(Found.CANNOT_SAVE, str(path), facts={"message": self.message}), path=path)
        self.error = error


def is_header(line: str) -> bool:
    """Whether a transcript's first line is a board log's header (readers of transcripts skip it)."""
    try:
        obj = json.loads(line)
    except ValueError:
        return False
    return isinstance(obj, dict) and obj.get("log") == HEADER["log"]


class PendingJSON(TypedDict):
    """What the table holds beside its log (NNNN.pending.json): the cards acknowledged that are no input yet,
    the deal whose coached hands are skipped, and the log's length when they were kept."""

    cards: list[str]
    skip_hands_deal: int
    inputs: int


class _Unlike(ValueError):
    """JSON that is valid but not as a log writes it: the kind found (Found.FIELD_TWICE, Found.NOT_A_NUMBER)
    and the name it concerns."""

    def __init__(self, kind: Found, name: str) -> None:
        super().__init__(kind.value, name)
        self.kind, self.name = kind, name


def _strict_object(pairs: list[tuple[str, object]]) -> dict[str, object]:  # any JSON object, checked later
    keys = [key for key, _ in pairs]
    if len(set(keys)) != len(keys):
        raise _Unlike(Found.FIELD_TWICE, next(k for k in keys if keys.count(k) > 1))
    return dict(pairs)


def _no_constant(name: str) -> None:
    raise _Unlike(Found.NOT_A_NUMBER, name)


def _decode(raw: bytes) -> Any:
    """One line as JSON: strict UTF-8, no repeated fields, no NaN or Infinity."""
    return json.loads(raw.decode("utf-8"), object_pairs_hook=_strict_object, parse_constant=_no_constant)


@dataclass
class _Reading:
    inputs: list[Input]
    warnings: list[Finding]
    good: int  # bytes of complete, usable lines (the part kept)
    version: int | None


def _read(path: Path, data: bytes) -> _Reading:
    """Every line checked: the header, JSON, a table input, and the engine accepting it where the game stands."""
    inputs: list[Input] = []
    warnings: list[Finding] = []
    states: list[GameState] = [initial_state()]  # as the engine's replay: an undo drops the latest
    version: int | None = None
    good = 0
    lines = data.split(b"\n")  # the piece after the last newline is empty unless a write was cut short

    def refuse(number: int, kind: Found, **facts: object) -> GameLogError:
        return GameLogError(Finding(kind, str(path), number, facts), path=path, good=good)

    for index, raw in enumerate(lines):
        number, terminated = index + 1, index < len(lines) - 1
        if not raw.strip(_BLANK + b"\0"):
            if b"\0" not in raw:
                good += len(raw) + 1 if terminated else 0
                continue
            if not b"".join(lines[index:]).strip(_BLANK + b"\0"):
                warnings.append(Finding(Found.NUL_TAIL, str(path), number, {"kept": len(inputs)}))
                break
            raise refuse(number, Found.NUL_LINE)
        try:
            obj = _decode(raw)
        except (ValueError, RecursionError) as error:  # garbage such as "[[[[..." nests past the stack
            if not b"".join(lines[index + 1:]).strip(_BLANK + b"\0"):
                warnings.append(Finding(Found.TORN, str(path), number, {"size": len(raw), "kept": len(inputs)}))
                break
            if isinstance(error, _Unlike):
                raise refuse(number, error.kind, name=error.name) from error
            raise refuse(number, Found.DAMAGED, error=str(error)) from error
        if isinstance(obj, dict) and "log" in obj:
            version = obj.get("version")
            if number != 1 or obj.get("log") != HEADER["log"] or not isinstance(version, int) or version < 1:
                raise refuse(number, Found.HEADER_MISPLACED, header=_HEADER_LINE.decode())
            if version > VERSION:
                raise GameLogError(Finding(Found.NEWER, str(path), facts={"version": version, "reads": VERSION}),
                                   path=path)
            good += len(raw) + 1 if terminated else 0
            continue
        try:
            inp = parse_input(obj)
        except CribbageError as error:
            raise refuse(number, Found.NOT_INPUT, why=error.refusal or str(error)) from error
        if isinstance(inp, UndoInput) and len(states) == 1:
            raise refuse(number, Found.LONE_UNDO)
        try:
            if isinstance(inp, UndoInput):
                states.pop()
            else:
                states.append(apply(states[-1], inp))
        except CribbageError as error:
            raise refuse(number, Found.REFUSED, input=input_to_line(inp), why=error.refusal or str(error)) from error
        inputs.append(inp)
        good += len(raw) + 1
    return _Reading(inputs, warnings, good, version)


class GameLog:
    """An open game log. `inputs` are the lines read back; `warnings` are what was repaired or dropped."""

    def __init__(self, path: Path, inputs: list[Input], warnings: list[Finding], *, size: int = 0,
                 version: int | None = None) -> None:
        self.path = path
        self.inputs = inputs
        self.warnings = warnings
        self.size = size  # bytes of the log that hold its lines: a write that fails is cut back to this
        self.version = version  # None: an old log without a header

    @classmethod
    def open(cls, path: Path, *, repair: bool = True) -> GameLog:
        """Read the log at `path` (none yet: a new log, made by its first append, so that a game is never on the disk
        without its first line), cutting off a torn last line unless told not to. A log that cannot be repaired now
        (a read-only disk) is still read: the next append repairs it, or says why it cannot."""
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            data = b""
        except OSError as error:
            raise GameLogError(Finding(Found.UNREADABLE, str(path), facts={"error": error.strerror}),
                               path=path) from None
        reading = _read(path, data)
        game_log = cls(path, reading.inputs, reading.warnings, size=reading.good, version=reading.version)
        if repair and reading.good != len(data):
            try:
                game_log._cut_back()
            except OSError as error:
                game_log.warnings.append(Finding(Found.NOT_REPAIRED, str(path), facts={"error": error.strerror}))
        return game_log

    def _cut_back(self, fd: int | None = None) -> None:
        """Make the file hold exactly its `size` good bytes, ending in a newline (an old last line may lack it)."""
        own = fd is None
        if fd is None:
            fd = os.open(self.path, os.O_WRONLY)
        try:
            length = os.fstat(fd).st_size
            if length > self.size:
                os.ftruncate(fd, self.size)
            elif length < self.size:  # a whole last line without its newline
                os.pwrite(fd, b"\n", length)
            os.fsync(fd)
        finally:
            if own:
                os.close(fd)

    @property
    def lines(self) -> int:
        """Lines in the file: the inputs, and the header above them (old logs have none)."""
        return len(self.inputs) + (self.version is not None)

    @property
    def pending_path(self) -> Path:
        return self.path.with_name(self.path.stem + ".pending.json")

    def read_pending(self) -> PendingJSON | None:
        """What was held when the log had as many inputs as now, or None (nothing held, stale, or unusable)."""
        try:
            data = json.loads(self.pending_path.read_bytes().decode("utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, ValueError, RecursionError) as error:
            self.warnings.append(Finding(Found.PENDING_UNREADABLE, str(self.pending_path), facts={"error": str(error)}))
            return None
        if not isinstance(data, dict) or data.get("inputs") != len(self.inputs):
            return None
        cards, skip = data.get("cards", []), data.get("skip_hands_deal", -1)
        if (not isinstance(cards, list) or not all(isinstance(card, str) for card in cards)
                or not isinstance(skip, int) or isinstance(skip, bool)):
            self.warnings.append(Finding(Found.PENDING_SHAPE, str(self.pending_path)))
            return None
        return {"cards": cards, "skip_hands_deal": skip, "inputs": len(self.inputs)}

    def write_pending(self, data: PendingJSON | None) -> None:
        """Keep `data` (its `inputs` the log's length) durably beside the log; None removes it. Raises
        CannotSave."""
        path = self.pending_path
        try:
            if data is None:
                if path.exists():
                    path.unlink()
                    _sync_directory(path.parent)
                return
            temporary = path.with_name(path.name + ".tmp")
            try:
                with temporary.open("wb") as file:
                    file.write(json.dumps({**data, "inputs": len(self.inputs)}, ensure_ascii=False).encode("utf-8"))
                    file.flush()
                    os.fsync(file.fileno())
                os.replace(temporary, path)
            except OSError:
                temporary.unlink(missing_ok=True)
                raise
            _sync_directory(path.parent)
        except OSError as error:
            raise CannotSave(path, error) from error

    def append(self, inp: Input) -> None:
        """Write one input and make it durable before returning. A new log gets its header first. Raises CannotSave
        (the file cut back to what it held) when the disk will not take it."""
        line = input_to_line(inp).encode("utf-8") + b"\n"
        first = self.size == 0 and not self.inputs
        if first:
            line = _HEADER_LINE + line
        try:
            if self.path.exists():
                self._write_at_end(line)
            else:
                self._create(line)
        except OSError as error:
            raise CannotSave(self.path, error) from error
        if first:
            self.version = VERSION
        self.size += len(line)
        self.inputs.append(inp)

    def _create(self, line: bytes) -> None:
        """A new log with its first line, renamed into place: a game is never on the disk without that line (a
        crash between making the file and writing it would leave a game with no players and no dealer)."""
        temporary = self.path.with_name(self.path.name + ".new")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with temporary.open("wb") as file:
                file.write(line)
                file.flush()
                os.fsync(file.fileno())
            os.replace(temporary, self.path)
        except OSError:
            temporary.unlink(missing_ok=True)
            raise
        _sync_directory(self.path.parent)

    def _write_at_end(self, line: bytes) -> None:
        fd = os.open(self.path, os.O_WRONLY)
        try:
            if os.fstat(fd).st_size != self.size:
                self._cut_back(fd)  # a torn line that could not be cut off when the log was opened
            written = 0
            while written < len(line):
                written += os.pwrite(fd, line[written:], self.size + written)
            os.fsync(fd)
        except OSError:
            try:
                os.ftruncate(fd, self.size)
                os.fsync(fd)
            except OSError:
                pass  # the next append cuts it back before writing
            raise
        finally:
            os.close(fd)


def repair(path: Path) -> tuple[GameLog, Path | None]:
    """Keep the good lines of a log that cannot be read past a line, and set the rest aside in a file beside it
    (`NNNN.jsonl.set-aside`, numbered when one exists). Returns the log as now readable and the file made."""
    data = path.read_bytes()
    try:
        GameLog.open(path)
    except GameLogError as error:
        if error.line == 0 or error.path != path or error.good > len(data):
            raise
        kept = error.good
    else:
        return GameLog.open(path), None
    aside = path.with_name(path.name + ".set-aside")
    number = 1
    while aside.exists():
        number += 1
        aside = path.with_name(f"{path.name}.set-aside-{number}")
    with aside.open("xb") as file:  # the rest is safe on disk before the log gives it up
        file.write(data[kept:])
        file.flush()
        os.fsync(file.fileno())
    _sync_directory(path.parent)
    with path.open("r+b") as file:
        file.truncate(kept)
        os.fsync(file.fileno())
    return GameLog.open(path), aside


def _sync_directory(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


SETTINGS_SUFFIX = ".computer.json"  # beside a game against the computer's log: its settings (companion.play)


def settings_path(log_path: Path) -> Path:
    """Where the settings of a game against the computer are kept: `NNNN.computer.json` beside its log."""
    return log_path.with_name(log_path.stem + SETTINGS_SUFFIX)


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


def replay_lines(lines: Iterable[str]) -> GameState:
    """Apply every input in turn; an error names its line and nothing after it is read. A board log's header line
    is skipped."""
    state = initial_state()
    for number, line in enumerate(lines, 1):
        if not line.strip() or (number == 1 and is_header(line)):
            continue
        try:
            state = apply(state, parse_input(line))
        except CribbageError as error:
            cause = error.refusal
            raise type(error)(Refusal(Why.BAD_LINE, count=number, cause=cause) if isinstance(cause, Refusal)
                              else f"line {number}: {error}") from None
    return state
