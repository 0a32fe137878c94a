"""Self-play speed per level (games per second, one process) and, in full runs, the strength figures.

Strength: 2,000 games each of standard against easy and pro against standard (first dealer alternating,
seed 1, on every core); the pro is to win at least 60% against the standard player, and the levels are
to stay clearly apart (easy < standard < pro).
"""

from __future__ import annotations

import os
import time

from companion.advice.players import LEVELS
from companion.advice.selfplay import report
from companion.advice.selfplay import run as play


def run(quick: bool) -> dict[str, object]:
    figures: dict[str, object] = {}
    games = 4 if quick else 40
    for level in LEVELS:
        start = time.perf_counter()
        play(level, level, games, seed=2)
        figures[f"{level}_games_per_s"] = round(games / (time.perf_counter() - start), 2)
    strength_games = 20 if quick else 2000
    jobs = os.cpu_count() or 1
    for a, b in (("standard", "easy"), ("pro", "standard")):
        start = time.perf_counter()
        result = report(play(a, b, strength_games, seed=1, jobs=jobs), seed=1)
        result["seconds"] = round(time.perf_counter() - start, 1)
        figures[f"{a}_vs_{b}"] = result
    return figures
