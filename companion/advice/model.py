"""The opponent model: how likely a sensible player is to lay away each pair of ranks.

Derived by the project itself (`crib model`, model_build.py): deal many random six-card hands, let the standard player
(the exact analysis with a uniform opponent) choose its discard as dealer and as pone, and count the
pairs of ranks laid away. The counts ship as `opponent_model.json`; a weight per pair of cards is the
pair's share of the discards divided by how many card pairs have those ranks (16, or 6 for a pair), plus
one count of smoothing so that no discard is ever impossible.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import numpy as np
from typing_extensions import TypedDict

from companion.cribbage.cards import RANK_NAMES
from companion.words.advice import Data

from .tables import RANKS, not_in_form, read_data

DATA_FILE = "opponent_model.json"
ROLES = ("dealer", "pone")
Role = Literal["dealer", "pone"]


class ModelJSON(TypedDict):
    """The opponent model's data file (`crib model`): the pairs of ranks laid away, counted per role."""

    name: str
    about: str
    deals: int
    seed: int
    counts: dict[Role, dict[str, int]]  # by role, then by pair of ranks ("5-10")


@dataclass(frozen=True, eq=False)
class OpponentModel:
    name: str
    weights: dict[str, np.ndarray]  # role of the player laying away -> 13x13 weight per pair of cards

    def pair_weights(self, *, dealer: bool) -> np.ndarray:
        """Relative chance of one particular pair of cards (by their ranks) in a dealer's or pone's discard."""
        return self.weights["dealer" if dealer else "pone"]


UNIFORM = OpponentModel("uniform", {role: np.ones((RANKS, RANKS)) for role in ROLES})


def pair_name(a: int, b: int) -> str:
    """Ranks 0..12 as a discard is named: '5-10'."""
    low, high = sorted((a, b))
    return f"{RANK_NAMES[low + 1]}-{RANK_NAMES[high + 1]}"


def from_counts(data: Mapping[str, Any]) -> OpponentModel:  # a file's JSON as read: any shape until checked here
    """A model from the counts in the data file's form (`ModelJSON`, see `build`)."""
    try:
        weights = {}
        for role in ROLES:
            counts = data["counts"][role]
            matrix = np.zeros((RANKS, RANKS))
            for a, b in itertools.combinations_with_replacement(range(RANKS), 2):
                pairs_in_pack = 6 if a == b else 16
                matrix[a, b] = matrix[b, a] = (int(counts.get(pair_name(a, b), 0)) + 1) / pairs_in_pack
            weights[role] = matrix / matrix.max()
        return OpponentModel(str(data["name"]), weights)
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise not_in_form(Data.MODEL, error) from error


def load(path: Path | None = None) -> OpponentModel:
    """The shipped model, or one written by `crib model --out PATH`."""
    return from_counts(read_data(DATA_FILE, path, Data.MODEL))
