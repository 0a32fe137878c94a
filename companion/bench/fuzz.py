"""Coverage-guided fuzzing of the parsers with atheris (libFuzzer for Python), for `crib bench --only fuzz`.

Each target takes bytes, feeds them to a parser's real entry point, and returns quietly when the input is
accepted or refused with that parser's own error; it also checks what the hypothesis tests check (a refusal
leaves the game, the log or the picture as it was; what is accepted reads back). Any other exception, or a check
that fails (`Broken`), is a crash: libFuzzer stops and keeps the input.

`run` fuzzes each target in a process of its own (atheris fuzzes once a process):
`python -m companion.bench.fuzz NAME [libFuzzer flags] CORPUS`, where NAME is a target below or `module:function`
(any function taking bytes). The package is imported under atheris's instrumentation, so coverage guides the
mutations, from a seed corpus of good inputs: every card code, the logs of scripted games, the packaged
defaults.toml and board layouts, valid frames each way. Everything it writes (corpus, crashing inputs, the
targets' scratch files) is in one temporary directory, removed at the end; a crashing input's bytes are copied
into the report. atheris is a development tool (`pip install -e '.[dev]'`); without it `run` says so.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import importlib
import io
import json
import os
import re
import struct
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

Target = Callable[[bytes], None]
TARGETS = ("cards", "keypad", "transcript", "gamelog", "config", "layout", "from-pico", "to-pico", "scanner")
MAX_LEN = {"cards": 64, "keypad": 64, "transcript": 8192, "gamelog": 8192, "config": 8192, "layout": 24576,
           "from-pico": 2048, "to-pico": 2048, "scanner": 2048}
"""The longest input each target is given: the seeds fit (the largest layout is 22 KB); a scanner's pty holds it."""
INSTRUMENTED = ["companion", "tomllib"]
"""Modules whose branches guide the fuzzer (tomllib: the configuration parser is pure Python)."""
QUICK_RUNS = 300
FULL_SECONDS = 60
INSTALL = "pip install -e '.[dev]'"


class Broken(Exception):
    """A parser took or refused an input wrongly: a check of the hypothesis tests failed."""


def _check(ok: bool, what: str) -> None:
    if not ok:
        raise Broken(what)


# --- the targets: each builder imports its parsers (under the instrumentation) and returns the function


def _cards() -> Target:
    from companion.cribbage.cards import DECK, Card, is_card_payload
    from companion.cribbage.errors import CardSyntaxError
    from companion.entry import Entry
    from companion.entry.commands import Rejected, decode_entry
    from companion.words.phrases import message_words
    from companion.words.saying import error_words

    def target(data: bytes) -> None:
        text = data.decode("utf-8", "replace")
        for source in ("terminal", "scanner:serial"):
            decoded = decode_entry(Entry(text, source))
            _check(not isinstance(decoded, Rejected) or bool(message_words(decoded.message)),
                   f"{text!r} rejected without words")
        try:
            card = Card.parse(text)
        except CardSyntaxError as error:
            _check(bool(error_words(error)), f"{text!r} refused without words")
            return
        _check(card in DECK and Card.parse(str(card)) == card and Card.parse(card.payload) == card,
               f"{text!r} read as {card!r}, which does not read back")
        _check(not is_card_payload(text) or Card.parse(text.strip().upper()) == card,
               f"the payload {text!r} reads otherwise in capitals")

    return target


def _keypad() -> Target:
    from companion.base.clock import ManualClock
    from companion.entry import Entry
    from companion.entry.commands import Rejected, decode_entry
    from companion.entry.keymap import KEYS, KeySequence
    from companion.words.phrases import message_words

    labels = sorted(KEYS)

    def target(data: bytes) -> None:
        clock = ManualClock()
        keys = KeySequence(clock)
        for byte in data:  # the low four bits pick the key, the high four the pause before it (half seconds)
            clock.advance((byte >> 4) / 2)
            for text in (keys.press(labels[byte & 15]), keys.poll()):
                if text is not None:
                    decoded = decode_entry(Entry(text, "keypad"))
                    _check(not isinstance(decoded, Rejected) or bool(message_words(decoded.message)),
                           f"{text!r} without words")

    return target


def _transcript() -> Target:
    from companion.base.textlines import utf8_lines
    from companion.base.usage import CommandError
    from companion.cribbage.errors import CribbageError
    from companion.cribbage.game import apply
    from companion.cribbage.refusals import Refusal, Why
    from companion.cribbage.transcript import parse_input
    from companion.gamelog import replay_lines
    from companion.view.history import describe
    from companion.words.projection import state_json

    def target(data: bytes) -> None:
        try:
            lines = list(utf8_lines(io.BytesIO(data), "transcript"))
        except CommandError:
            return
        try:
            state = replay_lines(lines)
        except CribbageError as error:
            refusal = error.refusal
            if not isinstance(refusal, Refusal) or refusal.why is not Why.BAD_LINE or refusal.count is None:
                raise Broken(f"a refusal that names no line: {error}") from None
            number = refusal.count
            before = replay_lines(lines[: number - 1])  # the lines before it replay: the refusal is that line's
            shown = json.dumps(state_json(before))
            try:
                apply(before, parse_input(lines[number - 1]))
            except CribbageError:
                _check(json.dumps(state_json(before)) == shown, f"line {number} was refused but changed the game")
                return
            raise Broken(f"line {number} was refused in the transcript but not alone: {error}") from None
        json.dumps(state_json(state))
        describe(state)

    return target


def _gamelog() -> Target:
    from companion.gamelog import GameLog, GameLogError

    path = Path(tempfile.mkdtemp()) / "0001.jsonl"

    def target(data: bytes) -> None:
        path.write_bytes(data)
        try:
            opened = GameLog.open(path)
        except GameLogError as error:
            _check(str(path) in str(error) and re.search(r"line \d+", str(error)) is not None,
                   f"a refusal that names no file and line: {error}")
            _check(path.read_bytes() == data, "a refused log was changed")
            return
        again = GameLog.open(path)
        _check(again.inputs == opened.inputs and not again.warnings, "the repaired log reads otherwise")

    return target


def _config() -> Target:
    from companion.config import MAX_BYTES, ConfigError, load_config
    from companion.i18n import current

    directory = Path(tempfile.mkdtemp())
    path, printed = directory / "config.toml", directory / "printed.toml"

    def target(data: bytes) -> None:
        path.write_bytes(data)
        try:
            config = load_config(path, system_path=None)
        except ConfigError as error:
            readable = len(data) <= MAX_BYTES and _utf8(data)
            for problem in str(error).splitlines():
                _check(problem.startswith(str(path)), f"a problem that names no file: {problem}")
                _check(not readable or re.search(rf"{re.escape(str(path))}:\d+|line \d+", problem) is not None,
                       f"a problem that names no line: {problem}")
            return
        printed.write_text(config.to_toml(current()), encoding="utf-8")  # `crib check-config` reads back as it was
        _check(load_config(printed, system_path=None) == config, "the effective configuration reads otherwise")

    return target


def _utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _layout() -> Target:
    from companion.boards import LayoutError, load_layout

    path = Path(tempfile.mkdtemp()) / "board.json"

    def target(data: bytes) -> None:
        path.write_bytes(data)
        try:
            layout = load_layout(path)
        except LayoutError as error:
            _check(str(error).startswith(str(path)), f"a refusal that names no file: {error}")
            return
        _check(layout.led_count > 0 and len({h.led for h in layout.holes}) == len(layout.holes),
               "a layout with LEDs under two holes")

    return target


def _from_pico() -> Target:
    from companion import ledlink
    from companion.base.clock import ManualClock
    from companion.devices.picokeys import PicoKeypad
    from companion.entry import Entry
    from companion.entry.commands import Rejected, decode_entry
    from companion.words.phrases import message_words

    def target(data: bytes) -> None:
        clock = ManualClock()
        keypad = PicoKeypad((0, 1, 2, 3), (4, 5, 6, 7), clock=clock)
        entries: list[Entry] = []
        keypad.start(entries.append)
        decoder = ledlink.Decoder()
        for at in range(0, len(data), 64):  # read() sizes
            for item in decoder.feed(data[at : at + 64]):
                if isinstance(item, ledlink.LinkError):
                    _check(item.reason in ledlink.NAK_REASONS and bool(str(item)), f"a bare link error {item!r}")
                    continue
                _check(ledlink.decode(ledlink.encode(item)[:-1]) == item, f"{item!r} is not what a frame carried")
                if item.type == ledlink.HELLO_REPLY:
                    with contextlib.suppress(ledlink.LinkError):  # a short reply: the driver reconnects
                        ledlink.parse_hello_reply(item.body)
                elif item.type == ledlink.NAK:
                    _check(bool(ledlink.nak_reason(item.body)), "a NAK without words")
                elif item.type == ledlink.KEY:
                    keypad.key_event(item.body)
                    clock.advance(0.5)
                    keypad.poll(clock.monotonic())
        for entry in entries:
            decoded = decode_entry(entry)
            _check(not isinstance(decoded, Rejected) or bool(message_words(decoded.message)),
                   f"{entry.text!r} without words")

    return target


def _firmware() -> dict[str, ModuleType]:
    """The firmware's modules as the simulated Pico loads them, instrumented (they are compiled from source, which
    atheris's import hook never sees)."""
    import atheris

    from companion.devices.picosim import Wiring, load_firmware

    modules = load_firmware(Wiring())
    for module in modules.values():
        for value in list(vars(module).values()):
            functions = vars(value).values() if isinstance(value, type) else [value]
            for function in functions:
                if getattr(function, "__globals__", None) is vars(module):
                    atheris.instrument_func(function)
    return modules


def _to_pico() -> Target:
    from companion import ledlink

    firmware = _firmware()
    controller, pico = firmware["controller"], firmware["pico"]
    picture = [(10, 20, 30)] * 12
    setup = b"".join(ledlink.encode(ledlink.Message(seq, kind, body)) for seq, (kind, body) in enumerate(
        [(ledlink.HELLO, ledlink.hello_body()), (ledlink.CONFIG, ledlink.config_body(12, 2, "GRB", 1000, 3)),
         (ledlink.FRAME, ledlink.frame_body(picture))], start=1))

    def target(data: bytes) -> None:
        strips: list[Any] = []

        def pixels(pin: int, count: int, order: str) -> Any:
            strips.append(pico.make_pixels(pin, count, order))
            return strips[-1]

        board = controller.Controller(pixels, 0, make_keypad=lambda rows, columns: pico.make_keypad(
            rows, columns, lambda: 5))
        board.receive(setup, 0)
        board.tick(0)
        before = (len(strips), bytes(strips[-1].buf))
        replies = board.receive(data, 5) + board.tick(5)
        answers = ledlink.Decoder().feed(replies)
        _check(all(isinstance(a, ledlink.Message) for a in answers), f"the firmware sent a bad frame: {answers!r}")
        if not any(isinstance(m, ledlink.Message) for m in ledlink.Decoder().feed(data)):
            _check((len(strips), bytes(strips[-1].buf)) == before, "bytes with no valid frame changed the picture")
            _check(all(a.type == ledlink.NAK for a in answers if isinstance(a, ledlink.Message)),
                   "bytes with no valid frame were answered with more than NAKs")

    return target


def _scanner() -> Target:
    import pty

    from evdev import InputEvent

    from companion.base.clock import ManualClock
    from companion.devices.scanner import MAX_CODE, SerialScanner, WedgeDecoder
    from companion.entry import Entry
    from companion.entry.commands import Rejected, decode_entry
    from companion.entry.scans import normalise_scan
    from companion.words.phrases import message_words

    sentinel = "END-OF-FUZZ"

    def clean(text: str) -> None:
        code = normalise_scan(text)
        if not code:
            return
        _check(len(code) <= MAX_CODE and not any(ord(c) < 0x20 or ord(c) == 0x7F for c in code), f"{code!r}")
        decoded = decode_entry(Entry(code, "scanner:serial"))
        _check(not isinstance(decoded, Rejected) or bool(message_words(decoded.message)),
                   f"{code!r} rejected without words")

    def target(data: bytes) -> None:
        controller, end = pty.openpty()  # a serial scanner: one code a line, on a port of its own each time
        scanner = SerialScanner(os.ttyname(end), clock=ManualClock(), duplicate_window=0.0)
        try:
            os.write(controller, data + f"\r\n{sentinel}\r\n".encode())
            codes = scanner.read_codes(threading.Event())
            while (text := next(codes)) != sentinel:
                clean(text)
        finally:
            scanner.release()
            os.close(controller)
            os.close(end)
        decoder = WedgeDecoder()  # a keyboard-wedge scanner: the same bytes as key events (type, code, value)
        for kind, code, value in struct.iter_unpack("<BHb", data[: len(data) - len(data) % 4]):
            if (typed := decoder.feed(InputEvent(0, 0, kind & 3, code & 0x2FF, value))) is not None:
                clean(typed)

    return target


BUILDERS: dict[str, Callable[[], Target]] = {
    "cards": _cards, "keypad": _keypad, "transcript": _transcript, "gamelog": _gamelog, "config": _config,
    "layout": _layout, "from-pico": _from_pico, "to-pico": _to_pico, "scanner": _scanner,
}


def load_target(name: str) -> Target:
    """A target by name, or `module:function`."""
    if name in BUILDERS:
        return BUILDERS[name]()
    module, _colon, function = name.partition(":")
    target: Target = getattr(importlib.import_module(module), function)
    return target


def main(argv: list[str]) -> None:
    import atheris

    with atheris.instrument_imports(include=INSTRUMENTED):
        target = load_target(argv[1])
    atheris.Setup([argv[0], *argv[2:]], target)
    atheris.Fuzz()


# --- the seeds and the runs, in the parent process


def seeds(names: Sequence[str], directory: Path) -> dict[str, list[bytes]]:
    """Good inputs for the targets named; `directory` is scratch space for the scripted games."""
    from companion import ledlink
    from companion.bench.reliability import script
    from companion.boards import LAYOUT_DIR
    from companion.config import DEFAULTS_PATH
    from companion.cribbage.cards import DECK
    from companion.entry.keymap import KEYS

    games = ("two", "four", "muggins match", "five-card") if {"transcript", "gamelog"} & set(names) else ()
    logs = [log for variant in games for log in script(variant, 14, 1, directory / variant).logs.values()]
    labels = sorted(KEYS)
    presses = ["5", "5A", "*1B", "#123C", "B", "1D0A", "#*4C", "95"]  # cards, faces, pegging, undo, slips
    to_pico = [ledlink.encode(ledlink.Message(seq, kind, body)) for seq, (kind, body) in enumerate([
        (ledlink.HELLO, ledlink.hello_body()), (ledlink.CONFIG, ledlink.config_body(12, 2, "GRB", 1000, 3)),
        (ledlink.FRAME, ledlink.frame_body([(255, 0, 0)] * 12)), (ledlink.SET, ledlink.set_body([(3, (1, 2, 3))])),
        (ledlink.BRIGHTNESS, b"\x40"), (ledlink.WALK, ledlink.walk_body((0, 9, 0), 30, [1, 2, 3])),
        (ledlink.FLASH, ledlink.flash_body((9, 0, 0), 2, 200, [4])),
        (ledlink.CELEBRATE, ledlink.celebrate_body((0, 0, 9), 500, [5, 6])), (ledlink.PING, b""),
        (ledlink.KEYPAD, bytes(range(8)))], start=1)]
    from_pico = [ledlink.encode(ledlink.Message(seq, kind, body)) for seq, kind, body in [
        (1, ledlink.HELLO_REPLY, bytes((ledlink.VERSION, 63)) + struct.pack("<H", 682) + b"crib 1.0"),
        (2, ledlink.ACK, bytes((ledlink.CONFIG,))), (3, ledlink.NAK, bytes((ledlink.BAD_CRC,))),
        (1, ledlink.KEY, b"\x05\x01"), (2, ledlink.KEY, b"\x05\x00")]]
    wedge = b"".join(struct.pack("<BHb", 1, code, 1) for code in (46, 6, 35, 28))  # C 5 H Enter
    every = {
        "cards": [c.payload.encode() for c in DECK] + [str(c).encode() for c in DECK]
        + [b"go", b"undo", b"XG", b"peg 2 5", b"claim 12", b"]d1C5H\r\n"],
        "keypad": [bytes(labels.index(key) | 0x10 for key in sequence) for sequence in presses],
        "transcript": logs,
        "gamelog": logs,
        "config": [DEFAULTS_PATH.read_bytes(), b'[game]\nplayers = ["Ann", "Bob", "Cat"]\nvariant = "three"\n'],
        "layout": [path.read_bytes() for path in sorted(LAYOUT_DIR.glob("*.json"))],
        "from-pico": [*from_pico, b"".join(from_pico)],
        "to-pico": [*to_pico, b"".join(to_pico[1:4])],
        "scanner": [b"C5H\r\n", b"]d1CJS\n", b"XG\r", b"5H\n\x1dC5H\r\n", wedge],
    }
    return {name: every[name] for name in names}


@dataclasses.dataclass
class Result:
    runs: int = 0
    coverage: int = 0  # libFuzzer's "cov": the edges of the instrumented code taken
    features: int = 0  # its "ft"
    seconds: float = 0.0
    crashes: int = 0
    crash: dict[str, str] | None = None  # the exception's last line, and the input that raised it


_STATS = re.compile(r"^#(\d+)\s.*?cov: (\d+) ft: (\d+)", re.MULTILINE)
_EXECUTED = re.compile(r"^stat::number_of_executed_units: *(\d+)", re.MULTILINE)


def fuzz(name: str, directory: Path, *, runs: int | None = None, seconds: int | None = None,
         seed_inputs: Sequence[bytes] = (), max_len: int = 8192) -> Result:
    """Fuzz one target in a process of its own, with `directory` (empty, removed by the caller) for its corpus,
    crashing inputs and scratch files."""
    corpus, crashes, scratch = directory / "corpus", directory / "crashes", directory / "scratch"
    for folder in (corpus, crashes, scratch):
        folder.mkdir(parents=True)
    for data in seed_inputs:
        (corpus / hashlib.sha1(data).hexdigest()).write_bytes(data)
    flags = [f"-artifact_prefix={crashes}/", f"-max_len={max_len}", "-timeout=20", "-rss_limit_mb=2048",
             "-print_final_stats=1"]
    flags += [f"-runs={runs}"] if runs is not None else []
    flags += [f"-max_total_time={seconds}"] if seconds is not None else []
    start, limit = time.perf_counter(), (seconds or 60) + 300
    try:
        done = subprocess.run([sys.executable, "-m", "companion.bench.fuzz", name, *flags, str(corpus)],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace",
                              timeout=limit, check=False, env={**os.environ, "TMPDIR": str(scratch)})
        log, failed = done.stdout, done.returncode != 0  # atheris prints the exception on stdout
    except subprocess.TimeoutExpired as error:
        partial = error.stdout.decode(errors="replace") if isinstance(error.stdout, bytes) else error.stdout or ""
        log, failed = f"{partial}\nno answer within {limit} s", True
    result = Result(seconds=round(time.perf_counter() - start, 1))
    stats = _STATS.findall(log)
    if stats:
        result.runs, result.coverage, result.features = (int(n) for n in stats[-1])
    if executed := _EXECUTED.search(log):  # -print_final_stats, crash or not
        result.runs = int(executed[1])
    found = sorted(crashes.iterdir())
    if failed or found:
        result.crashes = 1
        data = found[0].read_bytes() if found else b""
        result.crash = {"error": _last_error(log), "input": found[0].name if found else "",
                        "bytes": repr(data[:2000])}
    return result


def _last_error(log: str) -> str:
    """The exception's last line, which atheris prints first (or libFuzzer's own line for a timeout and the like)."""
    lines = log.splitlines()
    header = next((i for i, line in enumerate(lines) if "=== Uncaught Python exception: ===" in line), None)
    if header is not None and (said := [line for line in lines[header + 1:] if line.strip()]):
        return said[0]
    return next((line for line in lines if "ERROR: libFuzzer" in line), lines[-1] if lines else "no output")


def _progress(line: str) -> None:
    print(f"  {line}", file=sys.stderr, flush=True)


def run(quick: bool) -> dict[str, object]:
    try:
        import atheris  # noqa: F401 - only whether it is there; each target's process uses it
    except ImportError:
        return {"skipped": f"atheris is not installed: it is a development tool, `{INSTALL}` installs it (CPython "
                           "3.11-3.13 on x86-64 Linux, where its wheels are)"}
    base = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
    results: dict[str, Result] = {}
    with tempfile.TemporaryDirectory(prefix="crib-fuzz-", dir=base) as scratch:
        directory = Path(scratch)
        inputs = seeds(TARGETS, directory / "games")
        for name in TARGETS:
            results[name] = fuzz(name, directory / name, runs=QUICK_RUNS if quick else None,
                                 seconds=None if quick else FULL_SECONDS, seed_inputs=inputs[name],
                                 max_len=MAX_LEN[name])
            done = results[name]
            _progress(f"fuzz {name}: {done.runs:,} runs, cov {done.coverage}, {done.seconds} s, "
                      f"{done.crashes} crashes" + (f" ({done.crash['error']})" if done.crash else ""))
    return {
        "targets": {name: dataclasses.asdict(result) for name, result in results.items()},
        "total_runs": sum(r.runs for r in results.values()),
        "total_crashes": sum(r.crashes for r in results.values()),
        "total_seconds": round(sum(r.seconds for r in results.values()), 1),
        "how": (f"each target in its own process for {QUICK_RUNS} runs" if quick else
                f"each target in its own process for {FULL_SECONDS} s") + " from a seed corpus of good inputs",
    }


if __name__ == "__main__":
    main(sys.argv)
