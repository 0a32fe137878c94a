"""Rank tables for the discard analysis, built from the engine's own `score_show` at first use.

Fifteens, pairs and runs depend on ranks only, so one look-up per rank multiset replaces a whole count;
flush and nobs (the only suit-dependent points) are added exactly by the analysis. Ranks are indexed
0 (ace) to 12 (king) here, so a table can be indexed by numpy arrays of ranks.
"""

from __future__ import annotations

import functools
import importlib.resources
import itertools
import json
import time
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from companion.cribbage.scoring import rank_points
from companion.words.advice import AdviceDataError, AdviceRefusal, Data, Unadvised

RANKS = 13

IntArray = npt.NDArray[np.int64]


def _build(size: int) -> IntArray:
    """A dense table indexed by `size` ranks in any order (13**size entries)."""
    by_code = np.zeros(RANKS**size, dtype=np.int64)
    weights = RANKS ** np.arange(size - 1, -1, -1)
    for ranks in itertools.combinations_with_replacement(range(RANKS), size):
        if max(ranks.count(r) for r in ranks) <= 4:
            by_code[int(np.dot(ranks, weights))] = rank_points([r + 1 for r in ranks])
    every = np.sort(np.indices((RANKS,) * size).reshape(size, -1), axis=0)
    table: IntArray = by_code[weights @ every].reshape((RANKS,) * size)
    return table


@functools.cache
def rank_table(size: int) -> IntArray:
    """Points for `size` cards (five for a four-card hand or crib with its starter, four for three-card hands)."""
    return _build(size)


def build_seconds() -> float:
    """Build both tables afresh and return how long that took (the cost of the first analysis)."""
    start = time.perf_counter()
    _build(5)
    _build(4)
    return time.perf_counter() - start


@functools.cache
def draw_order_index(draws: int) -> tuple[IntArray, IntArray]:
    """For every ordered tuple of `draws` ranks: the ranks, and how many earlier draws had the same rank.

    The number of ways to draw distinct cards with those ranks in that order is then the product over
    positions of (cards of that rank left - earlier draws of it), which `draw_weights` computes.
    """
    ranks = np.indices((RANKS,) * draws).reshape(draws, -1)
    earlier = np.zeros_like(ranks)
    for i in range(1, draws):
        earlier[i] = (ranks[:i] == ranks[i]).sum(axis=0)
    return ranks, earlier


def draw_weights(left: IntArray, draws: int) -> IntArray:
    """Ordered ways to draw `draws` distinct cards, per rank tuple, from a pack with `left[r]` cards of rank r."""
    ranks, earlier = draw_order_index(draws)
    factors = np.clip(left[ranks] - earlier, 0, None)
    weights: IntArray = np.prod(factors, axis=0).reshape((RANKS,) * draws)
    return weights


def read_data(name: str, path: Path | None, data: Data) -> Any:
    """The JSON of a data file shipped beside the advice (`name`), or of `path`; an AdviceDataError says which
    file (`data`) could not be read, and why."""
    if path is None:
        text = importlib.resources.files(__package__).joinpath(name).read_text()
    else:
        try:
            text = path.read_text()
        except OSError as error:
            raise AdviceDataError(AdviceRefusal(Unadvised.UNREADABLE, str(path), data=data,
                                                error=error.strerror or str(error))) from error
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise AdviceDataError(AdviceRefusal(Unadvised.NOT_JSON, data=data, error=str(error))) from error


def not_in_form(data: Data, error: Exception) -> AdviceDataError:
    """A data file's JSON that is not what the command that builds it writes."""
    return AdviceDataError(AdviceRefusal(Unadvised.NOT_IN_FORM, data=data, error=str(error)))
