"""The game log: durable appends, a torn last line repaired, a damaged middle line reported."""

from __future__ import annotations

import errno
import json
import os
import resource
import signal
from pathlib import Path

import pytest

from companion.cribbage.cards import Card
from companion.cribbage.game import replay
from companion.cribbage.transcript import GameInput, PlayInput, StarterInput, UndoInput
from companion.gamelog import CannotSave, GameLog, GameLogError, current_log, next_log, repair
from companion.i18n import language
from companion.words.logbook import Finding, Found, finding_words

EN, DE = language("en"), language("de")

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
    assert json.loads(lines[0]) == {"log": "cribbage-companion", "version": 1} and again.version == 1
    assert json.loads(lines[1]) == {"type": "game", "players": ["Ann", "Bob"], "dealer": "Ann", "target": 121}
    assert json.loads(lines[5]) == {"type": "undo"}
    assert replay(again.inputs).count == 15  # 10C then 5H: the undo took back 4C


def test_a_torn_last_line_is_dropped_with_a_warning_and_nothing_before_it_is_lost(tmp_path):
    path = tmp_path / "0001.jsonl"
    write(path)
    whole = path.read_bytes()
    path.write_bytes(whole + b'{"type":"play","ca')  # the crash came in the middle of a write
    log = GameLog.open(path)
    assert log.inputs == INPUTS
    assert log.warnings == [Finding(Found.TORN, str(path), 8, {"size": 18, "kept": 6})]  # facts, in no language
    english, german = finding_words(log.warnings[0], EN), finding_words(log.warnings[0], DE)
    assert english == (f"{path}: line 8 was cut short by a crash (18 bytes) and is dropped; the 6 inputs before it "
                       "are kept")
    assert german.startswith(f"{path}: Zeile 8 wurde durch einen Absturz abgeschnitten")
    assert path.read_bytes() == whole  # truncated to the last good line
    log.append(PlayInput(Card.parse("6D")))
    assert GameLog.open(path).inputs == [*INPUTS, PlayInput(Card.parse("6D"))]


def test_nul_bytes_left_by_a_power_cut_are_dropped_with_a_warning(tmp_path):
    path = tmp_path / "0001.jsonl"
    write(path)
    whole = path.read_bytes()
    path.write_bytes(whole + b"\0" * 40)
    opened = GameLog.open(path)
    assert opened.inputs == INPUTS
    warning = finding_words(*opened.warnings, EN)
    assert f"{path}: line 8 holds only NUL bytes" in warning and "the 6 inputs before them are kept" in warning
    assert path.read_bytes() == whole


def test_nul_bytes_in_the_middle_are_damage_that_names_the_line(tmp_path):
    path = tmp_path / "0001.jsonl"
    write(path)
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join(lines[:3]) + b"\0" * 12 + b"\n" + b"".join(lines[3:]))
    with pytest.raises(GameLogError, match=r"0001.jsonl: line 4 holds NUL bytes"):
        GameLog.open(path)


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
    lines[3] = lines[3][:10]
    path.write_text("\n".join(lines) + "\n")
    before = path.read_bytes()
    with pytest.raises(GameLogError, match=r"0001.jsonl: line 4 is damaged .*run `crib repair`"):
        GameLog.open(path)
    assert path.read_bytes() == before  # nothing repaired behind the player's back


def test_a_line_that_is_not_a_table_input_is_an_error(tmp_path):
    path = tmp_path / "0001.jsonl"
    path.write_text('{"type":"game","players":["Ann","Bob"]}\n{"type":"shuffle"}\n')
    with pytest.raises(GameLogError, match="line 2 is not a table input"):
        GameLog.open(path)


GAME_LINE = '{"type":"game","players":["Ann","Bob"],"dealer":"Ann"}\n'


@pytest.mark.parametrize(("line", "why"), [
    ('{"type":"play","card":"5H","card":"6H"}', "the field 'card' is given twice"),
    ('{"type":"claim","points":NaN}', "NaN is not a number JSON allows"),
    ('{"type":"peg","player":"Ann","points":Infinity}', "Infinity is not a number JSON allows"),
    ('{"log":"cribbage-companion","version":1}', "a header belongs on line 1"),
    ('{"type":"play","card":"5H"}', "which the game refuses there"),  # no starter yet
    ('{"type":"game","players":["Ann","Ann"]}', "which the game refuses there"),
    ('{"type":"starter","card":"5H\udcff"}', "is damaged ('utf-8' codec can't decode byte 0xff"),
    ('"5H"', "is not a table input"),
])
def test_lines_the_format_does_not_allow_are_refused_naming_file_and_line(tmp_path, line, why):
    path = tmp_path / "0001.jsonl"
    path.write_text(GAME_LINE + line + "\n" + '{"type":"undo"}\n', encoding="utf-8", errors="surrogateescape")
    with pytest.raises(GameLogError, match=r"0001.jsonl: line 2 ") as caught:
        GameLog.open(path)
    assert why in str(caught.value) and "crib repair" in str(caught.value)
    assert caught.value.line == 2 and caught.value.good == len(GAME_LINE)


def test_the_header_is_optional_for_old_logs_and_a_newer_version_is_refused(tmp_path):
    old = tmp_path / "0001.jsonl"
    old.write_text(GAME_LINE)
    opened = GameLog.open(old)
    assert opened.version is None and len(opened.inputs) == 1
    opened.append(StarterInput(Card.parse("JS")))
    assert old.read_text().splitlines()[0] == GAME_LINE.strip()  # no header put in front of an old log
    newer = tmp_path / "0002.jsonl"
    newer.write_text('{"log":"cribbage-companion","version":2}\n' + GAME_LINE)
    with pytest.raises(GameLogError, match=r"0002.jsonl: line 1 says it is a version 2 log.*update the program"):
        GameLog.open(newer)


def test_an_empty_file_is_an_empty_log_that_gets_its_header(tmp_path):
    path = tmp_path / "0001.jsonl"
    path.write_bytes(b"")
    opened = GameLog.open(path)
    assert opened.inputs == [] and opened.warnings == []
    opened.append(INPUTS[0])
    assert path.read_text().splitlines()[0] == '{"log":"cribbage-companion","version":1}'
    assert GameLog.open(path).inputs == INPUTS[:1]


def test_a_header_alone_torn_or_whole_reads_as_an_empty_log(tmp_path):
    path = tmp_path / "0001.jsonl"
    for data in (b'{"log":"cribbage-companion","version":1}\n', b'{"log":"cribbage-com'):
        path.write_bytes(data)
        opened = GameLog.open(path)
        assert opened.inputs == []
        opened.append(INPUTS[0])
        assert GameLog.open(path).inputs == INPUTS[:1] and path.read_bytes().count(b'"log"') == 1


def test_games_are_numbered_and_the_newest_is_current(tmp_path):
    assert current_log(tmp_path) is None
    first = next_log(tmp_path)
    GameLog.open(first).append(INPUTS[0])
    second = next_log(tmp_path)
    GameLog.open(second).append(INPUTS[0])
    assert (first.name, second.name) == ("0001.jsonl", "0002.jsonl")
    assert current_log(tmp_path) == second


def test_a_new_log_is_on_the_disk_only_with_its_first_line(tmp_path):
    # A power cut after "new game" made the file and before its game line was written left a game with no
    # players: started again, the board forgot who lost the last game and let the wrong player deal.
    path = next_log(tmp_path)
    opened = GameLog.open(path)
    assert not path.exists() and current_log(tmp_path) is None
    opened.append(INPUTS[0])
    assert GameLog.open(path).inputs == INPUTS[:1]
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # nothing left beside it


def test_repair_keeps_the_good_lines_and_sets_the_rest_aside(tmp_path):
    path = tmp_path / "0001.jsonl"
    write(path)
    lines = path.read_bytes().splitlines(keepends=True)
    damaged = b"".join(lines[:4]) + b"garbage\n" + b"".join(lines[4:])
    path.write_bytes(damaged)
    with pytest.raises(GameLogError, match="line 5 is damaged"):
        GameLog.open(path)
    repaired, aside = repair(path)
    assert repaired.inputs == INPUTS[:3] and aside == tmp_path / "0001.jsonl.set-aside"
    assert path.read_bytes() + aside.read_bytes() == damaged  # nothing thrown away
    path.write_bytes(damaged)
    assert repair(path)[1] == tmp_path / "0001.jsonl.set-aside-2"
    assert repair(path)[1] is None  # a readable log is left as it is


def test_repair_does_not_touch_a_log_from_a_newer_version(tmp_path):
    path = tmp_path / "0001.jsonl"
    path.write_text('{"log":"cribbage-companion","version":9}\n' + GAME_LINE)
    with pytest.raises(GameLogError, match="version 9"):
        repair(path)
    assert not list(tmp_path.glob("*.set-aside*"))


@pytest.mark.parametrize(("code", "words"), [
    (errno.ENOSPC, "Cannot save: the disk is full"),
    (errno.EROFS, "Cannot save: the disk is read-only"),
    (errno.EDQUOT, "Cannot save: the disk quota is used up"),
])
def test_a_write_the_disk_refuses_leaves_the_log_as_it_was(tmp_path, monkeypatch, code, words):
    path = tmp_path / "0001.jsonl"
    log = write(path)
    whole = path.read_bytes()
    real = os.pwrite

    def half_then_fail(fd, data, offset):
        real(fd, data[: len(data) // 2], offset)  # the disk took part of the line, then said no
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr("companion.gamelog.os.pwrite", half_then_fail)
    with pytest.raises(CannotSave, match=words):
        log.append(PlayInput(Card.parse("6D")))
    assert path.read_bytes() == whole and log.inputs == INPUTS  # valid, and nothing half-written
    monkeypatch.setattr("companion.gamelog.os.pwrite", real)
    log.append(PlayInput(Card.parse("6D")))  # room again: it simply works
    assert GameLog.open(path).inputs == [*INPUTS, PlayInput(Card.parse("6D"))]


def test_a_size_limited_disk_refuses_the_line_that_does_not_fit(tmp_path):
    path = tmp_path / "0001.jsonl"
    log = write(path)
    whole = path.read_bytes()
    previous = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    limits = resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.setrlimit(resource.RLIMIT_FSIZE, (len(whole) + 5, limits[1]))  # a real limit: the kernel says EFBIG
    try:
        with pytest.raises(CannotSave, match="Cannot save: the log has reached the size limit"):
            log.append(PlayInput(Card.parse("6H")))
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, limits)
        signal.signal(signal.SIGXFSZ, previous)
    assert path.read_bytes() == whole
    log.append(PlayInput(Card.parse("6H")))
    assert GameLog.open(path).inputs == [*INPUTS, PlayInput(Card.parse("6H"))]


def test_a_read_only_state_directory_is_read_and_every_write_says_why(tmp_path, monkeypatch):
    path = tmp_path / "games" / "0001.jsonl"
    write(path)
    path.write_bytes(path.read_bytes() + b'{"type":"go"')  # and a torn line that cannot be cut off now
    real_open = os.open

    def read_only(file, flags, *args):
        if flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT):
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(file))
        return real_open(file, flags, *args)

    monkeypatch.setattr("companion.gamelog.os.open", read_only)
    real_path_open = Path.open

    def path_open(self, mode="r", *args, **kwargs):
        if set(mode) & set("wax+"):
            raise OSError(errno.EROFS, "Read-only file system")
        return real_path_open(self, mode, *args, **kwargs)

    monkeypatch.setattr(Path, "open", path_open)
    opened = GameLog.open(path)
    assert opened.inputs == INPUTS and "cannot repair it now (Read-only file system)" in finding_words(
        opened.warnings[-1], EN)
    with pytest.raises(CannotSave, match="Cannot save: the disk is read-only"):
        opened.append(PlayInput(Card.parse("6D")))
    with pytest.raises(CannotSave, match="Cannot save: the disk is read-only"):
        opened.write_pending({"cards": ["5H"]})
    fresh = GameLog.open(tmp_path / "games" / "0002.jsonl")  # a new game cannot even create its file
    with pytest.raises(CannotSave, match="Cannot save: the disk is read-only"):
        fresh.append(INPUTS[0])
    assert fresh.inputs == [] and not fresh.path.exists()
    monkeypatch.undo()
    opened.append(PlayInput(Card.parse("6D")))  # writable again: the torn line is cut off first
    assert GameLog.open(path).inputs == [*INPUTS, PlayInput(Card.parse("6D"))] and GameLog.open(path).warnings == []
