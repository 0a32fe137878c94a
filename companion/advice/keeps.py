"""What a sensible player keeps: the standard player's lay-away from every six ranks, as dealer and as pone.

The standard player lays away by the exact analysis against a uniform opponent (as the `ev` player does, and as
a careful person roughly does). `crib model --keeps` (`model_build.build_keeps`) runs that analysis once for
each of the 18,395 ways to be dealt six ranks, in both roles, and the two cards laid away ship as `keeps.json`
(one character a hand). The pro reads the opponent's hand from it: a hand he may hold is drawn as six cards, of
which he keeps the four this table says (`pegging.opponent_holdings`).

Suits are left out: each six ranks are analysed with suits dealt in turn (no three cards of one suit), so no
flush can be kept. Where the player holds four of a suit (one deal in nine) a kept flush may decide, and two
cards of a suit laid away change a choice only between splits within a tenth of a point (a crib flush).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from typing_extensions import TypedDict

from companion.words.advice import Data

from .tables import RANKS, not_in_form, read_data

DATA_FILE = "keeps.json"
ROLES = ("dealer", "pone")
Ranks = tuple[int, ...]
PAIRS = list(itertools.combinations_with_replacement(range(1, RANKS + 1), 2))  # a discard's two ranks
CODE = 35  # the first character of the table's alphabet: '#', so no character needs escaping but the backslash


@functools.cache
def sixes() -> tuple[Ranks, ...]:
    """Every six ranks a player can be dealt (1 = ace ... 13 = king, lowest first, at most four of a rank)."""
    return tuple(six for six in itertools.combinations_with_replacement(range(1, RANKS + 1), 6)
                 if max(six.count(r) for r in six) <= 4)


@dataclass(frozen=True, eq=False)
class Keeps:
    name: str
    laid: dict[str, str]  # role -> one character per six ranks (in `sixes` order): the pair laid away
    _index: dict[Ranks, int] = field(default_factory=lambda: {six: i for i, six in enumerate(sixes())})
    _known: dict[tuple[Ranks, bool], Ranks] = field(default_factory=dict)

    def kept(self, six: Ranks, *, dealer: bool) -> Ranks:
        """The four ranks kept from `six` (lowest first) by a player who deals (`dealer`) or not."""
        known = self._known.get((six, dealer))
        if known is None:
            low, high = PAIRS[ord(self.laid[ROLES[not dealer]][self._index[six]]) - CODE]
            rest = list(six)
            rest.remove(low)
            rest.remove(high)
            known = self._known[(six, dealer)] = tuple(rest)
        return known


class KeepsJSON(TypedDict):
    """The table of keeps' data file (`crib model --keeps`): a character a six ranks, per role."""

    name: str
    about: str
    laid: dict[str, str]  # by role: the pair laid away from each six ranks, one character (from '#') each


def from_data(data: Mapping[str, Any]) -> Keeps:  # a file's JSON as read: any shape until checked here
    try:
        laid = {role: str(data["laid"][role]) for role in ROLES}
        if any(len(laid[role]) != len(sixes()) or not all(0 <= ord(c) - CODE < len(PAIRS) for c in laid[role])
               for role in ROLES):
            raise ValueError(f"each role needs {len(sixes())} characters from '#' on")
        return Keeps(str(data["name"]), laid)
    except (KeyError, TypeError, ValueError) as error:
        raise not_in_form(Data.KEEPS, error) from error


@functools.cache
def load(path: Path | None = None) -> Keeps:
    """The shipped table, or one written by `crib model --keeps --out PATH`."""
    return from_data(read_data(DATA_FILE, path, Data.KEEPS))
