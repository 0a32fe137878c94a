"""Building the opponent model (`crib model`): the standard player's discards from random deals, counted; and
the table of keeps (`crib model --keeps`): his lay-away from every six ranks.

Apart from model.py and keeps.py because it runs the exact analysis (discard.py), which itself reads the model:
the imports point one way, model_build -> discard -> model, and the pro's search reads the table without it.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from companion.cribbage.cards import DECK, Card, Suit

from . import keeps
from .discard import analyse
from .keeps import KeepsJSON
from .model import ModelJSON, Role, pair_name


def build(deals: int, seed: int, progress: Callable[[int], None] | None = None) -> ModelJSON:
    """Count the discards the standard player makes from `deals` random hands, as dealer and as pone."""
    rng = random.Random(seed)
    counts: dict[Role, dict[str, int]] = {"dealer": {}, "pone": {}}
    for n in range(deals):
        cards = rng.sample(DECK, 6)
        for role, counted in counts.items():
            best = analyse(cards, dealer=role == "dealer").best
            a, b = (c.rank - 1 for c in best.discard)
            counted[pair_name(a, b)] = counted.get(pair_name(a, b), 0) + 1
        if progress is not None:
            progress(n + 1)
    return {
        "name": f"standard-discards-{deals}-seed-{seed}",
        "about": "pairs of ranks the standard player (exact analysis, uniform opponent) lays away from random "
                 "deals, counted per role; built by `crib model`",
        "deals": deals,
        "seed": seed,
        "counts": {role: dict(sorted(shown.items(), key=lambda kv: -kv[1])) for role, shown in counts.items()},
    }


def dealt(six: tuple[int, ...]) -> tuple[Card, ...]:
    """Cards of those ranks with suits in turn: two of a suit at most, so no flush can be kept."""
    suits = list(Suit)
    return tuple(Card(rank, suits[i % len(suits)]) for i, rank in enumerate(six))


def build_keeps(progress: Callable[[int], None] | None = None) -> KeepsJSON:
    """The standard player's lay-away from every six ranks, in both roles, in the data file's form."""
    laid: dict[str, list[str]] = {role: [] for role in keeps.ROLES}
    for n, six in enumerate(keeps.sixes()):
        cards = dealt(six)
        for role in keeps.ROLES:
            low, high = sorted(c.rank for c in analyse(cards, dealer=role == "dealer").best.discard)
            laid[role].append(chr(keeps.CODE + keeps.PAIRS.index((low, high))))
        if progress is not None:
            progress(n + 1)
    return {
        "name": "standard-keeps",
        "about": "the two ranks the standard player (exact analysis, uniform opponent) lays away from each six "
                 "ranks in the order of keeps.sixes(), one character each (the pair's number after '#'); "
                 "built by `crib model --keeps`",
        "laid": {role: "".join(laid[role]) for role in keeps.ROLES},
    }
