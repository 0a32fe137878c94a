"""The advice: table build time, a whole six-card analysis, the straightforward loop, and the pro's
decisions (every lay-away and play of the pro in whole games against the standard and the ev player, timed one
by one, in wall-clock and processor time)."""

from __future__ import annotations

import os
import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass

from companion.advice import endgame, tables
from companion.advice.discard import analyse, analyse_slowly
from companion.advice.model import load
from companion.advice.pegging import PlayView
from companion.advice.players import Player, Seat, make
from companion.advice.selfplay import play_game
from companion.cribbage.cards import DECK, Card

CRIB_EVALUATIONS = 15 * 1035 * 44  # per six-card analysis: splits x opponent pairs x starters


def _median_ms(calls: list[float]) -> float:
    return round(statistics.median(calls) * 1000, 3)


def _percentile_ms(calls: list[float], share: float) -> float:
    ordered = sorted(calls)
    return round(ordered[min(len(ordered) - 1, int(share * len(ordered)))] * 1000, 3)


@dataclass
class _Timed:
    """A player whose every decision is timed."""

    player: Player
    plays: list[float]
    discards: list[float]
    racing: list[float]  # the plays near the end of a game (playing to the score)
    cpu: list[float]  # every decision's processor time: what the pro itself spends, whatever else runs
    rng: random.Random  # the timed player's
    level: str = "pro"

    def discard(self, cards: Sequence[Card], seat: Seat) -> tuple[Card, ...]:
        start, cpu = time.perf_counter(), time.process_time()
        laid = self.player.discard(cards, seat)
        self.discards.append(time.perf_counter() - start)
        self.cpu.append(time.process_time() - cpu)
        return laid

    def play(self, view: PlayView) -> Card:
        start, cpu = time.perf_counter(), time.process_time()
        card = self.player.play(view)
        spent = time.perf_counter() - start
        self.cpu.append(time.process_time() - cpu)
        self.plays.append(spent)
        if view.racing:
            self.racing.append(spent)
        return card


def pro_decisions(games: int) -> dict[str, object]:
    """The pro's every decision timed, in `games` games against the standard player (its tables built first)."""
    plays: list[float] = []
    discards: list[float] = []
    racing: list[float] = []
    cpu: list[float] = []

    def maker(level: str, rng: random.Random) -> Player:
        player = make(level, rng)
        return _Timed(player, plays, discards, racing, cpu, rng) if level == "pro" else player

    endgame.chances(121)  # solved once, as at first use (timed below)
    analyse(DECK[:6], dealer=True)
    start = time.perf_counter()
    for n in range(games):  # against the standard and the ev player in turn, each first dealer in turn
        play_game(("pro", ("standard", "ev")[n // 2 % 2]), n % 2, f"bench:{n}", maker=maker)
    seconds = time.perf_counter() - start
    both = plays + discards
    return {
        "games": games,
        "games_per_s": round(games / seconds, 2),
        "decisions": len(both),
        "decision_p50_ms": _percentile_ms(both, 0.5),
        "decision_p99_ms": _percentile_ms(both, 0.99),
        "decision_max_ms": _percentile_ms(both, 1.0),
        "play_p50_ms": _percentile_ms(plays, 0.5),
        "play_p99_ms": _percentile_ms(plays, 0.99),
        "play_to_the_score_p99_ms": _percentile_ms(racing, 0.99) if racing else None,
        "discard_p50_ms": _percentile_ms(discards, 0.5),
        "discard_p99_ms": _percentile_ms(discards, 0.99),
        "decision_cpu_p50_ms": _percentile_ms(cpu, 0.5),
        "decision_cpu_p99_ms": _percentile_ms(cpu, 0.99),
        "load_average_1min": round(os.getloadavg()[0], 2),
    }


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
    start = time.perf_counter()
    endgame.WinChances(endgame.load(), 121)
    solve = time.perf_counter() - start
    return {
        "hands": len(hands),
        "crib_evaluations_per_analysis": CRIB_EVALUATIONS,
        "table_build_s": round(build, 3),
        "endgame_solve_s": round(solve, 3),
        "analysis_median_ms": fast_ms,
        "analysis_p95_ms": _percentile_ms(fast, 0.95),
        "analysis_with_model_median_ms": _median_ms(modelled),
        "straightforward_hands": len(slow),
        "straightforward_median_ms": slow_ms,
        "speedup": round(slow_ms / fast_ms, 1),
        "crib_evaluations_per_s_straightforward": round(CRIB_EVALUATIONS / (slow_ms / 1000)),
        "pro": pro_decisions(2 if quick else 40),
    }
