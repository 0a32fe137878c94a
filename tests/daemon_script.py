"""The daemon playing a script of table entries on simulated devices, as `crib sim --script` does, on a manual
clock: for the tests of the daemon and of what it leaves behind."""

from __future__ import annotations

from pathlib import Path

from companion.base.clock import ManualClock
from companion.config import load_config
from companion.daemon import Daemon, Notifier, open_game, setup_input
from companion.registry import Devices
from companion.table import Table

SIM = ["devices.pin_factory=mock"]


def run_script(tmp_path: Path, lines: list[str], clock: ManualClock | None = None, notifier: Notifier | None = None,
               *, players: tuple[str, ...] = ("Ann", "Bob"), target: int | None = None,
               overrides: tuple[str, ...] | list[str] = ()) -> tuple[Daemon, Devices, Table]:
    """Run the daemon on a script until every entry is applied, moving a manual clock 10 ms a step."""
    script = tmp_path / "script.txt"
    script.write_text("\n".join(lines) + "\n")
    config = load_config(overrides=[*SIM, *overrides], system_path=None)
    clock = clock or ManualClock()
    board, table = open_game(config, state_dir=tmp_path / "state", clock=clock, simulate=True, script=script,
                             setup=setup_input(config, list(players), "Ann", target))
    daemon = Daemon(table, board, clock=clock, notifier=notifier or Notifier({}))
    daemon.start()
    lines_device = board.entries[-1]
    for _ in range(5000):
        daemon.step(timeout=0)
        clock.advance(0.01)
        if lines_device.finished and table.queue.empty() and board.keypad is not None and not board.keypad.busy:
            for _ in range(50):  # let the keypad's last sequence settle
                daemon.step(timeout=0)
                clock.advance(0.01)
            break
    return daemon, board, table
