"""The exact discard analysis: table build time, a whole six-card analysis, and the straightforward loop."""

from __future__ import annotations

import random
import statistics
import time

from companion.advice import tables
from companion.advice.discard import analyse, analyse_slowly
from companion.advice.model import load
from companion.cribbage.cards import DECK

CRIB_EVALUATIONS = 15 * 1035 * 44  # per six-card analysis: splits x opponent pairs x starters


def _median_ms(calls: list[float]) -> float:
    return round(statistics.median(calls) * 1000, 3)


def run(quick: bool) -> dict[str, object]:
    rng = random.Random(7)
    hands = [rng.sample(DECK, 6) for _ in range(30 if quick else 400)]
    build = tables.build_seconds()
    analyse(hands[0], dealer=True)  # tables built once, as at first use
    model = load()
    fast, modelled = [], []
    for i, hand in enumerate(hands):
        start = time.perf_counter()
        analyse(hand, dealer=i % 2 == 0)
        fast.append(time.perf_counter() - start)
        start = time.perf_counter()
        analyse(hand, dealer=i % 2 == 0, model=model)
        modelled.append(time.perf_counter() - start)
    slow = []
    for i, hand in enumerate(hands[: 1 if quick else 5]):
        start = time.perf_counter()
        analyse_slowly(hand, dealer=i % 2 == 0)
        slow.append(time.perf_counter() - start)
    fast_ms, slow_ms = _median_ms(fast), _median_ms(slow)
    return {
        "hands": len(hands),
        "crib_evaluations_per_analysis": CRIB_EVALUATIONS,
        "table_build_s": round(build, 3),
        "analysis_median_ms": fast_ms,
        "analysis_p95_ms": round(sorted(fast)[int(0.95 * len(fast))] * 1000, 3),
        "analysis_with_model_median_ms": _median_ms(modelled),
        "straightforward_hands": len(slow),
        "straightforward_median_ms": slow_ms,
        "speedup": round(slow_ms / fast_ms, 1),
        "crib_evaluations_per_s_straightforward": round(CRIB_EVALUATIONS / (slow_ms / 1000)),
    }
