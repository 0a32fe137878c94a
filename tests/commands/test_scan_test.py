"""`crib scan-test`: each scanned code echoed with what the companion understands."""

from __future__ import annotations

import io
import os

import pytest

from companion.cli import main
from companion.devices.scanner import SerialScanner


def test_what_a_keyboard_wedge_scanner_types_is_explained_line_by_line(monkeypatch, capsys) -> None:
    typed = "C5H\n\nXG\n5012345678900\ncth\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(typed))
    assert main(["scan-test"]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines() == [
        "C5H -> five of hearts",
        "XG -> command GO",
        "5012345678900 -> not a Cribbage Companion code: this looks like a retail barcode (EAN-13); "
        "scan the sticker on the card",
        "cth -> ten of hearts",
    ]
    assert err.endswith("3 understood, 1 not ours\n")


def test_count_stops_early(monkeypatch, capsys) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("XU\nXO\nXM\n"))
    assert main(["scan-test", "--count", "2"]) == 0
    assert capsys.readouterr().out.splitlines() == ["XU -> command UNDO", "XO -> command OK"]


def test_a_serial_scanner_through_the_daemons_driver(monkeypatch, capsys) -> None:
    controller, scanner_end = os.openpty()
    started = SerialScanner.start

    def start_then_scan(scanner: SerialScanner, emit) -> None:
        started(scanner, emit)  # opening the port flushes it: the scanner "sends" once it is open
        os.write(controller, b"]d1CAS\r\nXN\r\n0360002914\r\n")

    monkeypatch.setattr(SerialScanner, "start", start_then_scan)
    try:
        assert main(["scan-test", "--serial", os.ttyname(scanner_end), "--count", "3"]) == 0
    finally:
        os.close(controller)
        os.close(scanner_end)
    assert capsys.readouterr().out.splitlines() == [
        "CAS -> ace of spades",  # the driver drops the AIM prefix ]d1
        "XN -> command NEW GAME",
        "0360002914 -> not a Cribbage Companion code: a number, not one of our codes; scan the sticker on the card",
    ]


@pytest.mark.parametrize(("args", "message"), [
    (["--serial", "/dev/ttyUSB-none"], "cannot open the scanner's serial port /dev/ttyUSB-none"),
    (["--evdev", "/dev/input/event-none"], "cannot open /dev/input/event-none"),
    (["--count", "0"], "--count 0: give at least 1"),
])
def test_a_scanner_that_cannot_be_opened_says_what_to_check(capsys, args: list[str], message: str) -> None:
    assert main(["scan-test", *args]) == 2
    assert message in capsys.readouterr().err
