"""The table controller under random entries: it never raises, and what it holds is always what its log says.

Each example plays one table from a fresh state directory with the simulated strip, feeding a mix of entries
likely to move the game on (a card that fits under 31, go, the crib cards) and of junk (cards already played,
garbage, control characters, very long lines, keypad sequences, NEW GAME, undo). After every entry the state
must equal a replay of the log read back from disk, the screen and strip must show it, and a rejected entry
must have changed neither the state nor the log file.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.base.clock import ManualClock
from companion.boards import load_layout
from companion.cribbage.cards import DECK, Card
from companion.cribbage.game import GameState, replay
from companion.cribbage.transcript import GameInput
from companion.devices.sim import SimStrip
from companion.entry import Entry
from companion.gamelog import GameLog
from companion.table import Table
from tests.facts import by_name
from tests.sample_deal import DEAL

SETUPS = {
    "two": (GameInput(("Ann", "Bob"), dealer="Ann"), "two-track-121", False),
    "two, cut for deal": (GameInput(("Ann", "Bob")), "two-track-121", False),
    "two, coaching": (GameInput(("Ann", "Bob"), dealer="Bob"), "two-track-121", True),
    "two, muggins": (GameInput(("Ann", "Bob"), dealer="Ann", muggins=True), "two-track-121", False),
    "two, a match": (GameInput(("Ann", "Bob"), dealer="Ann", match=True, target=None), "two-track-121", False),
    "three": (GameInput(("Ann", "Bob", "Cat"), dealer="Cat"), "three-track-121", False),
    "three, muggins": (GameInput(("Ann", "Bob", "Cat"), dealer="Ann", muggins=True), "three-track-121", False),
    "four": (GameInput(("Ann", "Bob", "Cat", "Dan"), dealer="Dan"), "two-track-121", False),
    "four, muggins": (GameInput(("Ann", "Bob", "Cat", "Dan"), dealer="Bob", muggins=True), "two-track-121", False),
    "five-card": (GameInput(("Ann", "Bob"), dealer="Ann", variant="five-card", target=61), "two-track-61", False),
}
WORDS = ["go", "undo", "ok", "menu", "new", "new game", "next", "GO", " Undo ", "XG", "XU", "XO", "XN", "XM",
         "peg 5", "peg 1 12", "peg 2 31", "peg 4 7", "peg 9 1", "peg 0", "peg 1 999", "peg -3", "peg 3 -2",
         "claim 7", "claim 0", "claim 99", "claim " + "9" * 5000, "muggins", "peg " + "7" * 5000,
         "key:5", "key:A", "key:Z", "keys 5 A", "keys * 9", "keys # 2 1 2"]
JUNK = st.one_of(
    st.sampled_from(["", " ", "\t", "\r\n", "\x00", "\x1b[A", "]d1C5H", "\x1dC5H\r", "5012345678900", "banana",
                     "C", "CXX", "10", "1H0", "5♥", "Q♠", "AH AH", "🂡", "ａｈ", "5H\x00", "x" * 5000,
                     "5H" * 2000, "\u202e5H", "peg " + "9" * 400, "peg 1 " + "1" * 40]),
    st.text(max_size=40),
    st.text(alphabet=st.characters(max_codepoint=0x1F), max_size=10),
)
SOURCES = ["terminal", "scanner:serial", "scanner:evdev", "keypad", "buttons"]


def _unseen(state: GameState, table: Table) -> list[Card]:
    seen = {c for _, c in state.played} | set(table.cards) | {c for _, c in state.cuts}
    if state.starter is not None:
        seen.add(state.starter)
    return [c for c in DECK if c not in seen]


def _useful(data: st.DataObject, table: Table) -> str:
    """An entry likely to move the game on from where it is."""
    state = table.state
    unseen = _unseen(state, table)
    if state.phase == "play":
        fitting = [c for c in unseen if state.count + c.value <= 31]
        if not fitting or data.draw(st.integers(0, 9)) == 0:
            return "go"
        return str(data.draw(st.sampled_from(fitting)))
    if state.phase == "claim":
        return data.draw(st.sampled_from(["claim 0", "claim 4", "claim 8", "claim 29", "peg 6", "muggins"]))
    if state.phase in ("game over", "match over"):
        return data.draw(st.sampled_from(["new", "undo"]))
    card = data.draw(st.sampled_from(unseen))
    return card.payload if data.draw(st.booleans()) else str(card)


def _entry(data: st.DataObject, table: Table) -> Entry:
    kind = data.draw(st.integers(0, 9), label="kind")
    if kind <= 4:
        text = _useful(data, table)
    elif kind == 5:
        text = data.draw(st.sampled_from([str(c) for c in DECK]))  # often one already on the table
    elif kind <= 7:
        text = data.draw(st.sampled_from(WORDS))
    else:
        text = data.draw(JUNK)
    return Entry(text, data.draw(st.sampled_from(SOURCES)))


def _check(table: Table, strip: SimStrip) -> None:
    on_disk = GameLog.open(table.log.path, repair=False)
    assert on_disk.warnings == []
    assert on_disk.inputs == table.log.inputs
    assert replay(on_disk.inputs) == table.state
    assert table.picture.image is not None and table.picture.image.size == (128, 64)
    assert len(table.picture.frame) == strip.led_count == table.layout.led_count
    assert strip.latest is None or len(strip.latest) == strip.led_count


@pytest.mark.slow
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data(), setup=st.sampled_from(sorted(SETUPS)))
def test_random_entries_never_crash_the_table_and_the_log_always_replays_to_its_state(data, setup):
    game, layout_name, coaching = SETUPS[setup]
    layout = load_layout(layout_name)
    clock = ManualClock()
    with tempfile.TemporaryDirectory() as directory:  # fsync is a no-op (tests/conftest.py)
        games = Path(directory) / "games"
        numbers = iter(range(2, 1000))
        strip = SimStrip(layout.led_count)
        table = Table(GameLog.open(games / "0001.jsonl"), setup=game, layout=layout, clock=clock, strip=strip,
                      coaching=coaching, new_log=lambda: GameLog.open(games / f"{next(numbers):04d}.jsonl"))
        _check(table, strip)
        for _ in range(data.draw(st.integers(20, 80), label="entries")):
            entry = _entry(data, table)
            state, path = table.state, table.log.path
            logged, raw = list(table.log.inputs), path.read_bytes()
            outcome = table.handle(entry)
            if outcome.error:
                assert outcome.words(), entry
                assert table.state is state and table.log.path == path, (entry, outcome)
                assert table.log.inputs == logged and path.read_bytes() == raw, (entry, outcome)
            _check(table, strip)
            clock.advance(data.draw(st.sampled_from([0.0, 0.5, 3.0, 10.0]), label="pause"))
            table.tick(clock.monotonic())
        # a restart on the same directory resumes exactly where the table was
        again = Table(GameLog.open(table.log.path), setup=game, layout=layout, clock=clock,
                      strip=SimStrip(layout.led_count), coaching=coaching)
        assert again.state == table.state and again.cards == table.cards


def _table(tmp_path: Path, game: GameInput) -> Table:
    return Table(GameLog.open(tmp_path / "0001.jsonl"), setup=game, layout=load_layout("two-track-121"),
                 clock=ManualClock())


def _enter(table: Table, *texts: str, source: str = "terminal") -> list:
    return [table.handle(Entry(text, source)) for text in texts]


def test_a_muggins_game_at_the_table_takes_claims_and_muggins_and_deals_again(tmp_path):
    table = _table(tmp_path, GameInput(("Ann", "Bob"), dealer="Ann", muggins=True))
    _enter(table, *DEAL[:-4])  # the sample deal's play (Ann pegs 4, Bob 1): Bob's hand is worth 20, Ann's 9
    assert table.prompt() == "Bob: claim the points of Bob's hand: enter claim N"
    (bad,) = _enter(table, "claim 19")
    assert bad.error and "no hand scores 19" in bad.words() and table.state.phase == "claim"
    short, called = _enter(table, "claim 16", "muggins")
    assert short.accepted is not None and called.accepted is not None, (short.words(), called.words())
    (keyed,) = _enter(table, "peg 9", source="keypad")  # # * 9 OK on the keypad: Ann claims her hand
    assert keyed.accepted is not None and table.prompt() == "Enter Ann's crib"
    _enter(table, *DEAL[-4:])
    assert table.prompt() == "Ann: claim the points of Ann's crib: enter claim N"
    (crib,) = _enter(table, "claim 0")
    assert crib.accepted is not None and table.prompt() == "Bob deals. Enter the starter"
    assert by_name(table.state.scores) == {"Ann": 4 + 4 + 9, "Bob": 1 + 16}  # pegging, muggins, Ann's hand; Bob's claim
    assert replay(GameLog.open(table.log.path).inputs) == table.state


def test_a_peg_of_thousands_of_digits_is_rejected_not_raised(tmp_path):
    table = _table(tmp_path, GameInput(("Ann", "Bob"), dealer="Ann"))
    (outcome,) = _enter(table, "peg 1 " + "1" * 5000)
    assert outcome.error and "cannot be pegged: peg from 1 to 121" in outcome.words()
