"""Every test starts in English with an English system locale, whatever the machine's, and leaves it so; `speak`
makes a test speak another language from then on (a test is an edge, like a command's main).
Property tests have no time limit: these machines are shared and loaded, and speed is measured by `crib bench`,
never by a test. `os.fsync` does nothing in the tests' process (`fsync_is_free`)."""

from __future__ import annotations

import contextlib
import os

import pytest
from hypothesis import settings

from companion import i18n

settings.register_profile("shared-machine", deadline=None)
settings.load_profile("shared-machine")


@pytest.fixture(autouse=True)
def english(monkeypatch):
    for key in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    with i18n.speaking("en"):
        yield


@pytest.fixture(autouse=True)
def fsync_is_free(monkeypatch):
    """`os.fsync` returns at once: it guards only against a power cut, which no test makes (a process killed loses
    nothing it wrote either way: tests/test_crash.py kills real ones, in their own processes, where fsync is
    real), and on this machine's disk it cost more than the rest of many tests (4 ms each; the club's tournament
    night made 1,600). `crib bench` measures the board with it."""
    monkeypatch.setattr(os, "fsync", lambda fd: None)


@pytest.fixture
def speak():
    """`speak("de")`: the rest of the test speaks German (the language is reset after it)."""
    with contextlib.ExitStack() as stack:
        yield lambda code: stack.enter_context(i18n.speaking(code))
