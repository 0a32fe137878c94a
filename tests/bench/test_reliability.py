"""The reliability proofs in small: SIGKILLs at random points of scripted games of every variant lose nothing
acknowledged, and long play through the daemon leaks nothing (`crib bench --only reliability` runs them long)."""

from __future__ import annotations

import random

import pytest

from companion.bench.reliability import VARIANTS, Kills, kill_run, script, soak

EVERY_DEAL = {"deal", "play", "crib cards", "crib"}
PHASES = {"two": {"cut"}, "coached": {"coached hand"}, "three": {"cut"}, "four": set(), "five-card": set(),
          "muggins match": {"claim", "game over"}}  # and the next game of the match


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_sigkills_at_random_points_lose_nothing_acknowledged(tmp_path, variant):
    run = script(variant, 5, 2 if variant == "muggins match" else 1, tmp_path / "straight")
    assert run.refused > 0  # bad entries were tried, and each left the game as it was (script checks it)
    assert EVERY_DEAL | PHASES[variant] <= set(run.phases)
    result = Kills()
    kill_run(run, tmp_path / "killed", random.Random(variant), result, budget=6)
    assert result.kills == 6 and result.entries_acknowledged > 0
    assert (result.lost, result.crashed, result.mismatched) == (0, 0, 0), result.problems


@pytest.mark.slow
def test_complete_games_through_the_daemon_leak_no_descriptors_or_threads(tmp_path):
    finished = []
    result = soak(3, 5, tmp_path, warm_up=1, on_game=finished.append)
    assert finished == [1, 2, 3, 4] and result.crashed == 0 and result.entries > 100
    assert result.fds[1] == result.fds[0] and result.threads[1] == result.threads[0]
