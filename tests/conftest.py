"""Every test starts in English with an English system locale, whatever the machine's, and leaves it so; `speak`
makes a test speak another language from then on (a test is an edge, like a command's main).
Property tests have no time limit: these machines are shared and loaded, and speed is measured by `crib bench`,
never by a test. `os.fsync` does nothing in the tests' process (`fsync_is_free`). `browser`: Debian's headless
Chromium, launched once for the session. tests/README.md lists the shared fixtures."""

from __future__ import annotations

import asyncio
import compileall
import contextlib
import os
import re
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings, strategies
from hypothesis.errors import HypothesisSideeffectWarning

from companion import i18n
from tests.web.chromium import ARGS, CHROMIUM

settings.register_profile("shared-machine", deadline=None)
settings.load_profile("shared-machine")


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """`-n auto`: a worker more than the machine has cores. Some tests wait on things that run in real time (a
    fake camera's video, Chromium drawing a page), and the extra worker fills those waits: on the 2-core machine,
    back to back at a load average of 2 to 5, 3 workers ran the suite in 164 s against 178 s with 2."""
    return (os.cpu_count() or 1) + 1


def pytest_configure(config: pytest.Config) -> None:
    """Playwright's `expect` waits for a state up to 20 s instead of 5: a busy machine (two workers and their
    Chromiums starting at once) may take longer than 5 s to draw a page, and a state that comes is no failure.
    Before xdist starts its workers, what each of them would otherwise make for itself at once in a fresh clone
    is made once: Hypothesis's table of the characters UTF-8 encodes (every `st.text()`'s alphabet, 1.3 s of CPU,
    into .hypothesis/) and the bytecode (`compile_once`)."""
    with contextlib.suppress(ImportError):
        from playwright.sync_api import expect

        expect.set_options(timeout=20_000)
    if config.getoption("dist", "no") != "no" and not hasattr(config, "workerinput"):
        with warnings.catch_warnings():  # Hypothesis warns of this work before the tests: here it is the point
            warnings.simplefilter("ignore", HypothesisSideeffectWarning)
            strategies.text().validate()
        if not sys.dont_write_bytecode:
            compile_once(config)


TEST_MODULE = re.compile(r"/(test_[^/]*|conftest)\.py$")
"""The modules pytest rewrites the asserts of (the rest are compiled as Python does)."""


def compile_once(config: pytest.Config) -> None:
    """The package's and the tests' bytecode, the test modules' as pytest rewrites their asserts, written into
    __pycache__/ where missing or out of date (as a worker would write it): started together in a fresh clone,
    every worker compiled and rewrote them all (2.5 s of CPU each). Without pytest's private functions for it, the
    workers do it as before."""
    root = Path(__file__).parents[1]
    compileall.compile_dir(root / "companion", quiet=1)
    compileall.compile_dir(root / "tests", quiet=1, rx=TEST_MODULE)
    if config.getoption("assertmode") != "rewrite":
        return
    try:  # pytest's private functions: should a new pytest change them, the workers rewrite as before
        from _pytest.assertion import rewrite

        state = config.stash[rewrite.assertstate_key]
    except Exception:
        return
    for source in sorted((root / "tests").rglob("*.py")):
        if not TEST_MODULE.search(str(source)):
            continue
        try:  # a module that does not compile is left to its worker, which reports it as that module's error
            pyc = rewrite.get_cache_dir(source) / (source.name[:-3] + rewrite.PYC_TAIL)
            if rewrite._read_pyc(source, pyc) is None and rewrite.try_makedirs(pyc.parent):
                source_hash, code = rewrite._rewrite_test(source, config)
                rewrite._write_pyc(state, code, source_hash, pyc)
        except Exception:
            continue


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The long tests run first: those marked `slow` and those in a browser. `dev.py test`'s workers take what is
    left from each other (xdist's worksteal), so the run then ends on short tests, not on one long test that keeps
    a core busy while the others have nothing left. The rest keep their order (the sort is stable)."""
    items.sort(key=lambda item: not (item.get_closest_marker("slow") or "browser" in getattr(item, "fixturenames", ())))


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


@pytest.fixture(scope="session")
def _chromium() -> Iterator[tuple[Any, asyncio.AbstractEventLoop]]:
    """One Playwright and one Chromium for the session (a worker's): a launch costs a second and a half of CPU, and
    a worker took its modules' browser tests in turns, relaunching for each. Between its calls Playwright's sync API
    marks its event loop as running in the thread, where asyncio.run() would then refuse to start: the loop is
    marked so only during a test that uses the browser (`browser`)."""
    from playwright.sync_api import sync_playwright

    playwright = sync_playwright().start()
    loop = asyncio.get_running_loop()
    try:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        asyncio._set_running_loop(None)
        yield chromium, loop
        asyncio._set_running_loop(loop)
        chromium.close()
    finally:
        asyncio._set_running_loop(loop)
        playwright.stop()
        asyncio._set_running_loop(None)


class SharedBrowser:
    """The session's Chromium, for one test: `new_page(**options)` as Playwright's Browser has it (each page a fresh
    profile: no cookies or storage from another test); `close()` closes this test's pages (their sockets too: close
    them before the server they talk to stops) and leaves the browser running."""

    def __init__(self, chromium: Any) -> None:
        self.chromium = chromium

    def new_page(self, **options: Any) -> Any:
        """A page as a person who asked for reduced motion sees it (no animation to paint: a whole game's browser
        CPU less by about a sixth), unless `reduced_motion` says otherwise."""
        return self.chromium.new_page(**{"reduced_motion": "reduce", **options})

    def close(self) -> None:
        for context in self.chromium.contexts:
            context.close()


@pytest.fixture
def browser(_chromium: tuple[Any, asyncio.AbstractEventLoop]) -> Iterator[SharedBrowser]:
    """Debian's headless Chromium, launched once for the session (`SharedBrowser`); whatever the test left open is
    closed after it. A camera needs launch flags of its own: tests/web/phone.py. Where Chromium may
    be missing, skip: `pytest.mark.skipif(not CHROMIUM.exists(), reason=NO_CHROMIUM)` (tests/web/browsing.py)."""
    chromium, loop = _chromium
    asyncio._set_running_loop(loop)
    shared = SharedBrowser(chromium)
    try:
        yield shared
        shared.close()
    finally:
        asyncio._set_running_loop(None)
