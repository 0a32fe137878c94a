"""The fuzzing bench in small: real targets fuzzed a few hundred runs through the same child processes as
`crib bench --only fuzz` find nothing, and a target that breaks is reported as a crash with its exception and
the input that broke it."""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path

import pytest

from companion.bench import fuzz
from companion.cribbage.cards import Card
from companion.cribbage.errors import CardSyntaxError

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def atheris(monkeypatch):
    pytest.importorskip("atheris")
    monkeypatch.chdir(ROOT)  # the children import `tests.bench.test_fuzz` from here


@pytest.mark.parametrize("name", ["cards", "from-pico", "to-pico"])
def test_a_short_fuzz_of_a_real_target_runs_clean(atheris, tmp_path, name):
    result = fuzz.fuzz(name, tmp_path / name, runs=200, seed_inputs=fuzz.seeds([name], tmp_path)[name],
                       max_len=fuzz.MAX_LEN[name])
    assert result.runs == 200 and result.coverage > 0
    assert (result.crashes, result.crash) == (0, None)


def raises(data: bytes) -> None:
    """A target with a bug: one card code raises."""
    with contextlib.suppress(CardSyntaxError):
        if Card.parse(data.decode("ascii", "replace")) == Card.parse("5H"):
            raise ZeroDivisionError("planted in 5H")


def misreads(data: bytes) -> None:
    """A target whose check fails on one card code."""
    fuzz._check(data != b"5H", "5H misread")


@pytest.mark.parametrize(("target", "error"), [("raises", "ZeroDivisionError: planted in 5H"),
                                               ("misreads", "Broken: 5H misread")])
def test_a_target_that_breaks_is_reported_with_its_exception_and_input(atheris, tmp_path, target, error):
    result = fuzz.fuzz(f"tests.bench.test_fuzz:{target}", tmp_path, runs=200, seed_inputs=[b"5H", b"9C"])
    assert result.crashes == 1 and result.crash is not None
    assert result.crash["error"] == error and result.crash["bytes"] == repr(b"5H")
    assert result.crash["input"].startswith("crash-")


def test_without_atheris_the_bench_says_how_to_get_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "atheris", None)  # import atheris: ImportError
    assert "pip install -e '.[dev]'" in fuzz.run(quick=True)["skipped"]
