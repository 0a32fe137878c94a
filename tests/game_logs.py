"""Game logs in a state directory for the tests of what reads them back (statistics, `crib stats`): inputs
written as the table writes them, or the sample game to 121 (tests/data/games/two_121.jsonl) copied in."""

from __future__ import annotations

import shutil
from pathlib import Path

from companion.cribbage.transcript import Input, input_to_line

SAMPLE = Path(__file__).parent / "data" / "games" / "two_121.jsonl"


def write_log(state_dir: Path, number: int, inputs: list[Input]) -> Path:
    path = state_dir / "games" / f"{number:04d}.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(input_to_line(inp) + "\n" for inp in inputs), encoding="utf-8")
    return path


def copy_sample(state_dir: Path, number: int) -> Path:
    path = state_dir / "games" / f"{number:04d}.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(SAMPLE, path)
    return path
