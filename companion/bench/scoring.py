"""Show scoring throughput: itemised single calls, per-hand fast totals, and `crib score --batch`.

- score_show_per_s, show_total_per_s: one hand at a time through the engine (itemised; total only);
- batch_in_process_per_s: `crib score --batch`'s scorer on 100,000 lines of text, parsed and scored in numpy
  arrays (the best of fifteen runs, so a busy machine shows what the code can do; tables built beforehand);
- batch_end_to_end_per_s: `crib score --batch FILE` of the same 100,000 lines as a command, from starting
  the interpreter to the last total written (the best of three).
"""

from __future__ import annotations

import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from companion.batch import batch_totals
from companion.cribbage.cards import DECK
from companion.cribbage.scoring import score_show, show_total

BATCH_LINES = 100_000


def crib_command() -> list[str]:
    """How to run `crib` with this interpreter: its console script beside it, else the module."""
    script = Path(sys.executable).parent / "crib"
    return [str(script)] if script.exists() else [sys.executable, "-m", "companion.cli"]


def run(quick: bool) -> dict[str, object]:
    rng = random.Random(3)
    deals = [rng.sample(DECK, 5) for _ in range(20_000 if quick else 200_000)]
    start = time.perf_counter()
    for cards in deals:
        score_show(cards[:4], cards[4])
    itemised = time.perf_counter() - start
    show_total(deals[0][:4], deals[0][4])  # its rank table built once, before the clock starts
    start = time.perf_counter()
    for cards in deals:
        show_total(cards[:4], cards[4])
    totals = time.perf_counter() - start
    lines = BATCH_LINES // 10 if quick else BATCH_LINES
    text = "".join(" ".join(str(c) for c in rng.sample(DECK, 5)) + "\n" for _ in range(lines))
    batch_totals(text[:100])  # numpy imported and the tables built before the clock starts
    in_process = []
    for _ in range(2 if quick else 15):
        start = time.perf_counter()
        batch_totals(text)
        in_process.append(time.perf_counter() - start)
    end_to_end = []
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "hands.txt"
        path.write_text(text)
        for _ in range(1 if quick else 3):
            start = time.perf_counter()
            subprocess.run([*crib_command(), "score", "--batch", str(path)], check=True, stdout=subprocess.DEVNULL)
            end_to_end.append(time.perf_counter() - start)
    return {
        "hands": len(deals),
        "score_show_per_s": round(len(deals) / itemised),
        "show_total_per_s": round(len(deals) / totals),
        "batch_lines": lines,
        "batch_in_process_per_s": round(lines / min(in_process)),
        "batch_end_to_end_per_s": round(lines / min(end_to_end)),
    }
