"""A tournament night for the tests: the scoreboard in a thread (the same serve() `crib club` runs) and boards
that play whole games to 121 between the players seated at them, each into its own game log, waking its
publisher after each input as the daemon does."""

from __future__ import annotations

import json
from pathlib import Path

from companion.advice.selfplay import play_game
from companion.club import protocol
from companion.club.night import Night
from companion.club.pairing import Seat
from companion.club.publisher import Broker, Publisher
from companion.club.tournament import Scoring
from companion.cribbage.game import GameState, apply, initial_state, replay
from companion.cribbage.transcript import Input, input_to_json, parse_input
from companion.gamelog import GameLog, next_log


def whole_game(seed: int, players: tuple[str, str]) -> list[Input]:
    """A game to 121 between two computer players, as table inputs, with the seated players' names."""
    names = dict(zip(("A", "B"), players, strict=True))
    inputs = play_game(("easy", "easy"), seed % 2, f"night-{seed}", target=121, record=True).inputs
    return [parse_input(json.loads(json.dumps(inp), object_hook=lambda o: {
        k: ([names.get(x, x) for x in v] if k == "players" else names.get(v, v) if k in ("player", "dealer") else v)
        for k, v in o.items()})) for inp in inputs]


class Board:
    def __init__(self, board: str, folder: Path, broker: Broker, club: str, signing_key: bytes | None = None) -> None:
        self.board, self.folder = board, folder
        folder.mkdir(parents=True, exist_ok=True)
        self.publisher = Publisher(broker, club, board, folder, signing_key=signing_key)
        self.publisher.start()
        self.log: GameLog | None = None

    def play_game(self, seed: int, players: tuple[str, str]) -> GameState:
        """A whole game in a new game log; the board's own final state."""
        self.log = GameLog.open(next_log(self.folder))
        for inp in whole_game(seed, players):
            self.log.append(inp)
            self.publisher.wake()
        return replay(self.log.inputs)

    def close(self) -> None:
        self.publisher.close()


def director_night(night: Night) -> None:
    """A night with one of everything a director decides: a stranger's game at t3, a result at t2 that does not
    follow (its inputs give no skunk, the board says a double skunk), a result at t4 with none of its inputs,
    cards that differ after they agreed (Gus and Hal), a late card (Eve and Fay, after the playoff draw), and
    three players tied at the qualifying line for two places."""
    pairs = [("Ann", "Bob"), ("Cat", "Dan"), ("Eve", "Fay"), ("Gus", "Hal")]
    night.keep_rules(scoring=Scoring("acc"), best_of=3)
    night.set_setting("players", [p for pair in pairs for p in pair])
    night.set_setting("boards", ["t1", "t2", "t3", "t4"])
    night.set_round(1, [Seat(k + 1, f"t{k + 1}", pair) for k, pair in enumerate(pairs)], [])
    for winner, loser in (pairs[0], pairs[1], pairs[3]):
        night.enter(1, winner, loser, 121, 100)
        night.enter(1, loser, winner, 100, 121)
    state = initial_state()
    for seq, inp in enumerate(whole_game(11, ("Zoe", "Yan")), start=1):
        state = apply(state, inp)
        night.receive(protocol.parse_message("cribbage/c/boards/t3/events", protocol.event_payload(
            "t3", "0001", seq, float(seq), input_to_json(inp), state=state)))
    game = whole_game(12, ("Cat", "Dan"))  # t2: its real inputs, the last with a double skunk they do not give
    state = initial_state()
    for seq, inp in enumerate(game, start=1):
        state = apply(state, inp)
        payload = json.loads(protocol.event_payload("t2", "0001", seq, float(seq), input_to_json(inp), state=state))
        if seq == len(game):
            payload["state"]["sides"][1 - payload["state"]["winner"]]["score"] = 40
            payload["state"]["skunk"] = "double skunk"
        night.receive(protocol.parse_message("cribbage/c/boards/t2/events", json.dumps(payload).encode()))
    forged = json.loads(protocol.state_payload("t4", "0001", 200, 0.0, state))  # t4: a result with no input
    forged["state"]["players"] = ["Gus", "Hal"]
    for side, name in zip(forged["state"]["sides"], ("Gus", "Hal"), strict=True):
        side["players"], side["name"] = [name], name
    night.receive(protocol.parse_message("cribbage/c/boards/t4/state", json.dumps(forged).encode()))
    night.draw_playoffs(3, lot=sorted)
    night.enter(1, "Eve", "Fay", 121, 95)
    night.enter(1, "Fay", "Eve", 95, 121)
    night.enter(1, "Hal", "Gus", 121, 118)  # Hal changes his card
