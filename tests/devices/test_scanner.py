from __future__ import annotations

import os
import queue

import pytest
from evdev import InputEvent

from companion.base.clock import ManualClock
from companion.devices.base import DeviceMissing
from companion.devices.scanner import SerialScanner, WedgeDecoder, find_input_device
from companion.entry import Entry
from tests.devices.fakes import key, typed


def decode(events: list[InputEvent]) -> list[str]:
    decoder = WedgeDecoder()
    return [code for event in events if (code := decoder.feed(event)) is not None]


def test_key_events_become_codes_with_shift() -> None:
    assert decode(typed("C5H")) == ["C5H"]
    assert decode(typed("c5h") + typed("XG")) == ["c5h", "XG"]
    assert decode(typed("5012345678900")) == ["5012345678900"]
    assert decode(typed("]d1CTD")) == ["]d1CTD"]


def test_shifted_digits_autorepeat_and_caps_lock() -> None:
    events = [key("LEFTSHIFT"), key("1"), key("LEFTSHIFT", 0), key("1"), key("1", 2), key("CAPSLOCK"), key("A"),
              key("LEFTSHIFT"), key("B"), key("LEFTSHIFT", 0), key("KPENTER")]
    assert decode(events) == ["!1Ab"]


def test_enter_alone_gives_nothing() -> None:
    assert decode([key("ENTER")]) == []


def test_a_serial_scanner_reads_lines_over_a_pty() -> None:
    controller, scanner_end = os.openpty()
    clock = ManualClock()
    scanner = SerialScanner(os.ttyname(scanner_end), baud=9600, clock=clock, duplicate_window=1.5)
    got: queue.Queue[Entry] = queue.Queue()
    scanner.start(got.put)
    try:
        os.write(controller, b"C5H\r\nC5H\r\n")  # a double read: counted once
        os.write(controller, b"xg\r5012345")
        os.write(controller, b"678900\n")
        assert got.get(timeout=5) == Entry("C5H", "scanner:serial")
        assert got.get(timeout=5) == Entry("XG", "scanner:serial")
        assert got.get(timeout=5) == Entry("5012345678900", "scanner:serial")
        clock.advance(2)
        os.write(controller, b"C5H\n")
        assert got.get(timeout=5) == Entry("C5H", "scanner:serial")
        assert got.empty()
    finally:
        scanner.close()
        os.close(controller)
        os.close(scanner_end)


def test_a_missing_serial_port_says_what_to_check() -> None:
    with pytest.raises(DeviceMissing, match=r"check the cable and scanner.port.*'dialout' group"):
        SerialScanner("/dev/ttyUSB-none", clock=ManualClock())


def test_a_missing_input_device_says_what_to_check() -> None:
    with pytest.raises(DeviceMissing, match="is the scanner plugged in"):
        find_input_device("/dev/input/event-none")
