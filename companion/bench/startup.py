"""How soon `crib` answers, as a ratio to a bare start of the same interpreter measured in the same run.

- bare_ms: `python -c pass` with this interpreter (its site packages and all);
- version_ms, score_ms: `crib --version` and `crib score 5H 5D 5C JS 5S`;
- version_ratio, score_ratio: those over bare_ms (the goal is at most 3).

Each is the median of runs taken in turn (bare, version, score, bare, ...), so a busy machine slows all alike.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time

from companion.bench.scoring import crib_command

SCORE = ["score", "5H", "5D", "5C", "JS", "5S"]


def _seconds(argv: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def run(quick: bool) -> dict[str, object]:
    commands = {"bare": [sys.executable, "-c", "pass"], "version": [*crib_command(), "--version"],
                "score": [*crib_command(), *SCORE]}
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(3 if quick else 21):
        for name, argv in commands.items():
            times[name].append(_seconds(argv))
    median = {name: statistics.median(values) for name, values in times.items()}
    return {
        "runs": len(times["bare"]),
        **{f"{name}_ms": round(1000 * value, 1) for name, value in median.items()},
        "version_ratio": round(median["version"] / median["bare"], 2),
        "score_ratio": round(median["score"] / median["bare"], 2),
    }
