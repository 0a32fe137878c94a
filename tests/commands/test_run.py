"""`crib run`: the daemon with configured devices; ready for systemd, stops cleanly, device errors in words."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

from companion.cli import main
from companion.gamelog import GameLog, current_log

QUIET_DEVICES = ["--set", "devices.display=dummy", "--set", "devices.strip=sim", "--set", "devices.keypad=none",
                 "--set", "devices.buttons=none", "--set", "devices.scanner=none", "--set", "web.listen=127.0.0.1:0"]


def test_run_is_ready_for_systemd_and_stops_on_sigterm_keeping_the_game(tmp_path):
    address = str(tmp_path / "notify")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as systemd:
        systemd.bind(address)
        systemd.settimeout(30)
        child = subprocess.Popen([sys.executable, "-m", "companion.cli", "run", "--state-dir", str(tmp_path / "s"),
                                  *QUIET_DEVICES], env={**os.environ, "NOTIFY_SOCKET": address},
                                 cwd=Path(__file__).parents[2], stderr=subprocess.PIPE, text=True)
        ready = systemd.recv(4096).decode()
        child.send_signal(signal.SIGTERM)
        assert child.wait(30) == 0, child.stderr.read() if child.stderr else ""
        stopping = systemd.recv(4096).decode()
    assert ready.startswith("READY=1") and "Cut for deal" in ready
    assert stopping == "STOPPING=1"
    assert len(GameLog.open(current_log(tmp_path / "s")).inputs) == 1  # the new game, and nothing else


def test_a_missing_scanner_and_oled_do_not_stop_the_board_and_crib_state_says_what_is_missing(tmp_path, capsys):
    address, state = str(tmp_path / "notify"), tmp_path / "s"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as systemd:
        systemd.bind(address)
        systemd.settimeout(30)
        child = subprocess.Popen([sys.executable, "-m", "companion.cli", "run", "--state-dir", str(state),
                                  *QUIET_DEVICES, "--set", "devices.scanner=serial", "--set",
                                  "scanner.port=/dev/ttyUSB-none", "--set", "devices.display=ssd1306", "--set",
                                  "display.i2c_port=19"], env={**os.environ, "NOTIFY_SOCKET": address},
                                 cwd=Path(__file__).parents[2], stderr=subprocess.PIPE, text=True)
        try:
            assert systemd.recv(4096).decode().startswith("READY=1")  # the game goes on without them
            assert main(["state", "--state-dir", str(state)]) == 0
        finally:
            child.send_signal(signal.SIGTERM)
        assert child.wait(30) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed[1].startswith("scanner: missing: cannot open the scanner's serial port /dev/ttyUSB-none")
    assert printed[2].startswith("OLED: missing: no I2C bus /dev/i2c-19 for the OLED")
    assert printed[3] == "LED strip: connected"  # the recording strip (devices.strip = "sim") is always there
    assert child.stderr is not None
    said = [line for line in child.stderr.read().splitlines() if not line.startswith("INFO ")]  # the page's address
    assert [line.split(":")[0] for line in said] == ["WARNING companion.devices.presence"] * 2  # once each
    assert said[0].startswith("WARNING companion.devices.presence: scanner: missing (cannot open the scanner's serial")
    assert not (state / "devices.json").exists()  # no board runs: crib state says nothing of devices
    assert main(["state", "--state-dir", str(state)]) == 0
    assert "scanner:" not in capsys.readouterr().out


def test_a_wrong_pin_is_still_an_error_at_start_naming_the_key(tmp_path, capsys):
    status = main(["run", "--state-dir", str(tmp_path), *QUIET_DEVICES, "--set", "devices.keypad=gpio",
                   "--set", "keypad.rows=[5, 6, 13, 40]"])
    assert status == 2
    assert "keypad.rows must be a list of 4 GPIO numbers from 2 to 27" in capsys.readouterr().err


def test_run_logs_a_missing_strip_with_what_to_check(tmp_path):
    port, address = tmp_path / "ttyACM0", str(tmp_path / "notify")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as systemd:
        systemd.bind(address)
        systemd.settimeout(30)
        child = subprocess.Popen([sys.executable, "-m", "companion.cli", "run", "--state-dir", str(tmp_path / "s"),
                                  *QUIET_DEVICES, "--set", "devices.strip=pico", "--set", f"strip.port={port}"],
                                 env={**os.environ, "NOTIFY_SOCKET": address}, cwd=Path(__file__).parents[2],
                                 stderr=subprocess.PIPE, text=True)
        assert systemd.recv(4096).decode().startswith("READY=1")  # the game goes on without its strip
        child.send_signal(signal.SIGTERM)
        assert child.wait(30) == 0
    assert child.stderr is not None
    assert child.stderr.read().splitlines()[0] == (
        f"WARNING companion.devices.pegstrip: LED strip: not connected: {port} is missing: is the Pico plugged in? "
        "Check its USB cable, and that strip.port names it (ls /dev/ttyACM*)")
