"""The board's voice: the engines' commands, the worker and its queue (driven on this thread, on a manual clock),
a sound device that goes missing and comes back, cutting an utterance short, and espeak-ng for real (Debian's
package, which dev.py installs): its files numbered on, the sound not silent, a missing sound card's words."""

from __future__ import annotations

import array
import json
import shutil
import subprocess
import wave
from dataclasses import replace
from pathlib import Path

import pytest

from companion.config import load_config
from companion.devices.base import DeviceError, DeviceProblem, Fault, ManualClock
from companion.devices.presence import Watch
from companion.devices.voice import (
    CutShort,
    Engine,
    Programs,
    RecordedVoice,
    SimulatedVoice,
    Speaker,
    SpokenVoice,
    open_voice,
)
from companion.registry import open_speaker
from companion.view.speech import Utterance
from tests.devices.said import said

ESPEAK = shutil.which("espeak-ng")
needs_espeak = pytest.mark.skipif(ESPEAK is None, reason="espeak-ng is not installed: python3 dev.py test installs it")
PULLED = DeviceProblem(Fault.SOUND_DEVICE, {"device": "default", "error": "aplay: audio open error: No such device"})


def peak(path: Path) -> int:
    with wave.open(str(path)) as sound:
        assert (sound.getsampwidth(), sound.getnchannels()) == (2, 1)
        samples = array.array("h", sound.readframes(sound.getnframes()))
    return max((abs(s) for s in samples), default=0)


def speaker(voice: SimulatedVoice, clock: ManualClock) -> Speaker:
    return Speaker(Watch("loudspeaker", lambda: voice, clock), thread=False)


def test_espeak_ng_speaks_the_games_language_at_the_configured_rate_and_volume():
    engine = Engine("espeak-ng", rate=180, volume=80)
    assert engine.command("de") == ["espeak-ng", "-v", "de", "-s", "180", "-a", "80", "--stdout"]
    assert engine.command("en", Path("x.wav"))[-2:] == ["-w", "x.wav"]
    assert Engine("espeak-ng", voice="en-gb").command("de")[:3] == ["espeak-ng", "-v", "en-gb"]
    assert engine.player("plughw:CARD=Device") == ["aplay", "-q", "-D", "plughw:CARD=Device", "-"]


def test_piper_needs_a_voice_the_user_installed_and_plays_its_raw_samples_at_the_voices_rate(tmp_path, monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda program: f"/usr/bin/{program}")
    with pytest.raises(DeviceError, match="never downloads"):
        Engine("piper", voice=str(tmp_path / "missing.onnx")).check()
    model = tmp_path / "de_DE-thorsten-medium.onnx"
    model.write_bytes(b"onnx")
    (tmp_path / "de_DE-thorsten-medium.onnx.json").write_text(json.dumps({"audio": {"sample_rate": 22050}}))
    engine = Engine("piper", voice=str(model), rate=200)
    engine.check()
    assert engine.command("de") == ["piper", "--model", str(model), "--length-scale", "0.800", "--output-raw"]
    assert engine.player("default")[-3:] == ["-r", "22050", "-"]


def test_a_missing_engine_says_what_to_install(monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda program: None)
    with pytest.raises(DeviceError, match="apt install espeak-ng"):
        Engine("espeak-ng").check()


def test_the_worker_says_what_is_queued_in_order_and_the_table_never_waits():
    voice, clock = SimulatedVoice(), ManualClock()
    worker = speaker(voice, clock)
    worker.say(Utterance("fifteen two", "en"))
    worker.say(Utterance("and a pair is four", "en"))
    assert voice.said == []  # queued: said on the worker's turn
    worker.run_pending()
    assert [u.text for u in voice.said] == ["fifteen two", "and a pair is four"]
    assert worker.said == 2 and worker.problem is None


def test_a_cut_drops_what_is_queued_and_stops_the_voice():
    voice, clock = SimulatedVoice(), ManualClock()
    worker = speaker(voice, clock)
    worker.say(Utterance("Bob's hand: 20", "en"))
    worker.cut()
    worker.run_pending()
    assert voice.said == [] and voice.cuts == 1


def test_muted_the_worker_says_nothing_until_unmuted():
    voice, clock = SimulatedVoice(), ManualClock()
    worker = speaker(voice, clock)
    worker.mute(True)
    worker.say(Utterance("fifteen two", "en"))
    worker.run_pending()
    worker.mute(False)
    worker.say(Utterance("fifteen four", "en"))
    worker.run_pending()
    assert [u.text for u in voice.said] == ["fifteen four"]


def test_a_sound_device_that_fails_is_missing_the_game_goes_on_and_it_is_back_when_it_works(caplog):
    voice, clock = SimulatedVoice(), ManualClock()
    worker = speaker(voice, clock)
    voice.problem = PULLED
    worker.say(Utterance("fifteen two", "en"))
    worker.run_pending()  # the device fails: no error reaches the caller
    assert worker.problem == PULLED
    assert said(worker.problem) == ("sound device 'default': aplay: audio open error: No such device: check the "
                                    "speaker's cable or card, or [voice] device (aplay -L lists the devices)")
    worker.say(Utterance("fifteen four", "en"))
    worker.run_pending()  # missing: dropped, not queued up for later
    voice.problem = None
    clock.advance(0.5)
    worker.run_pending()
    assert worker.problem == PULLED  # not tried again before its time
    clock.advance(0.5)
    worker.poll()  # nothing to say, and still it is found back
    assert worker.problem is None
    worker.say(Utterance("and a pair is six", "en"))
    worker.run_pending()
    assert [u.text for u in voice.said] == ["and a pair is six"]
    assert "loudspeaker: missing (sound device 'default': aplay: audio open error: No such device: check" in caplog.text


def test_a_cut_terminates_the_programs_saying_the_utterance():
    programs = Programs()
    programs.begin()
    running = programs.start(["cat"], stdout=subprocess.DEVNULL)  # waits for its input, like a long utterance
    assert programs.cut() is True
    assert running.wait(timeout=10) != 0
    assert programs.was_cut
    with pytest.raises(CutShort):
        programs.start(["cat"])  # cut before it started: it does not start
    programs.begin()
    assert programs.cut() is False


@needs_espeak
def test_a_recorded_voice_writes_numbered_wav_files_with_their_words_and_numbers_on(tmp_path):
    (tmp_path / "0007.wav").write_bytes(b"")  # an earlier run's
    voice = RecordedVoice(Engine("espeak-ng"), tmp_path)
    voice.speak(Utterance("fifteen two, fifteen four, and a pair is six", "en"))
    voice.speak(Utterance("fünfzehn zwei, fünfzehn vier, und ein Paar macht sechs", "de"))
    assert (tmp_path / "0008.txt").read_text(encoding="utf-8") == "fifteen two, fifteen four, and a pair is six\n"
    assert (tmp_path / "0009.txt").read_text(encoding="utf-8").startswith("fünfzehn zwei")
    assert peak(tmp_path / "0008.wav") > 8000 and peak(tmp_path / "0009.wav") > 8000


@needs_espeak
def test_a_sound_card_that_is_not_there_is_a_device_error_in_alsas_words():
    with pytest.raises(DeviceError, match=r"sound device 'no-such-card'.*aplay -L"):
        open_voice(Engine("espeak-ng"), device="no-such-card", record_to="")


@needs_espeak
def test_speaking_to_a_device_that_fails_mid_utterance_is_a_device_error(monkeypatch):
    monkeypatch.setattr(SpokenVoice, "probe", lambda self: None)
    voice = SpokenVoice(Engine("espeak-ng"), "no-such-card")
    with pytest.raises(DeviceError, match="aplay on 'no-such-card' failed"):
        voice.speak(Utterance("fifteen two", "en"))


def test_crib_sim_simulates_the_voice_unless_it_was_asked_for_and_the_board_opens_the_configured_one(tmp_path):
    clock = ManualClock()
    configured = load_config(system_path=None)  # [voice] enabled as the board's own configuration would say
    configured = replace(configured, voice=replace(configured.voice, enabled=True))
    speaker = open_speaker(configured, clock=clock, simulate=True, thread=False)
    assert isinstance(speaker.watch.device, SimulatedVoice) and speaker.problem is None
    if ESPEAK is None:
        return
    asked = load_config(overrides=["voice.enabled=true", f"voice.record_to={tmp_path}"], system_path=None)
    speaker = open_speaker(asked, clock=clock, simulate=True, thread=False)  # crib sim --speak-to
    assert isinstance(speaker.watch.device, RecordedVoice)
    missing = load_config(overrides=["voice.enabled=true", "voice.device=no-such-card"], system_path=None)
    speaker = open_speaker(missing, clock=clock, simulate=False, thread=False)  # the board, its card not there
    assert speaker.watch.device is None and "no-such-card" in said(speaker.problem)
