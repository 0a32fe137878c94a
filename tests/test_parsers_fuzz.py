"""Every parser a table's input passes through, under hypothesis: card codes and barcode payloads, keypad
sequences, transcripts (`crib replay`), board layout files. Each gives a value or its own error with words for a
person, never another exception, and a refusal changes nothing. (Configuration files: test_config_fuzz.py; game
logs: test_gamelog_fuzz.py; entries at the table: test_app_fuzz.py; LED link frames from the Pico:
ledlink/test_fuzz.py, and to it: firmware/test_fuzz.py; scanners' bytes: devices/test_scanner_fuzz.py.)"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.base.clock import ManualClock
from companion.base.textlines import utf8_lines
from companion.boards import LAYOUT_DIR, LayoutError, load_layout, parse_layout
from companion.cli import main
from companion.commands import CommandError
from companion.cribbage.cards import DECK, Card, is_card_payload
from companion.cribbage.errors import CardSyntaxError, CribbageError
from companion.cribbage.refusals import Why
from companion.entry.keymap import KEYS, KeySequence
from companion.gamelog import replay_lines
from companion.words.phrases import message_words
from tests.facts import refused_words

CARDISH = st.one_of(
    st.text(max_size=8),
    st.text(alphabet="AaKkQqJjTt0123456789CcDdHhSs♣♦♥♠ \t", max_size=5),
    st.sampled_from([c.payload for c in DECK] + [str(c) for c in DECK]).map(
        lambda s: s if len(s) < 2 else s[:-1] + s[-1].lower()),
)


@settings(max_examples=500, deadline=None)
@given(CARDISH)
def test_a_card_code_is_a_card_that_reads_back_or_a_syntax_error_with_words(text):
    try:
        card = Card.parse(text)
    except CardSyntaxError as error:
        assert str(error) and "Traceback" not in str(error)
        return
    assert card in DECK and Card.parse(str(card)) == card and Card.parse(card.payload) == card
    if is_card_payload(text):
        assert Card.parse(text.strip().upper()) == card


@settings(max_examples=300, deadline=None)
@given(presses=st.lists(st.tuples(st.sampled_from([*sorted(KEYS), "E", "", "AA", "5", "é"]),
                                  st.floats(0, 6, allow_nan=False)), max_size=30))
def test_any_keypad_presses_give_entries_that_decode_or_refusals_that_say_which_keys(presses):
    from companion.entry import Entry
    from companion.entry.commands import Rejected, decode_entry

    clock = ManualClock()
    keys = KeySequence(clock)
    for label, pause in presses:
        clock.advance(pause)
        before = keys.pending
        try:
            text = keys.press(label)
        except ValueError as error:
            assert label not in KEYS and "is not a key label" in str(error)
            assert keys.pending == before  # an unknown label changes nothing
            continue
        if text is not None:
            decoded = decode_entry(Entry(text, "keypad"))
            assert not isinstance(decoded, Rejected) or message_words(decoded.message), text


JSONISH = st.recursive(st.none() | st.booleans() | st.integers(-5, 200) | st.text(max_size=6)
                       | st.sampled_from(["5H", "JS", "Ann", "Bob", "game", "play", "go", "undo", "crib"]),
                       lambda inner: st.lists(inner, max_size=5) | st.dictionaries(
                           st.sampled_from(["type", "players", "dealer", "card", "cards", "points", "player"]),
                           inner, max_size=4), max_leaves=10)


@settings(max_examples=200, deadline=None)
@given(lines=st.lists(JSONISH.map(json.dumps) | st.binary(max_size=30).map(lambda b: b.decode("latin-1")),
                      max_size=8))
def test_a_transcript_of_anything_replays_or_names_the_line_it_stops_at(lines):
    game = '{"type":"game","players":["Ann","Bob"],"dealer":"Ann"}'
    try:
        state = replay_lines([game, '{"type":"starter","card":"5C"}', *lines])
    except CribbageError as error:
        assert error.refusal is not None and error.refusal.why is Why.BAD_LINE and (error.refusal.count or 0) >= 3
        assert refused_words(error).startswith(f"line {error.refusal.count}: ")
    else:
        assert state.players == ("Ann", "Bob")


@settings(max_examples=100, deadline=None)
@given(data=st.binary(max_size=200))
def test_crib_replay_of_any_bytes_exits_2_with_a_message_or_replays(data):
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "t.jsonl"
        path.write_bytes(b'{"type":"game","players":["Ann","Bob"],"dealer":"Ann"}\n' + data)
        assert main(["replay", str(path), "--json"]) in (0, 2)


def test_lines_that_are_not_utf8_name_their_line():
    import io
    with pytest.raises(CommandError, match=r"t: line 2 is not UTF-8 text \(byte 0xc3 at column 3\)"):
        list(utf8_lines(io.BytesIO(b"ok\nab\xc3(\n"), "t"))


BUILTIN = json.loads((LAYOUT_DIR / "two-track-61.json").read_text(encoding="utf-8"))


def _mutated(data: st.DataObject) -> object:
    layout = json.loads(json.dumps(BUILTIN))
    for _ in range(data.draw(st.integers(1, 3))):
        target = layout
        path = []
        while isinstance(target, dict | list) and target and data.draw(st.booleans()):
            key = data.draw(st.sampled_from(sorted(target) if isinstance(target, dict) else range(len(target))))
            path.append(key)
            target = target[key]
        if not path:
            return data.draw(JSONISH)
        parent = layout
        for key in path[:-1]:
            parent = parent[key]
        action = data.draw(st.sampled_from(["replace", "delete"]))
        if action == "delete" and isinstance(parent, dict):
            del parent[path[-1]]
        elif action == "delete":
            parent.pop(path[-1])
        else:
            parent[path[-1]] = data.draw(JSONISH | st.floats() | st.integers(-10**6, 10**6))
    return layout


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_a_damaged_layout_is_a_layout_or_a_layout_error_saying_what(data):
    layout = _mutated(data)
    try:
        parsed = parse_layout(layout)
    except LayoutError as error:
        assert str(error)
    else:
        assert parsed.led_count > 0 and len({h.led for h in parsed.holes}) == len(parsed.holes)


@settings(max_examples=100, deadline=None)
@given(raw=st.binary(max_size=300) | st.text(max_size=200).map(str.encode))
def test_a_layout_file_of_any_bytes_is_refused_naming_the_file(raw):
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "board.json"
        path.write_bytes(raw)
        try:
            load_layout(path)
        except LayoutError as error:
            assert str(path) in str(error)
