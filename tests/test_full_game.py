"""A whole game to 121, card by card, through the daemon on simulated devices: scanner payloads, typed cards,
the keypad on gpiozero's MockFactory pins, go and undo; checked against a replay of the generated transcript."""

from __future__ import annotations

from companion.base.clock import ManualClock
from companion.config import load_config
from companion.cribbage import transcript as t
from companion.cribbage.facts import ScoreKind
from companion.cribbage.game import replay
from companion.daemon import Daemon, Notifier, open_table, setup_input
from companion.gamelog import GameLog, current_log
from companion.registry import open_devices
from companion.view.pegs import dim
from tests.facts import by_name
from tests.golden import assert_golden
from tests.scripted_game import game_script

SEED = 1
SIM = ["devices.pin_factory=mock"]


def test_a_whole_game_entered_card_by_card(tmp_path):
    game = game_script(SEED)
    assert sum(e.startswith("key:") for e in game.entries) >= 20 and {"go", "undo"} & set(game.entries)
    script = tmp_path / "game.txt"
    script.write_text("\n".join(game.entries) + "\n")
    config = load_config(overrides=SIM, system_path=None)
    clock = ManualClock()
    board = open_devices(config, clock=clock, simulate=True, script=script)
    table = open_table(config, board, state_dir=tmp_path / "state", clock=clock,
                       setup=setup_input(config, list(game.setup.players), game.setup.dealer))
    layout, strip = table.layout, board.strip
    moments: dict[str, object] = {}
    outcomes = []

    def seen(outcome) -> None:
        outcomes.append(outcome)
        state, inp = table.state, outcome.accepted
        if inp is None:
            return
        # after every input the strip shows each side's front peg at its score and the back peg behind it
        frame = strip.frame
        for track, side in enumerate(state.sides):
            colour = table.colours[track]
            front, back = state.scores.get(side, 0), state.back_pegs.get(side, 0)
            assert frame[layout.led_for(track, front)] == colour, (side, front)
            if back != front:
                assert frame[layout.led_for(track, back)] == dim(colour), (side, back)
        image = board.display.image.copy()
        if isinstance(inp, t.StarterInput):
            moments.setdefault("starter", image)
        elif isinstance(inp, t.PlayInput) and len(state.pile) >= 3 and not table.picture.recent:
            moments.setdefault("play", image)
        elif state.phase == "crib" and any(e.kind is ScoreKind.HAND for e in table.picture.recent):
            moments.setdefault("show", image)
        if state.winner is not None:
            moments["over"] = image

    daemon = Daemon(table, board, clock=clock, notifier=Notifier({}), on_outcome=seen)
    daemon.start()
    lines = board.entries[-1]
    for _ in range(40_000):
        daemon.step(timeout=0)
        clock.advance(0.01)
        if lines.finished and table.queue.empty() and len(outcomes) == len(game.entries):
            break
    board.close()

    assert len(outcomes) == len(game.entries)  # one outcome per entry, keypad entries included
    rejected = [(o.entry.text, o.words()) for o in outcomes if o.error]
    assert not rejected
    final = table.state
    assert final.winner == game.final.winner and by_name(final.scores) == by_name(game.final.scores)
    assert final.skunk == game.final.skunk
    logged = GameLog.open(current_log(tmp_path / "state")).inputs
    assert replay(logged) == final
    assert sum(isinstance(i, t.UndoInput) for i in logged) >= 1
    assert [type(i) for i in final.inputs[1:]] == [type(i) for i in game.inputs[1:]]
    for name in ("starter", "play", "show", "over"):
        assert_golden(moments[name], f"game-{name}")
