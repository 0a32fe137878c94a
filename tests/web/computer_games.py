"""Games against the computer driven by hand for the tests: a table with a computer game on it, one turn of the
daemon's loop at a time on a manual clock, the person's moves made at random (or claiming low, for muggins)."""

from __future__ import annotations

import random
from pathlib import Path

from companion.base.clock import ManualClock
from companion.boards import load_layout
from companion.cribbage import transcript as t
from companion.devices.base import Entry
from companion.gamelog import GameLog, current_log, next_log
from companion.play.computer import ComputerGame, Settings, dealer_entry, show_points, write_settings
from companion.table import Outcome, Table

LAYOUTS = {2: "two-track-121", 3: "three-track-121", 4: "two-track-121"}


class Game:
    """A table with a computer game on it, driven by hand: `step()` is one turn of the daemon's loop."""

    def __init__(self, tmp_path: Path, settings: Settings, *, resume: bool = False) -> None:
        self.dir = tmp_path
        self.clock = ManualClock()
        self.settings = settings
        path = current_log(tmp_path) if resume else next_log(tmp_path)
        assert path is not None
        self.table = Table(GameLog.open(path), setup=settings.game_input(),
                           layout=load_layout(LAYOUTS[len(settings.players)]), clock=self.clock,
                           new_log=lambda: GameLog.open(next_log(tmp_path)))
        if not resume:
            write_settings(self.table.log.path, settings)
        self.computer = ComputerGame(self.table, clock=self.clock, delay=0.5)
        self.computer.start(self.table.emit)
        self.outcomes: list[Outcome] = []

    def step(self) -> None:
        for outcome in self.table.drain(0):
            self.outcomes.append(outcome)
            self.computer.outcome(outcome)
        self.computer.poll(self.clock.now)
        self.clock.advance(0.25)

    def settle(self, limit: int = 200) -> None:
        """Run the loop until the person is to move (or the game is over)."""
        for _ in range(limit):
            self.step()
            if self.table.queue.empty() and self.computer.next_move(self.table.state) is None:
                self.step()
                return
        raise AssertionError(f"the computer never stopped: {self.table.prompt()}")

    def person_moves(self, rng: random.Random, *, claim_low: bool = False) -> None:
        state, you = self.table.state, self.settings.person
        if self.computer.showing(state) is not None:  # the show seen: OK deals the next hand
            self.table.emit(Entry("ok", "web"))
        elif state.phase == "deal" and you in state.hands:
            self.table.emit(dealer_entry(t.DiscardInput(you, tuple(rng.sample(state.hands[you],
                                                                               state.discard_size)))))
        elif state.phase == "play" and state.turn == you:
            fits = [c for c in state.held(you) if state.count + c.value <= 31]
            self.table.emit(Entry(str(rng.choice(fits)) if fits else "go", "web"))
        elif state.phase == "claim":
            kind, _ = state.counts[0]
            points = show_points(state, kind, you)
            self.table.emit(Entry(f"claim {max(0, points - 2) if claim_low else points}", "web"))


def play_out(game: Game, seed: int, **options: bool) -> None:
    """The person moves at random (seeded) until the game or the match is over."""
    rng = random.Random(seed)
    for _ in range(2000):
        game.settle()
        if game.table.state.phase in ("game over", "match over"):
            return
        game.person_moves(rng, **options)
    raise AssertionError("the game never ended")
