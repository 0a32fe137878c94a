"""Scanners fed junk: random bytes on a serial port, random evdev events. Only clean entries come out, and the
table's decoder makes each one a card, a command or a clear rejection, never an exception."""

from __future__ import annotations

import os
import queue

from evdev import InputEvent, ecodes
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.base.clock import ManualClock
from companion.devices.scanner import MAX_CODE, SerialScanner, WedgeDecoder
from companion.entry import Entry
from companion.entry.commands import Rejected, decode_entry
from companion.entry.scans import DuplicateFilter, normalise_scan
from companion.words.phrases import message_words

END = b"\r\nEND-OF-TEST\r\n"


def _clean(entry: Entry) -> None:
    assert entry.text and entry.text == normalise_scan(entry.text)
    assert not any(ord(c) < 0x20 or ord(c) == 0x7F for c in entry.text)
    decoded = decode_entry(entry)
    assert not isinstance(decoded, Rejected) or message_words(decoded.message)


@settings(max_examples=15, deadline=None)
@given(chunks=st.lists(st.binary(max_size=200) | st.sampled_from([b"C5H\r\n", b"\xff\xfe\r", b"XG\n", b"\x00" * 9]),
                       max_size=8))
def test_random_bytes_from_a_serial_scanner_give_only_clean_entries(chunks):
    controller, scanner_end = os.openpty()
    scanner = SerialScanner(os.ttyname(scanner_end), clock=ManualClock(), duplicate_window=0.0)
    got: queue.Queue[Entry] = queue.Queue()
    scanner.start(got.put)
    try:
        for chunk in chunks:
            os.write(controller, chunk)
        os.write(controller, END)
        while (entry := got.get(timeout=5)).text != "END-OF-TEST":
            _clean(entry)
            assert entry.source == "scanner:serial"
        assert scanner._thread is not None and scanner._thread.is_alive()
    finally:
        os.close(controller)  # unplugged: the scanner's read fails at once, not after its 0.2 s timeout
        scanner.close()
        os.close(scanner_end)


EVENTS = st.builds(InputEvent, st.just(0), st.just(0),
                   st.sampled_from([ecodes.EV_KEY] * 6 + [ecodes.EV_SYN, ecodes.EV_MSC, ecodes.EV_REL, 0x1F]),
                   st.integers(0, 0x2FF) | st.sampled_from([ecodes.KEY_ENTER, ecodes.KEY_LEFTSHIFT,
                                                            ecodes.KEY_CAPSLOCK, ecodes.KEY_TAB]),
                   st.integers(-1, 3))


@settings(max_examples=200, deadline=None)
@given(st.lists(EVENTS, max_size=80))
def test_random_key_events_from_a_wedge_scanner_give_only_clean_entries(events):
    decoder, clock = WedgeDecoder(), ManualClock()
    duplicates = DuplicateFilter(clock, 1.5)
    for event in events:
        code = decoder.feed(event)
        if code is None:
            continue
        assert code and code.isprintable()
        if (text := normalise_scan(code)) and duplicates.accept(text):
            _clean(Entry(text, "scanner:evdev"))
        clock.advance(0.5)


def test_a_scanner_that_never_ends_its_line_holds_only_the_last_characters():
    decoder = WedgeDecoder()
    for _ in range(100_000):
        decoder.feed(InputEvent(0, 0, ecodes.EV_KEY, ecodes.KEY_5, 1))
    code = decoder.feed(InputEvent(0, 0, ecodes.EV_KEY, ecodes.KEY_ENTER, 1))
    assert code == "5" * MAX_CODE
    assert isinstance(decode_entry(Entry(code, "scanner:evdev")), Rejected)


def test_a_serial_line_without_end_is_bounded_and_the_next_code_still_reads():
    controller, scanner_end = os.openpty()
    scanner = SerialScanner(os.ttyname(scanner_end), clock=ManualClock(), duplicate_window=0.0)
    got: queue.Queue[Entry] = queue.Queue()
    scanner.start(got.put)
    try:
        for _ in range(40):
            os.write(controller, b"7" * 1000)
        os.write(controller, b"\nC5H\n")
        assert got.get(timeout=5).text == "7" * MAX_CODE
        assert got.get(timeout=5) == Entry("C5H", "scanner:serial")
    finally:
        scanner.close()
        os.close(controller)
        os.close(scanner_end)
