"""The game log: durable appends, a torn last line repaired, a damaged middle line reported."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.cribbage.cards import Card
from companion.cribbage.game import replay
from companion.cribbage.transcript import GameInput, GoInput, PlayInput, StarterInput, UndoInput
from companion.gamelog import GameLog, GameLogError, current_log, next_log

INPUTS = [
    GameInput(("Ann", "Bob"), dealer="Ann", target=121),
    StarterInput(Card.parse("5C")),
    PlayInput(Card.parse("10C")),
    PlayInput(Card.parse("4C")),
    UndoInput(),
    PlayInput(Card.parse("5H")),
]


def write(path: Path) -> GameLog:
    log = GameLog.open(path)
    for inp in INPUTS:
        log.append(inp)
    return log


def test_inputs_come_back_in_order_and_the_file_is_the_transcript_format(tmp_path):
    path = tmp_path / "games" / "0001.jsonl"
    write(path)
    again = GameLog.open(path)
    assert again.inputs == INPUTS and again.warnings == []
    lines = path.read_text().splitlines()
    assert json.loads(lines[0]) == {"type": "game", "players": ["Ann", "Bob"], "dealer": "Ann", "target": 121}
    assert json.loads(lines[4]) == {"type": "undo"}
    assert replay(again.inputs).count == 15  # 10C then 5H: the undo took back 4C


def test_a_torn_last_line_is_dropped_with_a_warning_and_nothing_before_it_is_lost(tmp_path):
    path = tmp_path / "0001.jsonl"
    write(path)
    whole = path.read_bytes()
    path.write_bytes(whole + b'{"type":"play","ca')  # the crash came in the middle of a write
    log = GameLog.open(path)
    assert log.inputs == INPUTS
    assert "line 7 was cut short" in log.warnings[0] and "6 inputs before it are kept" in log.warnings[0]
    assert path.read_bytes() == whole  # truncated to the last good line
    log.append(GoInput())
    assert GameLog.open(path).inputs == [*INPUTS, GoInput()]


def test_nul_bytes_left_by_a_power_cut_are_dropped(tmp_path):
    path = tmp_path / "0001.jsonl"
    write(path)
    whole = path.read_bytes()
    path.write_bytes(whole + b"\0" * 40)
    assert GameLog.open(path).inputs == INPUTS
    assert path.read_bytes() == whole


def test_a_whole_last_line_without_its_newline_is_kept(tmp_path):
    path = tmp_path / "0001.jsonl"
    path.write_text('{"type":"game","players":["Ann","Bob"],"dealer":"Ann"}\n{"type":"starter","card":"JS"}')
    log = GameLog.open(path)
    assert log.inputs[-1] == StarterInput(Card.parse("JS")) and log.warnings == []
    log.append(PlayInput(Card.parse("5H")))
    assert len(GameLog.open(path).inputs) == 3


def test_a_damaged_line_in_the_middle_is_an_error_that_names_it(tmp_path):
    path = tmp_path / "0001.jsonl"
    write(path)
    lines = path.read_text().splitlines()
    lines[2] = lines[2][:10]
    path.write_text("\n".join(lines) + "\n")
    before = path.read_bytes()
    with pytest.raises(GameLogError, match=r"0001.jsonl: line 3 is damaged .*Fix or delete that line"):
        GameLog.open(path)
    assert path.read_bytes() == before  # nothing repaired behind the player's back


def test_a_line_that_is_not_a_table_input_is_an_error(tmp_path):
    path = tmp_path / "0001.jsonl"
    path.write_text('{"type":"game","players":["Ann","Bob"]}\n{"type":"shuffle"}\n')
    with pytest.raises(GameLogError, match="line 2 is not a table input"):
        GameLog.open(path)


def test_games_are_numbered_and_the_newest_is_current(tmp_path):
    assert current_log(tmp_path) is None
    first = next_log(tmp_path)
    GameLog.open(first)
    second = next_log(tmp_path)
    GameLog.open(second)
    assert (first.name, second.name) == ("0001.jsonl", "0002.jsonl")
    assert current_log(tmp_path) == second
