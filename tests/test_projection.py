"""One game, three JSON views: `crib replay --json`, the page's state and the club's retained state are the one
projection (companion.words.projection), key for key and value for value."""

from __future__ import annotations

import json

from companion.base.clock import ManualClock
from companion.boards import load_layout
from companion.cli import main
from companion.club import protocol
from companion.cribbage.transcript import GameInput
from companion.entry import Entry
from companion.gamelog import GameLog
from companion.table import Table
from companion.web.snapshot import snapshot

ENTRIES = ["5S", "JS", "4C", "5C", "6C", "5D", "go", "go", "4D", "5H", "6H", "AH", "3D", "8C", "8H",
           "peg Bob 60", "peg Ann 98"]


def finished_table(tmp_path) -> Table:
    table = Table(GameLog.open(tmp_path / "games" / "0001.jsonl"), setup=GameInput(("Ann", "Bob"), dealer="Ann"),
                  layout=load_layout("two-track-121"), clock=ManualClock())
    for text in ENTRIES:
        table.emit(Entry(text, "terminal"))
        refused = [o.words() for o in table.drain() if o.error]
        assert not refused, (text, refused)
    assert table.state.winner is not None
    return table


def test_the_replay_the_page_and_the_club_see_one_game_alike(tmp_path, capsys):
    table = finished_table(tmp_path)
    assert main(["replay", str(table.log.path), "--json"]) == 0
    replayed = json.loads(capsys.readouterr().out)
    page = json.loads(json.dumps(snapshot(table)["state"]))
    payload = protocol.state_payload("t1", "0001", len(table.state.inputs), 0.0, table.state)
    club = protocol.parse_message("cribbage/thursday/boards/t1/state", payload).state
    assert replayed == page == club
    kinds = [e["kind"] for e in replayed["events"]]
    assert set(kinds) == {"heels", "pegging", "go", "last_card", "hand", "crib", "pegged"} - {"heels"}
    assert replayed["sides"][replayed["winner"]]["players"] == ["Ann"]
    assert replayed["rules"]["skunk_lines"] == [91, 61]
    assert replayed["dealer"] == "Bob" and replayed["show_order"] == ["Ann", "Bob"]  # deal 2 was under way


def test_every_score_says_its_kind_and_its_side_by_index(tmp_path):
    state = json.loads(json.dumps(snapshot(finished_table(tmp_path))["state"]))
    hands = [e for e in state["events"] if e["kind"] == "hand"]
    assert [(e["player"], e["side"], e["points"], e["name"]) for e in hands] == [
        ("Bob", 1, 29, "Bob's hand"), ("Ann", 0, 24, "Ann's hand")]
    assert all(isinstance(e["side"], int) and e["said"] for e in state["events"])
