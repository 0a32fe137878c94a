"""The published JSON Schemas: equal to the contract's types, and every output that carries the game follows
them: `crib replay --json`, `crib state --json`, `/api/state` (and its WebSocket), `/api/games`, the club's
retained state, the builtin board layouts. (The statistics' JSON: tests/test_stats.py; every club message of a
real run, the scoreboard's page and the director's: tests/club.)"""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path

import fastjsonschema
import pytest

from companion import schemagen
from companion.boards import BUILTIN_LAYOUTS, LAYOUT_DIR, load_layout
from companion.cli import main
from companion.club import protocol
from companion.cribbage.cards import Card
from companion.cribbage.game import apply, initial_state, replay
from companion.cribbage.refusals import Refusal, Why
from companion.cribbage.transcript import read_transcript
from companion.gamelog import GameLog, next_log
from companion.i18n import language
from companion.play.computer import Settings
from companion.table.story import CutForDeal, LaidAway, Refused, Story, TakenBack, Turn, Undone, story_json, told
from companion.web import archive
from companion.words import schema
from tests.sample_deal import deal
from tests.web.computer_games import Game, play_out
from tests.web.running import running_board

GAME = Path(__file__).parent.parent / "data" / "games" / "two_121.jsonl"


@pytest.mark.parametrize("name", sorted(schemagen.PAYLOADS))
def test_the_published_schemas_are_the_contracts_types(name):
    assert schema.path(name).read_text(encoding="utf-8") == schemagen.text(schemagen.generate(name)), (
        "run `python3 dev.py schema` and commit docs/schema/")


def test_the_docs_publish_the_packages_schemas():
    docs = Path(__file__).parents[2] / "docs" / "schema"
    assert sorted(p.name for p in docs.iterdir()) == sorted(schema.path(n).name for n in schemagen.PAYLOADS)


def test_a_state_that_breaks_the_schema_is_named(capsys):
    assert main(["replay", str(GAME), "--json"]) == 0
    state = json.loads(capsys.readouterr().out)
    schema.validate("state", state)
    for broken in ({**state, "phase": "lunch"}, {**state, "sides": [{"players": "Ann"}]},
                   {**state, "extra": 1}, {k: v for k, v in state.items() if k != "events"},
                   {**state, "events": [{**state["events"][0], "points": "two"}]}):
        with pytest.raises(schema.Invalid, match="not a state payload"):
            schema.validate("state", broken)


def test_crib_replay_json_follows_the_state_schema(capsys):
    assert main(["replay", str(GAME), "--json"]) == 0
    schema.validate("state", json.loads(capsys.readouterr().out))


def test_crib_state_json_follows_the_board_state_schema(tmp_path, capsys):
    log = GameLog.open(next_log(tmp_path))
    for inp in deal("4C"):
        log.append(inp)
    assert main(["state", "--state-dir", str(tmp_path), "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    schema.validate("board-state", shown)
    assert shown["state"]["count"] == 14


def test_api_games_follows_the_game_schema(tmp_path):
    game = Game(tmp_path, Settings("Guest", ("easy",), seed=3))
    play_out(game, 2)
    found = archive.game(tmp_path, game.table.log.path.name, 1, language("en"))
    schema.validate("game", json.loads(json.dumps(found)))


def test_api_state_is_a_snapshot_with_the_state_under_state(tmp_path):
    with (running_board(tmp_path, Settings("Guest", ("standard",), seed=5)) as board,
          urllib.request.urlopen(board.url.rstrip("/") + "/api/state", timeout=10) as response):
        snapshot = json.load(response)
    schema.validate("snapshot", snapshot)
    schema.validate("state", snapshot["state"])
    assert snapshot["you"]["person"] == "Guest" and snapshot["story"]["facts"]


def test_the_clubs_retained_state_follows_the_schema_and_a_state_that_breaks_it_is_refused():
    state = replay(deal("end"))
    payload = protocol.state_payload("t1", "0001", len(state.inputs), 1.0, state)
    schema.validate("state", json.loads(payload)["state"])
    topic = protocol.board_topic("club", "t1", "state")
    assert protocol.parse_message(topic, payload).state is not None
    forged = json.loads(payload)
    forged["state"]["sides"][0]["score"] = "121"
    with pytest.raises(protocol.BadMessage, match=r"not a club-state payload: data.state.sides\[0\].score must be "
                                                  "integer"):
        protocol.parse_message(topic, json.dumps(forged).encode())


@pytest.mark.parametrize("name", BUILTIN_LAYOUTS)
def test_the_builtin_board_layouts_follow_the_layout_schema(name):
    data = json.loads((LAYOUT_DIR / f"{name}.json").read_text(encoding="utf-8"))
    schema.validate("board-layout", data)
    assert load_layout(name).to_json() == data
    with pytest.raises(schema.Invalid, match=r"not a board-layout payload: data.holes\[0\] must contain"):
        schema.validate("board-layout", {**data, "holes": [{"track": 0}]})


def test_every_kind_of_fact_of_the_story_follows_the_snapshot_schema():
    """Each fact the page's story may carry, from a whole game folded as the table tells it, with an undo and
    refusals (one with the refusal inside it), checked against the snapshot schema's StoryJSON."""
    published = json.loads(schema.path("snapshot").read_text(encoding="utf-8"))
    check = fastjsonschema.compile({"$defs": published["$defs"], "$ref": "#/$defs/StoryJSON"})
    inputs = read_transcript(GAME.read_text(encoding="utf-8").splitlines())
    state, facts = initial_state(), []
    for inp in inputs:
        after = apply(state, inp)
        facts += told(state, inp, after)
        state = after
    inside = Refusal(Why.BAD_FIELD, input="play", field="card", cause=Refusal(Why.NO_SUIT, text="5X"))
    facts += [CutForDeal("Ann", Card.parse("4H")), LaidAway("Bob", 2),  # the sample game deals without them
              Undone((TakenBack(inputs[-1], "Ann"),)), Refused("input", inside), Refused("table"),
              Turn(state.awaited())]
    shown = [story_json(Story().add((fact,)), state.sides) for fact in facts]
    assert {story["facts"][0]["type"] for story in shown} == {
        "game", "cut", "deal", "laid_away", "starter", "played", "go", "scored", "undone", "refused", "turn"}
    for story in shown:
        check(json.loads(json.dumps(story)))
    refused = next(s["facts"][0] for s in shown if s["facts"][0]["type"] == "refused")
    assert refused["refusal"] == {"why": "bad_field", "input": "play", "field": "card",
                                  "cause": {"why": "no_suit", "text": "5X"}}
    with pytest.raises(fastjsonschema.JsonSchemaValueException, match=r"data.facts\[0\] cannot be validated"):
        check({"count": 1, "facts": [{**refused, "refusal": {"why": "because"}}]})
