"""Playing to the score: the chance of winning from any score, from what a deal brings in self-play.

`crib selfplay --endgame FILE` deals many hands between standard players and counts, per deal, the points
the pone and the dealer peg in the play (the dealer's his heels with them), the pone's hand, the dealer's
hand and the crib; those small distributions ship as `endgame.json`. From them `WinChances` solves, once
per target, the chance the pone wins from every pair of scores at the start of a deal, counting in the
order of the rules (the play, then the pone's hand, the dealer's hand, the crib; the game ends the instant
someone reaches the target). The pro reads it at three moments: laying away (each split's chance over
every starter), the end of the play (both hands known, the crib still to come), and between the two.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from typing_extensions import TypedDict

from companion.words.advice import Data

from .tables import not_in_form, read_data

DATA_FILE = "endgame.json"
REACH = 40  # play to the score once either player is this close to the target
_PAD = 64  # scores past the target a table still covers (a deal's points from one side rarely exceed it)

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True, eq=False)
class Outcomes:
    """How many points one deal brings, as probabilities by points."""

    name: str
    pegging: FloatArray  # [pone, dealer]: points pegged in the play (the dealer's his heels included)
    pone_hand: FloatArray
    dealer_hand: FloatArray
    crib: FloatArray

    @property
    def crib_mean(self) -> float:
        return float(np.dot(np.arange(len(self.crib)), self.crib))

    def hand_mean(self, *, dealer: bool) -> float:
        hand = self.dealer_hand if dealer else self.pone_hand
        return float(np.dot(np.arange(len(hand)), hand))


def _distribution(counts: Sequence[int]) -> FloatArray:
    array = np.asarray(counts, dtype=float)
    share: FloatArray = array / array.sum()
    return share


class EndgameJSON(TypedDict):
    """The endgame table's data file (`crib selfplay --endgame`): what one deal brings, counted per deal."""

    name: str
    about: str
    deals: int
    pegging: list[list[int]]  # deals by the pone's pegging (row) and the dealer's (column)
    pone_hand: list[int]  # deals by the points of the pone's hand
    dealer_hand: list[int]
    crib: list[int]


def count(deals: Sequence[tuple[int, int, int, int, int]], name: str) -> EndgameJSON:
    """The data file's form from (pone pegging, dealer pegging, pone hand, dealer hand, crib) per deal."""
    columns = np.asarray(deals, dtype=int).T
    pegging = np.zeros((columns[0].max() + 1, columns[1].max() + 1), dtype=int)
    np.add.at(pegging, (columns[0], columns[1]), 1)
    return {
        "name": name,
        "about": "points one deal brings between standard players, counted per deal; built by "
                 "`crib selfplay --endgame`",
        "deals": len(deals),
        "pegging": pegging.tolist(),
        "pone_hand": np.bincount(columns[2]).tolist(),
        "dealer_hand": np.bincount(columns[3]).tolist(),
        "crib": np.bincount(columns[4]).tolist(),
    }


def from_counts(data: Mapping[str, Any]) -> Outcomes:  # a file's JSON as read: any shape until checked here
    try:
        pegging = np.asarray(data["pegging"], dtype=float)
        pegging[0, 0] = 0.0  # the last card always pegs: a deal always moves someone
        return Outcomes(str(data["name"]), pegging / pegging.sum(), _distribution(data["pone_hand"]),
                        _distribution(data["dealer_hand"]), _distribution(data["crib"]))
    except (KeyError, TypeError, ValueError, IndexError) as error:
        raise not_in_form(Data.ENDGAME, error) from error


@functools.cache
def load(path: Path | None = None) -> Outcomes:
    """The shipped distributions, or ones written by `crib selfplay --endgame PATH`."""
    return from_counts(read_data(DATA_FILE, path, Data.ENDGAME))


def _shifted(dist: FloatArray, by: int) -> FloatArray:
    """`dist` moved `by` points (no lower than 0): a crib worth `by` more or less than the usual one."""
    moved: FloatArray = np.bincount(np.clip(np.arange(len(dist)) + by, 0, None), weights=dist).astype(float)
    return moved


class WinChances:
    """The chance of winning from any score, for one target (121 or 61)."""

    def __init__(self, outcomes: Outcomes, target: int = 121) -> None:
        self.outcomes = outcomes
        self.target = target
        t, pad = target, _PAD
        peg, hand = outcomes.pegging, outcomes.pone_hand
        rest = np.convolve(outcomes.dealer_hand, outcomes.crib)  # the dealer's show
        # w[p, d]: the pone wins from p to the dealer's d at the start of a deal (the solved table).
        w = np.zeros((t, t))
        # b[x, y]: after the play, pone at x, dealer at y; scores at or past the target end the game there.
        b = np.zeros((t + peg.shape[0], t + peg.shape[1]))
        b[t:, :] = 1.0
        b[t:, t:] = 0.5  # both past in the play: which came first is a toss-up here
        # a[x, y]: the pone's hand counted (x), the dealer (y) still to count.
        a = np.ones((t + len(hand), t))
        for total in range(2 * t - 2, -1, -1):
            cells = range(max(0, total - t + 1), min(t - 1, total) + 1)
            for p in cells:
                d = total - p
                w[p, d] = float((peg * b[p:p + peg.shape[0], d:d + peg.shape[1]]).sum())
            for x in cells:
                y = total - x
                reach = min(len(rest), t - y)
                a[x, y] = float(np.dot(rest[:reach], 1.0 - w[y:y + reach, x]))
            for x in cells:
                y = total - x
                b[x, y] = float(np.dot(hand, a[x:x + len(hand), y]))
        self.w = np.clip(w, 0.0, 1.0)  # rounding leaves some 1e-20 below 0
        w = self.w
        # Padded views: past the target, the one who got there has won.
        self._next_pone = np.vstack([w, np.ones((pad, t))])  # [new pone's score, dealer's]: w, 1 when won
        self._dealer_loses = np.vstack([1.0 - w, np.zeros((pad, t))])  # [dealer's score, pone's]

    def start(self, me: int, opponent: int, *, dealer: bool) -> float:
        """My chance at the start of a deal."""
        if dealer:
            return 1.0 - float(self.w[opponent, me])
        return float(self.w[me, opponent])

    @functools.cache  # noqa: B019 - one instance per target lives as long as the program
    def _after_hands(self, dealer: bool, crib_shift: int) -> FloatArray:
        """[x, y]: my chance when both hands are counted (me at x, the opponent at y, both short) and the
        crib is still to come, with a crib `crib_shift` points better than the usual one."""
        t = self.target
        crib = _shifted(self.outcomes.crib, crib_shift)
        table = np.zeros((t, t))
        for points, chance in enumerate(crib):
            if dealer:  # my crib: I reach the target, or the opponent is the next pone
                table += chance * self._next_pone[points:points + t, :]
            else:  # the opponent's crib: he reaches it, or I am the next pone... from his side
                table += chance * self._dealer_loses[points:points + t, :].T
        return table

    def after_play(self, me: int, opponent: int, *, dealer: bool, my_hand: int, opponent_hand: int) -> float:
        """My chance at the end of the play, both hands' points known, the crib still to count."""
        t = self.target
        first, second = (opponent + opponent_hand, me + my_hand) if dealer else (me + my_hand, opponent + opponent_hand)
        if first >= t:
            return 0.0 if dealer else 1.0
        if second >= t:
            return 1.0 if dealer else 0.0
        x, y = (second, first) if dealer else (first, second)
        return float(self._after_hands(dealer, 0)[x, y])

    @functools.cache  # noqa: B019
    def _before_hands(self, dealer: bool, crib_shift: int) -> FloatArray:
        """[x, y]: my chance after the play with my hand's points added (me at x, up to the padding), the
        opponent at y with his hand to count; the pone counts first."""
        t, pad = self.target, _PAD
        hand = self.outcomes.pone_hand if dealer else self.outcomes.dealer_hand
        table = np.zeros((t + pad, t))
        if dealer:
            after = self._after_hands(True, crib_shift)
            won = np.vstack([after, np.ones((pad, t))])  # my hand or crib past the target, once he is short
            for points, chance in enumerate(hand):
                reach = max(0, t - points)
                table[:, :reach] += chance * won[:, points:points + reach]
        else:
            after = self._after_hands(False, crib_shift)
            for points, chance in enumerate(hand):
                lifted = np.zeros((t, t))
                reach = max(0, t - points)
                lifted[:, :reach] = after[:, points:points + reach]
                table[:t] += chance * lifted
            table[t:] = 1.0  # I count first and am out
        return table

    def discard(self, me: int, opponent: int, *, dealer: bool, hands: Sequence[Sequence[int]],
                cribs: Sequence[float]) -> list[float]:
        """My chance with each way to lay away: its hand's points with each starter and its expected crib
        (mine as dealer, the opponent's as pone); the play's points from self-play."""
        t = self.target
        pegging = self.outcomes.pegging.T if dealer else self.outcomes.pegging  # [my points, his]
        mine, his = np.nonzero(pegging > 1e-5)
        chance = pegging[mine, his]
        chance = chance / chance.sum()
        me_after, opp_after = me + mine, opponent + his
        out = []
        for points, crib in zip(hands, cribs, strict=True):
            table = self._before_hands(dealer, round(crib - self.outcomes.crib_mean))
            h = np.asarray(points)
            x = np.minimum(me_after[:, None] + h[None, :], t + _PAD - 1)
            y = np.minimum(opp_after, t - 1)[:, None]
            value = table[x, y]
            value = np.where((opp_after >= t)[:, None], 0.0, value)
            value = np.where((me_after >= t)[:, None], np.where(opp_after >= t, 0.5, 1.0)[:, None], value)
            out.append(float(np.dot(chance, value.mean(axis=1))))
        return out


@functools.cache
def chances(target: int = 121) -> WinChances:
    """The shipped distributions solved for `target` (at first use)."""
    return WinChances(load(), target)
