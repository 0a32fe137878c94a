"""`crib sim --speak-to DIR`: the sample deal counted aloud by espeak-ng into DIR/NNNN.wav, its words in NNNN.txt;
in English and in German. The words are the board's (the page's name and count of each hand); the sound is not
silent and lasts about as long as the words take to say."""

from __future__ import annotations

import array
import shutil
import subprocess
import wave
from pathlib import Path

import pytest

from companion.cli import main
from companion.cribbage.game import replay
from companion.gamelog import GameLog, current_log
from companion.i18n import language
from companion.words.projection import state_json
from tests.golden import GOLDEN

pytestmark = pytest.mark.skipif(shutil.which("espeak-ng") is None,
                                reason="espeak-ng is not installed: python3 dev.py test installs it")
SIM = ["--players", "Ann,Bob", "--dealer", "Ann", "--quiet", "--no-web", "--set", "devices.pin_factory=mock",
       "--script", str(GOLDEN / "deal.txt")]


def sound(path: Path) -> tuple[float, int]:
    """Seconds and peak of a WAV file (16-bit mono)."""
    with wave.open(str(path)) as wav:
        assert (wav.getsampwidth(), wav.getnchannels()) == (2, 1)
        samples = array.array("h", wav.readframes(wav.getnframes()))
        return wav.getnframes() / wav.getframerate(), max(abs(s) for s in samples)


def spoken(directory: Path) -> list[str]:
    return [p.read_text(encoding="utf-8").rstrip("\n") for p in sorted(directory.glob("*.txt"))]


@pytest.mark.parametrize(("lang", "said"), [
    ("en", ["Ann: a run of three is three", "Bob: one for the go", "Ann: one for last",
            "Bob's hand: 20; fifteen two, fifteen four, fifteen six, fifteen eight, fifteen ten, fifteen twelve, "
            "fifteen fourteen, and a pair royal is twenty",
            "Ann's hand: 9; fifteen two, fifteen four, and a run of five is nine",
            "Ann's crib: 4; fifteen two, fifteen four"]),
    ("de", ["Ann: eine Folge von drei macht drei", "Bob: eins für das Go", "Ann: eins für die Letzte",
            "Hand Bob: 20; fünfzehn zwei, fünfzehn vier, fünfzehn sechs, fünfzehn acht, fünfzehn zehn, "
            "fünfzehn zwölf, fünfzehn vierzehn, und ein Drilling macht zwanzig",
            "Hand Ann: 9; fünfzehn zwei, fünfzehn vier, und eine Folge von fünf macht neun",
            "Krippe Ann: 4; fünfzehn zwei, fünfzehn vier"]),
])
def test_the_deal_is_counted_aloud_into_wav_files_with_their_words(tmp_path, capsys, lang, said):
    voice = tmp_path / "voice"
    assert main(["sim", "--lang", lang, *SIM, "--state-dir", str(tmp_path / "s"), "--speak-to", str(voice)]) == 0
    assert spoken(voice) == said
    state = state_json(replay(GameLog.open(current_log(tmp_path / "s")).inputs), lang=language(lang))
    for event in state["events"]:  # type: ignore[union-attr]
        if event["kind"] in ("hand", "crib"):  # as the page shows each count: its name and its words
            assert f"{event['name']}: {event['points']}; {event['said']}" in said
    for stem, words in zip(sorted(p.stem for p in voice.glob("*.wav")), said, strict=True):
        seconds, peak = sound(voice / f"{stem}.wav")
        assert peak > 8000, f"{stem}.wav is silent"
        assert 0.03 < seconds / len(words) < 0.2, f"{stem}.wav: {seconds:.1f} s for {len(words)} characters"


def test_speaking_on_a_computer_without_a_sound_card_says_so_and_the_game_goes_on(tmp_path, capsys, caplog):
    assert main(["sim", *SIM, "--state-dir", str(tmp_path / "s"), "--speak", "--set", "voice.device=no-such-card"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[-1] == 'ok 14 {"type": "crib", "cards": ["2C", "3D", "9S", "KH"]}'
    assert "loudspeaker: missing (sound device 'no-such-card': " in caplog.text
    assert "aplay -L lists the devices" in caplog.text


def test_a_german_voice_hears_the_hands_points_as_a_number_not_an_ordinal(tmp_path, capsys):
    # "Hand Bob: 20." would be "zwanzigste" to a German voice: the parts of a score are joined without a full stop
    voice = tmp_path / "voice"
    assert main(["sim", "--lang", "de", *SIM, "--state-dir", str(tmp_path / "s"), "--speak-to", str(voice)]) == 0
    hand = spoken(voice)[3]
    phonemes = subprocess.run(["espeak-ng", "-v", "de", "-q", "-x", hand], capture_output=True, text=True,
                              check=True, timeout=30).stdout
    assert hand.startswith("Hand Bob: 20; ")
    assert "tsv'antsIC " in phonemes.replace("\n", " ") and "tsv'antsICst" not in phonemes
