"""The daemon with devices that are missing at start, pulled out mid-game and plugged back in: the scanner (a
serial scanner on a pseudo-terminal), the OLED (luma's ssd1306 on an smbus2 bus that fails), the Pico (the
simulated one, running the firmware) and the keypad (gpiozero's mock pins). The board scores every entry
throughout, and says each fault once: on the screen, in the journal and in the status file `crib state` reads.
Also the watchdog: a stalled main loop stops its pings, so systemd restarts it."""

from __future__ import annotations

import logging
import socket
import threading
from pathlib import Path

import pytest
import smbus2

from companion.config import load_config
from companion.cribbage.game import replay
from companion.daemon import Daemon, Notifier, open_game, setup_input
from companion.devices.base import Entry, ManualClock
from companion.devices.presence import STATUS_FILE, read_status
from companion.gamelog import GameLog, current_log
from companion.table import Outcome
from companion.words.phrases import message_words
from tests.daemon_script import run_script
from tests.devices.fakes import FakeI2C, PtyScanner
from tests.facts import by_name

# The sample deal (tests/golden/deal.txt): starter, the plays and go's, the crib; each entry with the device that
# enters it here. Keypad: rank then suit (1 clubs, 2 diamonds, 3 hearts, 4 spades), * 1 for a jack, A for GO.
DEAL = [("5C", "key:51"), ("10C", "scan"), ("4C", "key:41"), ("5H", "key:53"), ("6D", "scan"), ("5D", "key:52"),
        ("go", "key:A"), ("go", "key:A"), ("7S", "scan"), ("JH", "key:*13"), ("8H", "key:83"), ("2C", "scan"),
        ("3D", "key:32"), ("9S", "scan"), ("KH", "key:*33")]


class Table:
    """The daemon on its devices, a manual clock moving 10 ms a turn of the loop."""

    def __init__(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        self.i2c = FakeI2C(display=False)  # the OLED not plugged in at start
        monkeypatch.setattr(smbus2, "SMBus", self.i2c.SMBus)
        self.scanner = PtyScanner(tmp_path / "ttyUSB0", plugged=False)  # nor the scanner
        config = load_config(overrides=["devices.pin_factory=mock", "devices.buttons=none", "devices.scanner=serial",
                                        f"scanner.port={self.scanner.path}", "devices.display=ssd1306",
                                        "devices.strip=pico-sim"], system_path=None)
        self.clock = ManualClock()
        self.state_dir = tmp_path / "state"
        self.board, self.table = open_game(config, state_dir=self.state_dir, clock=self.clock, simulate=False,
                                           setup=setup_input(config, ["Ann", "Bob"], "Ann"))
        self.pico = self.board.pico
        assert self.pico is not None
        self.pico.unplug()  # nor the Pico
        self.said: list[str] = []
        announce = self.table.announce
        self.table.announce = lambda message, *, error: (self.said.append(message_words(message)),
                                                         announce(message, error=error))
        self.outcomes: list[Outcome] = []
        self.daemon = Daemon(self.table, self.board, clock=self.clock, status_path=self.state_dir / STATUS_FILE,
                             on_outcome=self.outcomes.append)
        self.daemon.start()

    def turn(self, seconds: float = 0.0) -> None:
        for _ in range(max(1, round(seconds / 0.01))):
            self.daemon.step(timeout=0)
            self.clock.advance(0.01)

    def until(self, done, seconds: float = 10.0, wait: float = 0.0) -> None:
        """Turn the loop until `done()`, waiting up to `wait` s a turn for entries from the devices' threads."""
        for _ in range(round(seconds / 0.01)):
            if done():
                return
            self.daemon.step(timeout=wait)
            self.clock.advance(0.01)
        assert done(), (self.table.message, self.table.prompt(), len(self.table.log.inputs))

    def back(self, seconds: float = 10.0) -> None:
        """Turn the loop until every device is back: the OLED's and the scanner's retries are on the clock alone,
        the Pico's handshake is on its link's and firmware's threads."""
        self.until(lambda: self.missing() <= {"LED strip"}, seconds)
        self.until(lambda: not self.missing(), seconds, wait=0.02)

    def enter(self, text: str, how: str) -> None:
        """Scan or key one entry, and see it taken (a crib card is held until the fourth)."""
        done = len(self.outcomes)
        if how == "scan":
            self.scanner.send(f"{text}\r\n".encode())
        else:
            assert self.board.keypad is not None
            self.board.keypad.tap(how[4:])
        # a scanned code comes from the scanner's thread; the keypad is scanned by the loop, on the clock alone
        self.until(lambda: len(self.outcomes) > done, wait=0.02 if how == "scan" else 0.0)
        assert len(self.outcomes) == done + 1 and not self.outcomes[-1].error, self.outcomes[done:]

    def missing(self) -> set[str]:
        return {what for what, problem in self.daemon.devices.items() if problem}


def test_devices_absent_at_start_and_pulled_mid_game_come_back_and_the_game_is_scored_throughout(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    board = Table(tmp_path, monkeypatch)
    try:
        board.until(lambda: board.missing() == {"scanner", "OLED", "LED strip"}, wait=0.02)
        assert read_status(board.state_dir) == board.daemon.devices  # what crib state prints
        assert board.said == ["Not connected: scanner, OLED. The game goes on; check the cable"]
        deal = iter(DEAL)

        def play(count: int) -> None:
            for _ in range(count):
                text, how = next(deal)
                board.enter(text, how if how != "scan" or "scanner" not in board.missing() else keyed(text))

        play(2)  # the starter and 10C on the keypad: the scanner is not there
        assert board.table.state.count == 10
        board.scanner.plug()
        board.i2c.plug()
        board.pico.plug()
        board.back()
        assert board.said[1:] == ["Connected again: scanner, OLED"]
        assert board.i2c.on and board.i2c.shown().tobytes() == board.table.picture.image.tobytes()
        assert board.pico.settle(board.board.strip) and lit(board.pico.picture()) == lit(board.table.picture.frame)
        play(3)  # 4C 5H by keypad, 6D scanned
        assert by_name(board.table.state.scores) == {"Ann": 3, "Bob": 0}  # 4 5 6: a run of three, for Ann

        board.scanner.unplug()  # pulled out, mid-game
        board.i2c.unplug()  # and the OLED's bus fails for a while
        board.pico.unplug()
        play(4)  # 5D, go, go, 7S: all on the keypad
        board.until(lambda: board.missing() == {"scanner", "OLED", "LED strip"}, wait=0.02)
        assert news(board.said[2:]) == [("gone", "OLED"), ("gone", "scanner")]
        told = len(board.said)
        board.turn(40)  # forty seconds of retries with nothing back: nothing more is said
        assert len(board.said) == told
        board.scanner.plug()
        board.i2c.plug()  # power came back too: the display must be initialised again
        board.pico.plug()  # a fresh Pico: it is sent the whole board
        board.back(seconds=40)
        assert news(board.said[told:]) == [("back", "OLED"), ("back", "scanner")]
        play(6)  # the rest of the plays, scanned and keyed
        assert board.i2c.on and board.i2c.shown().tobytes() == board.table.picture.image.tobytes()
        assert board.pico.settle(board.board.strip) and lit(board.pico.picture()) == lit(board.table.picture.frame)
    finally:
        board.daemon.board.close()
        board.scanner.unplug()
    # the game is the one an undisturbed board scores from the same entries
    (tmp_path / "reference").mkdir()
    undisturbed, _, reference = run_script(tmp_path / "reference", [text for text, _ in DEAL])
    undisturbed.board.close()
    logged = GameLog.open(current_log(board.state_dir)).inputs
    assert replay(logged) == board.table.state
    assert board.table.state.scores == reference.state.scores and board.table.state.phase == reference.state.phase
    journal = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    for what in ("scanner: missing", "OLED: missing", "LED strip: not connected"):
        assert len([line for line in journal if line.startswith(what)]) == 2, what  # at start, and mid-game


def news(said: list[str]) -> list[tuple[str, str]]:
    """What the screen told, device by device: ("gone", "OLED"), ("back", "scanner") ..."""
    told = []
    for message in said:
        for part in message.split(". "):
            kind = "gone" if part.startswith("Not connected: ") else "back" if part.startswith("Connected again: ") \
                else None
            if kind is not None:
                told += [(kind, what) for what in part.split(": ", 1)[1].split(", ")]
    return sorted(told)


def lit(frame: tuple[tuple[int, int, int], ...]) -> list[int]:
    """The LEDs that are on: the pegs (and marks) where the board shows them."""
    return [index for index, colour in enumerate(frame) if any(colour)]


def keyed(text: str) -> str:
    """The keypad's keys for a card (when the scanner is away)."""
    rank, suit = text[:-1], text[-1]
    ranks = {"A": "1", "10": "0", "J": "*1", "Q": "*2", "K": "*3"}
    return "key:" + ranks.get(rank, rank) + "CDHS".index(suit).__add__(1).__str__()


def test_a_stalled_main_loop_stops_the_watchdog_pings_so_systemd_restarts_it(tmp_path: Path) -> None:
    address = str(tmp_path / "notify")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as systemd:
        systemd.bind(address)
        clock = ManualClock()
        notifier = Notifier({"NOTIFY_SOCKET": address, "WATCHDOG_USEC": "30000000"})  # WatchdogSec=30
        daemon, board, table = run_script(tmp_path, [], clock=clock, notifier=notifier)
        systemd.settimeout(5)
        heard = [systemd.recv(1024).decode() for _ in range(2)]
        assert heard[0].startswith("READY=1") and heard[1] == "WATCHDOG=1"
        stuck, handle = threading.Event(), table.handle

        def stalled(entry: Entry):  # an entry whose handling hangs (a dead SD card's fsync)
            stuck.wait(30)
            return handle(entry)

        table.handle = stalled
        table.emit(Entry("5C"))
        loop = threading.Thread(target=daemon.step, kwargs={"timeout": 0})
        loop.start()
        clock.advance(120)  # two minutes: four times WatchdogSec
        systemd.settimeout(0.5)
        with pytest.raises(TimeoutError):
            systemd.recv(1024)  # not one ping: systemd's watchdog fires after 30 s, and Restart= starts it again
        stuck.set()
        loop.join(10)
        systemd.settimeout(5)
        assert systemd.recv(1024).decode() == "WATCHDOG=1"  # the loop that goes round again pings again
        board.close()
