"""The board's voice: a speech engine run as a program, its sound played on the sound card or written to files.

`SpokenVoice` runs espeak-ng (Debian's package) or Piper (a neural voice whose program and voice files the user
installed; nothing is ever downloaded) and pipes the sound to ALSA's `aplay` on the configured device (the 3.5 mm
jack, a USB speaker, an I2S amplifier: hardware/README.md). `RecordedVoice` writes each utterance as NNNN.wav with
its words in NNNN.txt instead (`crib sim --speak-to DIR`, [voice] record_to). `SimulatedVoice` keeps what it was
asked to say, and can be unplugged.

`Speaker` is the worker: a thread of its own takes utterances from a queue, so the table never waits for speech;
`cut()` (a new deal) drops what is queued and stops the utterance being said by terminating its programs. The
device behind it is watched like the others (presence.py): a sound device that fails is missing (the utterances
meanwhile are dropped: the game goes on), and is tried again in the background until it works, when it is back.
Tests drive the worker synchronously (`thread=False`, `run_pending`) on a manual clock.
"""

from __future__ import annotations

import contextlib
import json
import logging
import queue
import re
import shutil
import subprocess
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import IO

from companion.devices.base import Clock, DeviceError, DeviceMissing, DeviceProblem, DeviceUnplugged, Fault, Voice
from companion.devices.presence import Watch
from companion.view.speech import Utterance

log = logging.getLogger(__name__)

LANGUAGE_VOICES = {"en": "en", "de": "de"}
"""espeak-ng's voice for each language the board speaks, when [voice] voice is ""."""
PROBE_SECONDS = 0.01
"""A device is tried by playing this much silence: opening it is the test."""
CLOSE_WAIT_SECONDS = 5.0
"""At closing, what is queued may finish for this long (the last count of a script), then it is cut."""
_NUMBERED = re.compile(r"(\d{4,})\.wav")


class Engine:
    """How one engine makes speech: the command for an utterance, its sound as WAV on stdout or in a file."""

    def __init__(self, engine: str, *, voice: str = "", rate: int = 160, volume: int = 100) -> None:
        self.engine = engine
        self.voice = voice
        self.rate = rate
        self.volume = volume
        self.sample_rate = 22050
        """Piper's raw output: the rate its voice file names (espeak-ng writes a WAV header)."""

    def check(self) -> None:
        """DeviceError saying what to install when the engine or its voice is not there."""
        program = "espeak-ng" if self.engine == "espeak-ng" else "piper"
        if shutil.which(program) is None:
            raise DeviceMissing(Fault.NO_ENGINE, program=program)
        if self.engine == "piper":
            model = Path(self.voice)
            if not self.voice or not model.is_file():
                raise DeviceError(Fault.PIPER_VOICE, value=self.voice)
            try:
                config = json.loads(model.with_name(model.name + ".json").read_text(encoding="utf-8"))
                self.sample_rate = int(config["audio"]["sample_rate"])
            except (OSError, ValueError, KeyError, TypeError) as error:
                raise DeviceError(Fault.VOICE_RATE, path=str(model), error=str(error)) from None

    def command(self, language: str, output: Path | None = None) -> list[str]:
        """The engine's command, the text on its stdin; the sound to `output`, else to stdout (espeak-ng: WAV,
        Piper: raw 16-bit samples at `sample_rate`)."""
        if self.engine == "piper":
            out = ["-f", str(output)] if output is not None else ["--output-raw"]
            return ["piper", "--model", self.voice, "--length-scale", f"{160 / self.rate:.3f}", *out]
        voice = self.voice or LANGUAGE_VOICES.get(language, "en")
        out = ["-w", str(output)] if output is not None else ["--stdout"]
        return ["espeak-ng", "-v", voice, "-s", str(self.rate), "-a", str(self.volume), *out]

    def player(self, device: str) -> list[str]:
        """aplay's command for the engine's stdout on `device`."""
        raw = ["-t", "raw", "-f", "S16_LE", "-c", "1", "-r", str(self.sample_rate)] if self.engine == "piper" else []
        return ["aplay", "-q", "-D", device, *raw, "-"]


class Programs:
    """The programs saying one utterance, which another thread may terminate."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._running: list[subprocess.Popen[bytes]] = []
        self._cut = False

    def start(self, argv: Sequence[str], *, stdin: IO[bytes] | int | None = subprocess.PIPE,
              stdout: IO[bytes] | int | None = subprocess.DEVNULL) -> subprocess.Popen[bytes]:
        with self._lock:
            if self._cut:
                raise CutShort
            process = subprocess.Popen(argv, stdin=stdin, stdout=stdout, stderr=subprocess.PIPE)
            self._running.append(process)
            return process

    def begin(self) -> None:
        with self._lock:
            self._cut = False
            self._running.clear()

    def cut(self) -> bool:
        """Terminate what is running; True when something was."""
        with self._lock:
            self._cut = True
            running, self._running = self._running, []
        for process in running:
            with contextlib.suppress(OSError):
                process.terminate()
        return bool(running)

    @property
    def was_cut(self) -> bool:
        return self._cut


class CutShort(Exception):
    """The utterance was cut short before its programs started."""


def _finish(process: subprocess.Popen[bytes], programs: Programs, program: str, device: str | None = None) -> None:
    """Wait for `process` (aplay when `device` is given); a failure (not a cut) is a DeviceError with the program's
    own words, or its exit status when it said none."""
    err = process.stderr.read() if process.stderr is not None else b""
    process.wait()
    if process.returncode != 0 and not programs.was_cut:
        words = " ".join(err.decode(errors="replace").split())[-300:]
        said = {"error": words} if words else {"status": process.returncode}
        if device is None:
            raise DeviceError(Fault.ENGINE_FAILED, program=program, **said)
        raise DeviceError(Fault.APLAY_FAILED, device=device, **said)


class SpokenVoice(Voice):
    """Speech played on an ALSA device: the engine's sound piped into aplay."""

    def __init__(self, engine: Engine, device: str = "default") -> None:
        self.engine = engine
        self.device = device
        self.programs = Programs()
        engine.check()
        if shutil.which("aplay") is None:
            raise DeviceMissing(Fault.NO_APLAY)

    def probe(self) -> None:
        """Open the sound device by playing a moment of silence: DeviceError when it is not there."""
        silence = bytes(2 * round(22050 * PROBE_SECONDS))
        result = subprocess.run(["aplay", "-q", "-D", self.device, "-t", "raw", "-f", "S16_LE", "-c", "1", "-r",
                                 "22050", "-"], input=silence, capture_output=True, check=False, timeout=10)
        if result.returncode != 0:
            words = " ".join(result.stderr.decode(errors="replace").split())[-300:]
            raise DeviceMissing(Fault.SOUND_DEVICE, device=self.device, error=words)

    def speak(self, utterance: Utterance) -> None:
        self.programs.begin()
        try:
            engine = self.programs.start(self.engine.command(utterance.language), stdout=subprocess.PIPE)
            assert engine.stdin is not None and engine.stdout is not None
            try:
                player = self.programs.start(self.engine.player(self.device), stdin=engine.stdout)
            finally:
                engine.stdout.close()  # the player holds it now; the engine sees a closed pipe if the player dies
            with contextlib.suppress(BrokenPipeError):
                engine.stdin.write(utterance.text.encode())
                engine.stdin.close()
            _finish(player, self.programs, "aplay", self.device)
            _finish(engine, self.programs, self.engine.engine)
        except CutShort:
            return

    def cut(self) -> None:
        self.programs.cut()

    def close(self) -> None:
        self.programs.cut()


class RecordedVoice(Voice):
    """Each utterance written to `directory` as NNNN.wav, its words in NNNN.txt (numbered on from what is there)."""

    realtime = False

    def __init__(self, engine: Engine, directory: Path) -> None:
        self.engine = engine
        self.directory = directory
        self.programs = Programs()
        engine.check()
        try:
            directory.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise DeviceError(Fault.RECORD_FOLDER, path=str(directory), error=str(error.strerror)) from None
        numbers = [int(m.group(1)) for p in directory.iterdir() if (m := _NUMBERED.fullmatch(p.name))]
        self.count = max(numbers, default=0)

    def speak(self, utterance: Utterance) -> None:
        self.count += 1
        stem = self.directory / f"{self.count:04d}"
        self.programs.begin()
        try:
            engine = self.programs.start(self.engine.command(utterance.language, stem.with_suffix(".wav")))
        except CutShort:
            return
        assert engine.stdin is not None
        engine.stdin.write(utterance.text.encode())
        engine.stdin.close()
        _finish(engine, self.programs, self.engine.engine)
        try:
            stem.with_suffix(".txt").write_text(utterance.text + "\n", encoding="utf-8")
        except OSError as error:
            raise DeviceError(Fault.RECORD_WRITE, path=f"{stem}.txt", error=str(error.strerror)) from None

    def cut(self) -> None:
        self.programs.cut()


class SimulatedVoice(Voice):
    """What the board would say, kept in `said`; `problem` set unplugs it (speaking and opening then fail with it)."""

    def __init__(self) -> None:
        self.said: list[Utterance] = []
        self.cuts = 0
        self.problem: DeviceProblem | None = None

    def probe(self) -> None:
        if self.problem:
            raise DeviceUnplugged(self.problem)

    def speak(self, utterance: Utterance) -> None:
        self.probe()
        self.said.append(utterance)

    def cut(self) -> None:
        self.cuts += 1


class Speaker:
    """The speech worker: utterances queue up and are said one after another, off the table's thread.

    The `watch` opens (and so tests) the voice; while it fails the voice is missing (`problem`), utterances are dropped
    and it is tried again with a growing delay. `muted` drops utterances too, and cuts the one being said."""

    name = "loudspeaker"

    def __init__(self, watch: Watch[Voice], *, thread: bool = True) -> None:
        self.watch = watch
        self.clock: Clock = watch.clock
        self.queue: queue.Queue[Utterance | None] = queue.Queue()
        self.muted = False
        self.said = 0
        self._speaking: Voice | None = None
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self.watch.open(self.clock.monotonic())
        if thread:
            self._thread = threading.Thread(target=self._run, name="speaker", daemon=True)
            self._thread.start()

    @property
    def problem(self) -> DeviceProblem | None:
        return self.watch.problem

    def say(self, utterance: Utterance) -> None:
        """Queue `utterance` (from the table's thread; never waits)."""
        if not self.muted:
            self.queue.put(utterance)

    def cut(self) -> None:
        """Drop what is queued and cut the utterance being said short (not when recording: files keep all)."""
        with self._lock:
            voice = self._speaking or self.watch.device
        if voice is not None and not voice.realtime:
            return
        with contextlib.suppress(queue.Empty):
            while True:
                self.queue.get_nowait()
        if voice is not None:
            voice.cut()

    def mute(self, muted: bool) -> None:
        self.muted = muted
        if muted:
            self.cut()

    def run_pending(self) -> None:
        """Say everything queued now, on this thread (the tests' way to drive the worker)."""
        with contextlib.suppress(queue.Empty):
            while True:
                utterance = self.queue.get_nowait()
                if utterance is not None:
                    self._say(utterance)
        self.poll()

    def poll(self) -> None:
        """A missing voice is tried again when due (so its coming back is noticed with nothing to say)."""
        if self.watch.device is None:
            self.watch.open(self.clock.monotonic())

    def _run(self) -> None:
        while True:
            try:
                utterance = self.queue.get(timeout=0.5)
            except queue.Empty:
                self.poll()
                continue
            if utterance is None:
                return
            self._say(utterance)

    def _say(self, utterance: Utterance) -> None:
        now = self.clock.monotonic()
        voice = self.watch.open(now)
        if voice is None or self.muted:
            return  # missing: the game goes on without it
        with self._lock:
            self._speaking = voice
        try:
            voice.speak(utterance)
            self.said += 1
        except Exception as error:  # the device boundary: a failing sound card never reaches the table
            self.watch.lost(error, self.clock.monotonic())
        finally:
            with self._lock:
                self._speaking = None

    def close(self) -> None:
        """Let what is queued finish for a while (all of it when recording), then stop."""
        if self._thread is not None:
            voice = self.watch.device
            self.queue.put(None)
            self._thread.join(None if voice is not None and not voice.realtime else CLOSE_WAIT_SECONDS)
            if self._thread.is_alive():
                self.cut()
                self.queue.put(None)
                self._thread.join(CLOSE_WAIT_SECONDS)
        self.watch.close()


def open_voice(engine: Engine, *, device: str, record_to: str) -> Voice:
    """The configured voice, opened and tested now: DeviceError when it cannot speak."""
    if record_to:
        return RecordedVoice(engine, Path(record_to))
    voice = SpokenVoice(engine, device)
    voice.probe()
    return voice
