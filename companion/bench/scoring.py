"""Show scoring throughput: itemised single calls, fast totals, and the `crib score --batch` path."""

from __future__ import annotations

import io
import random
import time

from companion.commands.score import batch_totals
from companion.cribbage.cards import DECK
from companion.cribbage.scoring import score_show, show_total


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
    text = "".join(" ".join(str(c) for c in cards) + "\n" for cards in deals)
    start = time.perf_counter()
    for _ in batch_totals(io.StringIO(text)):
        pass
    batch = time.perf_counter() - start
    return {
        "hands": len(deals),
        "score_show_per_s": round(len(deals) / itemised),
        "show_total_per_s": round(len(deals) / totals),
        "batch_lines_per_s": round(len(deals) / batch),
    }
