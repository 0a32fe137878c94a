"""`crib bench`'s start-up figures: the three commands run, and the ratios are to the bare interpreter."""

from __future__ import annotations

from companion.bench import startup


def test_a_quick_run_reports_each_start_and_the_ratios():
    figures = startup.run(quick=True)
    assert figures["runs"] == 3
    assert all(figures[f"{name}_ms"] > 0 for name in ("bare", "version", "score"))
    for name in ("version", "score"):  # the milliseconds are rounded, the ratios taken before that
        assert abs(figures[f"{name}_ratio"] - figures[f"{name}_ms"] / figures["bare_ms"]) < 0.05
