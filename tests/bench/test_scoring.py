"""`crib bench`'s scoring figures: per hand, and the batch in process and as a command."""

from __future__ import annotations

from companion.bench import scoring


def test_a_quick_run_reports_every_figure():
    figures = scoring.run(quick=True)
    assert figures["batch_lines"] == scoring.BATCH_LINES // 10
    for key in ("score_show_per_s", "show_total_per_s", "batch_in_process_per_s", "batch_end_to_end_per_s"):
        assert figures[key] > 0, key


def test_the_command_it_times_is_this_interpreters_crib():
    command = scoring.crib_command()
    assert command[-1].endswith("crib") or command[-2:] == ["-m", "companion.cli"]
