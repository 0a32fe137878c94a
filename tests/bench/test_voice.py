"""The voice benchmark's figures exist and are of the right kind (`crib bench --only voice` runs it long)."""

from __future__ import annotations

import shutil

import pytest

from companion.bench import voice


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed: dev.py installs it")
def test_the_quick_voice_benchmark_measures_first_sound_and_the_input_to_led_figure_with_and_without_speech():
    figures = voice.run(quick=True)
    sound = figures["input_to_first_sound_ms"]
    assert isinstance(sound, dict) and sound["samples"] >= 10 and 0 < sound["median"] <= sound["p99"]
    latency = figures["input_latency_ms"]
    assert isinstance(latency, dict) and latency["without_voice"]["samples"] == latency["with_voice"]["samples"] > 20
