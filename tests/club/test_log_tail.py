"""The publisher reads a board's game log as it grows: each read parses only the lines added, as far as whole lines
go, and a log cut back (a torn line taken off) is read again whole."""

from __future__ import annotations

from companion.club.publisher import LogTail
from companion.cribbage.transcript import input_to_line
from companion.gamelog import GameLog
from tests.sample_deal import deal


def logged(tmp_path, count):
    """A board's log of the sample deal's first `count` inputs, the deal's inputs, and the log's path."""
    inputs = deal("")
    path = tmp_path / "1.jsonl"
    game = GameLog.open(path)
    for inp in inputs[:count]:
        game.append(inp)
    return inputs, path


def test_a_growing_log_is_read_as_it_grows_and_a_torn_line_waits_for_its_end(tmp_path):
    inputs, path = logged(tmp_path, 3)
    tail = LogTail(path)
    assert tail.read() == (1, inputs[:3])
    line = input_to_line(inputs[3]).encode() + b"\n"
    with path.open("ab") as file:
        file.write(line[:5])  # the table is writing the next line
    assert tail.read() == (1, inputs[:3])
    with path.open("ab") as file:
        file.write(line[5:])
    assert tail.read() == (1, inputs[:4])


def test_a_log_cut_back_is_read_again_and_a_bad_line_stops_the_reading_before_it(tmp_path):
    inputs, path = logged(tmp_path, 4)
    tail = LogTail(path)
    assert tail.read()[1] == inputs[:4]
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join(lines[:3]) + b'{"not": "an input"}\n')
    assert tail.read() == (1, inputs[:2])
    assert tail.read() == (1, inputs[:2])  # and stays stopped there


def test_the_journal_says_where_publishing_stops_in_the_systems_language(tmp_path, monkeypatch, caplog):
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    inputs, path = logged(tmp_path, 2)
    with path.open("ab") as file:
        file.write(b'{"not": "an input"}\n')
    assert LogTail(path).read() == (1, inputs[:2])
    assert [record.getMessage() for record in caplog.records] == [
        f"Club: {path} enthält eine Zeile, die keine Eingabe ist; das Senden hört davor auf"]
