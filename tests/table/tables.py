"""A table for the tests: the sample game on the two-track board, a fresh log in a temporary folder, entries typed
in and drained as the daemon's loop would."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.base.clock import ManualClock
from companion.boards import load_layout
from companion.entry import Entry
from companion.gamelog import GameLog
from companion.table import Outcome, Table
from tests.sample_deal import GAME

LAYOUT = load_layout("two-track-121")


def new_table(tmp_path: Path, clock: ManualClock | None = None, **options: Any) -> Table:
    return Table(GameLog.open(tmp_path / "games" / "0001.jsonl"), setup=GAME, layout=LAYOUT,
                 clock=clock or ManualClock(), new_log=lambda: GameLog.open(tmp_path / "games" / "0002.jsonl"),
                 **options)


def enter(table: Table, *texts: str, source: str = "terminal") -> list[Outcome]:
    """Each text entered, then every outcome of the queue."""
    for text in texts:
        table.emit(Entry(text, source))
    return list(table.drain())
