"""Building the opponent model (`crib model`): the standard player's discards from random deals, counted.

Apart from model.py because it runs the exact analysis (discard.py), which itself reads the model: the
imports point one way, model_build -> discard -> model.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from companion.cribbage.cards import DECK

from .discard import analyse
from .model import ROLES, pair_name


def build(deals: int, seed: int, progress: Callable[[int], None] | None = None) -> dict[str, Any]:
    """Count the discards the standard player makes from `deals` random hands, as dealer and as pone."""
    rng = random.Random(seed)
    counts: dict[str, dict[str, int]] = {role: {} for role in ROLES}
    for n in range(deals):
        cards = rng.sample(DECK, 6)
        for role in ROLES:
            best = analyse(cards, dealer=role == "dealer").best
            a, b = (c.rank - 1 for c in best.discard)
            counts[role][pair_name(a, b)] = counts[role].get(pair_name(a, b), 0) + 1
        if progress is not None:
            progress(n + 1)
    return {
        "name": f"standard-discards-{deals}-seed-{seed}",
        "about": "pairs of ranks the standard player (exact analysis, uniform opponent) lays away from random "
                 "deals, counted per role; built by `crib model`",
        "deals": deals,
        "seed": seed,
        "counts": {role: dict(sorted(counts[role].items(), key=lambda kv: -kv[1])) for role in ROLES},
    }
