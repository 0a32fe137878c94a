"""The daemon loop on simulated devices (MockFactory keypad, luma dummy OLED, recording strip) and sd_notify."""

from __future__ import annotations

import socket

from companion.config import load_config
from companion.cribbage.game import replay
from companion.daemon import Daemon, Notifier, open_board, open_table, setup_input
from companion.devices.base import ManualClock
from companion.gamelog import GameLog, current_log
from tests.golden import assert_golden
from tests.view.test_screen import DEAL

SIM = ["devices.pin_factory=mock"]


def run_script(tmp_path, lines, clock=None, notifier=None):
    """Run the daemon on a script until every entry is applied, moving a manual clock 10 ms a step."""
    script = tmp_path / "script.txt"
    script.write_text("\n".join(lines) + "\n")
    config = load_config(overrides=SIM, system_path=None)
    clock = clock or ManualClock()
    board = open_board(config, clock=clock, simulate=True, script=script)
    table = open_table(config, board, state_dir=tmp_path / "state", clock=clock,
                       setup=setup_input(config, ["Ann", "Bob"], "Ann"))
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


def test_a_game_through_the_simulated_scanner_and_keypad(tmp_path):
    # The sample deal with some cards on the keypad (rank, then suit 1-4 = clubs, diamonds, hearts, spades):
    # 5H is key:53, 6D key:62, JH key:*13; the rest typed or scanned; then pegging ends the game.
    keyed = {"5H": "key:53", "6D": "key:62", "JH": "key:*13"}
    entries = [keyed.get(text, text) for text in DEAL] + ["peg 1 60", "peg 2 70", "peg 1 44"]
    daemon, board, table = run_script(tmp_path, entries)
    assert table.state.winner == "Ann" and dict(table.state.scores) == {"Ann": 121, "Bob": 91}
    assert table.state.skunk is None  # Bob reached 91: past the skunk line
    logged = GameLog.open(current_log(tmp_path / "state")).inputs
    assert replay(logged) == table.state and len(logged) == 16
    assert board.display.image is not None
    assert_golden(board.display.image, "daemon-game-over")
    frame, effects = board.strip.shown[-1]
    assert effects and type(effects[-1]).__name__ == "Celebrate"
    layout = table.layout
    assert frame[layout.led_for(0, 121)] != (0, 0, 0) and frame[layout.led_for(1, 91)] != (0, 0, 0)
    daemon.board.close()


def test_the_daemon_tells_systemd_it_is_ready_and_pings_the_watchdog(tmp_path):
    address = str(tmp_path / "notify")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as systemd:
        systemd.bind(address)
        systemd.settimeout(5)
        clock = ManualClock()
        notifier = Notifier({"NOTIFY_SOCKET": address, "WATCHDOG_USEC": "2000000"})
        _, board, _ = run_script(tmp_path, ["5C"], clock=clock, notifier=notifier)
        messages = []
        systemd.setblocking(False)
        while True:
            try:
                messages.append(systemd.recv(1024).decode())
            except BlockingIOError:
                break
        board.close()
    assert messages[0].startswith("READY=1\nSTATUS=Ann deals. Scan the starter")
    pings = messages.count("WATCHDOG=1")
    assert pings >= 1 and pings <= clock.now / 1.0 + 1  # every second: half of WatchdogSec=2


def test_signals_stop_the_loop_and_close_the_devices(tmp_path):
    daemon, board, table = run_script(tmp_path, ["5C", "10C"])
    daemon.stopping = False
    daemon.run(done=lambda: (daemon._signal(15, None), daemon.stopping)[1])
    assert daemon.stopping and not board.strip.connected
    assert len(table.log.inputs) == 3


def test_a_match_set_in_the_configuration_reaches_the_game():
    single = setup_input(load_config(overrides=SIM, system_path=None))
    assert (single.match, single.match_scoring) == (None, None)
    config = load_config(overrides=[*SIM, "game.match=7", 'game.match_scoring="acc"'], system_path=None)
    setup = setup_input(config, ["Ann", "Bob"], "Ann")
    state = replay([setup])
    assert (setup.match, setup.match_scoring) == (7, "acc")
    assert state.match_target == 7
