"""The game log torn and damaged: opening it keeps every input before the damage, or refuses naming the line."""

from __future__ import annotations

import json
import re
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cribbage.game import replay
from companion.gamelog import GameLog, GameLogError
from companion.i18n import language
from companion.words.logbook import finding_words
from tests.sample_deal import deal

EN = language("en")

INPUTS = deal("8H")  # a game, the starter and a whole play: twelve lines


def _written(directory: Path) -> tuple[Path, bytes]:
    game_log = GameLog.open(directory / "0001.jsonl")
    for inp in INPUTS:
        game_log.append(inp)
    return game_log.path, game_log.path.read_bytes()


def test_a_write_torn_at_any_byte_of_the_last_line_keeps_every_line_before_it(tmp_path):
    path, whole = _written(tmp_path)
    start = whole.rstrip(b"\n").rfind(b"\n") + 1  # where the last line begins
    for cut in range(start, len(whole) + 1):
        path.write_bytes(whole[:cut])
        opened = GameLog.open(path)
        if cut == len(whole) or cut == len(whole) - 1:  # whole, or only its newline lost
            assert opened.inputs == INPUTS and opened.warnings == []
        elif cut == start:
            assert opened.inputs == INPUTS[:-1] and opened.warnings == []
        else:
            assert opened.inputs == INPUTS[:-1], cut
            warning = finding_words(*opened.warnings, EN)
            assert str(path) in warning and f"line {len(INPUTS) + 1} was cut short" in warning  # after the header
        assert path.read_bytes() == b"".join(line + b"\n" for line in whole.splitlines()[: len(opened.inputs) + 1])
        assert GameLog.open(path).inputs == opened.inputs and GameLog.open(path).warnings == []  # repaired
        replay(opened.inputs)


def test_nul_bytes_left_by_a_power_cut_after_the_last_line_are_dropped(tmp_path):
    path, whole = _written(tmp_path)
    path.write_bytes(whole + b"\0" * 37)
    assert GameLog.open(path).inputs == INPUTS
    path.write_bytes(whole[:-5] + b"\0" * 37)  # the last line torn and padded
    opened = GameLog.open(path)
    assert opened.inputs == INPUTS[:-1] and opened.warnings


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_damage_anywhere_keeps_what_is_before_it_or_names_the_line(data):
    with tempfile.TemporaryDirectory() as directory:  # fsync is a no-op (tests/conftest.py)
        _damaged(Path(directory), data)


def _damaged(directory: Path, data: st.DataObject) -> None:
    path, whole = _written(directory)
    damaged = bytearray(whole)
    kind = data.draw(st.sampled_from(["flip", "insert", "delete", "overwrite"]))
    at = data.draw(st.integers(0, len(whole) - 1))
    if kind == "flip":
        damaged[at] ^= data.draw(st.integers(1, 255))
    elif kind == "insert":
        damaged[at:at] = data.draw(st.binary(min_size=1, max_size=8))
    elif kind == "delete":
        del damaged[at : at + data.draw(st.integers(1, 20))]
    else:
        chunk = data.draw(st.binary(min_size=1, max_size=20))
        damaged[at : at + len(chunk)] = chunk
    if data.draw(st.booleans()):
        damaged = damaged[: data.draw(st.integers(0, len(damaged)))]  # and torn, too
    path.write_bytes(bytes(damaged))
    same = next((i for i, (a, b) in enumerate(zip(whole, damaged, strict=False)) if a != b),
                min(len(whole), len(damaged)))
    intact = whole[:same].count(b"\n")  # whole lines, newline and all, before the first byte changed
    try:
        opened = GameLog.open(path)
    except GameLogError as error:
        match = re.search(r"line (\d+)", str(error))
        assert str(path) in str(error) and match, str(error)
        assert int(match.group(1)) > intact, str(error)
        assert path.read_bytes() == bytes(damaged)  # refused: the file is left alone to look at
        return
    kept = max(intact - 1, 0)  # the first line is the header
    assert opened.inputs[:kept] == INPUTS[:kept] and len(opened.inputs) >= kept
    for warning in (finding_words(found, EN) for found in opened.warnings):
        assert str(path) in warning and re.search(r"line \d+", warning)
    reopened = GameLog.open(path)
    assert reopened.inputs == opened.inputs and reopened.warnings == []


JSON = st.recursive(st.none() | st.booleans() | st.integers(-10**20, 10**20) | st.floats() | st.text(max_size=8)
                    | st.sampled_from(["5H", "C5H", "AS", "Ann", "Bob", "two", "standard"]),
                    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
                    max_leaves=12)
TYPES = ["game", "cut", "hand", "discard", "starter", "play", "go", "crib", "claim", "muggins", "peg", "undo", "x"]
KEYS = ["type", "players", "dealer", "target", "variant", "muggins", "match", "match_scoring", "player", "card",
        "cards", "points"]


@settings(max_examples=200, deadline=None)
@given(line=st.one_of(JSON, st.builds(lambda kind, rest: {"type": kind, **rest}, st.sampled_from(TYPES),
                                      st.dictionaries(st.sampled_from(KEYS), JSON, max_size=5))))
def test_a_line_of_any_json_is_an_input_or_a_refusal_naming_the_line(line):
    with tempfile.TemporaryDirectory() as directory:
        path, whole = _written(Path(directory))
        path.write_bytes(whole + json.dumps(line).encode() + b"\n" + whole.splitlines(keepends=True)[-1])
        try:
            opened = GameLog.open(path)
        except GameLogError as error:
            assert f"{path}: line {len(INPUTS) + 2} " in str(error)
        else:
            assert opened.inputs[: len(INPUTS)] == INPUTS and len(opened.inputs) == len(INPUTS) + 2


def test_garbage_nested_past_the_stack_is_a_damaged_line_not_a_crash(tmp_path):
    path, whole = _written(tmp_path)
    path.write_bytes(b"[" * 100_000 + b"\n" + whole)
    with pytest.raises(GameLogError, match=r": line 1 is damaged"):
        GameLog.open(path)
    path.write_bytes(whole + b"{" * 100_000)  # torn at the end: dropped with a warning
    opened = GameLog.open(path)
    assert opened.inputs == INPUTS and "cut short" in finding_words(opened.warnings[0], EN)
    opened.pending_path.write_text("[" * 100_000)
    assert opened.read_pending() is None and "unreadable" in finding_words(opened.warnings[-1], EN)
