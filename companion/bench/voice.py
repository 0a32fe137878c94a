"""Voice figures for `crib bench`: the board saying what each input changed, with espeak-ng.

- input_to_first_sound_ms: from an entry put on the table's queue to the first non-zero sound sample espeak-ng
  writes into its pipe, through the daemon's step, the announcer, the speaker's queue and worker thread and the
  engine's start (median and 99th percentile over crib sim's sample deal entered again and again, everything
  said: the scores, the count after each card, whose turn it is; each input once the last is said). The sound
  card's own buffer (a few ms with aplay's defaults) comes after this.
- input_latency_ms: the table's input-to-LED figure (entry to log fsynced, pegs sent, OLED shown, as in the
  daemon benchmark) without a voice and with one speaking every utterance meanwhile, rounds interleaved.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING

from companion.bench.daemon import DEVICE_CHOICES
from companion.devices.base import Voice
from companion.devices.voice import Engine, Speaker
from companion.view.speech import Utterance

if TYPE_CHECKING:
    from companion.daemon import Daemon

WAV_HEADER = 44  # espeak-ng --stdout: a RIFF header, then 16-bit samples
EVERYTHING = ("scores", "winner", "count", "turn")


class FirstSound(Voice):
    """espeak-ng into a pipe read here (a sound card's stand-in): the time of the first non-zero sample of the first
    utterance since `reset`."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.first: float | None = None
        self.idle = threading.Event()
        self.idle.set()

    def reset(self) -> None:
        self.first = None

    def speak(self, utterance: Utterance) -> None:
        self.idle.clear()
        try:
            process = subprocess.Popen(self.engine.command(utterance.language), stdin=subprocess.PIPE,
                                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
            assert process.stdin is not None and process.stdout is not None
            process.stdin.write(utterance.text.encode())
            process.stdin.close()
            skip = WAV_HEADER
            while chunk := os.read(process.stdout.fileno(), 4096):
                sound, skip = chunk[skip:], max(0, skip - len(chunk))
                if self.first is None and sound.strip(b"\0"):
                    self.first = time.perf_counter()
            process.wait()
        finally:
            self.idle.set()


def _daemon(state_dir: Path, speak: bool) -> tuple[Daemon, FirstSound | None]:
    from companion.base.clock import SystemClock
    from companion.config import load_config
    from companion.daemon import Daemon, Notifier, open_table, setup_input
    from companion.devices.presence import Watch
    from companion.registry import open_devices

    config = load_config(overrides=DEVICE_CHOICES, system_path=None)
    clock = SystemClock()
    board = open_devices(config, clock=clock, simulate=False)
    voice = FirstSound(Engine("espeak-ng")) if speak else None
    if voice is not None:
        board.voice = Speaker(Watch(Speaker.name, lambda: voice, clock))
        board.speak = EVERYTHING
    table = open_table(config, board, state_dir=state_dir, clock=clock,
                       setup=setup_input(config, ["Ann", "Bob"], "Ann"))
    return Daemon(table, board, clock=clock, notifier=Notifier({})), voice


def _quiet(daemon: Daemon, voice: FirstSound) -> None:
    """Until the speaker has said everything queued."""
    speaker = daemon.board.voice
    assert speaker is not None
    while not speaker.queue.empty() or not voice.idle.is_set():
        time.sleep(0.002)
    time.sleep(0.005)  # the worker takes the next utterance, if any, off the queue


def _entries() -> list[str]:
    from companion.base.demo import DEMO

    return [*DEMO, *(["undo"] * 12), "undo"]  # crib sim's sample deal, then back to the starter's prompt


def first_sound(rounds: int, state_dir: Path) -> list[float]:
    from companion.entry import Entry

    daemon, voice = _daemon(state_dir, speak=True)
    assert voice is not None
    samples = []
    try:
        for _ in range(rounds):
            for text in _entries():
                voice.reset()
                start = time.perf_counter()
                daemon.table.emit(Entry(text))
                daemon.step(timeout=0)
                _quiet(daemon, voice)
                if voice.first is not None:  # an undo says nothing
                    samples.append((voice.first - start) * 1000)
    finally:
        daemon.board.close()
    return samples


def input_latency(rounds: int, state_dir: Path, *, speak: bool) -> list[float]:
    """The daemon benchmark's input-to-LED loop; with `speak`, the voice says everything meanwhile."""
    from companion.entry import Entry

    daemon, _voice = _daemon(state_dir, speak=speak)
    samples = []
    try:
        for _ in range(rounds):
            for text in _entries():
                start = time.perf_counter()
                daemon.table.emit(Entry(text))
                daemon.step(timeout=0)
                samples.append((time.perf_counter() - start) * 1000)
                time.sleep(0.02)  # entries come no faster than people make them; speech runs meanwhile
    finally:
        daemon.board.close()
    return samples


def _figures(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {"median": round(statistics.median(ordered), 2),
            "p99": round(ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))], 2), "samples": len(ordered)}


def run(quick: bool) -> dict[str, object]:
    if shutil.which("espeak-ng") is None:
        return {"skipped": "espeak-ng is not installed (sudo apt install espeak-ng)"}
    rounds = 1 if quick else 10
    with tempfile.TemporaryDirectory(prefix="crib-bench-voice-") as directory:
        base = Path(directory)
        sound = first_sound(rounds, base / "sound")
        silent: list[float] = []
        spoken: list[float] = []
        for index in range(rounds if quick else 4):  # interleaved: the machine's moods fall on both alike
            silent += input_latency(1, base / f"silent-{index}", speak=False)
            spoken += input_latency(1, base / f"spoken-{index}", speak=True)
    return {
        "input_to_first_sound_ms": _figures(sound),
        "input_latency_ms": {"without_voice": _figures(silent), "with_voice": _figures(spoken)},
        "engine": "espeak-ng --stdout into a pipe read at once (a sound card's stand-in), 22050 Hz",
    }
