"""A Mosquitto of our own on 127.0.0.1: a free port, the password file and the ACL that `crib club credentials`
writes (credentials.py).

The club tests and `crib bench --only club` start one (Debian's `mosquitto` package); it listens on the
loopback address only and keeps its files in the folder it is given. Given a club's credentials folder it
runs with that folder's very files; else every user named has the one test password.
"""

from __future__ import annotations

import functools
import getpass
import shutil
import socket
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

from companion.club.credentials import QUEUED, acl, password_line
from companion.club.publisher import Broker

PASSWORD = "s3cret-for-tests"  # every user's, on this loopback-only broker
WAIT = 30.0  # seconds a broker or a message may take on a loaded machine before a test gives up (a state
# that comes sooner ends the wait sooner: a passing test never waits this long)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for(condition: Callable[[], object], what: str, timeout: float = WAIT) -> None:
    """Poll a condition that a real broker makes true (real sockets and threads: no manual clock here)."""
    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            raise TimeoutError(f"timed out waiting for {what}")
        time.sleep(0.01)


class Mosquitto:
    def __init__(self, folder: Path, club: str, users: list[str], credentials: Path | None = None,
                 *, anonymous: bool = False) -> None:
        exe = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
        if not Path(exe).exists():
            raise RuntimeError("mosquitto is not installed: `sudo apt install mosquitto` "
                               "(`python3 dev.py test` installs it)")
        self.exe, self.folder, self.anonymous, self._port = exe, folder, anonymous, free_port()
        self.kept = False  # the port was given out before the start: the broker keeps it whatever happens
        folder.mkdir(parents=True, exist_ok=True)
        self.credentials = credentials
        if credentials is None:
            self.files = folder / "passwords", folder / "acl"
            self.files[0].write_text("".join(password_line(user, PASSWORD) + "\n" for user in users))
            self.files[1].write_text(acl(club))
        else:
            self.files = credentials / "mosquitto" / "cribbage.passwords", credentials / "mosquitto" / "cribbage.acl"
        self.log = folder / "mosquitto.log"
        self._configure()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def port(self) -> int:
        """The broker's port; asked before the start, it is kept (the one asking will connect there)."""
        self.kept = True
        return self._port

    def _configure(self) -> None:
        passwords, rules = self.files
        (self.folder / "mosquitto.conf").write_text(
            f"listener {self._port} 127.0.0.1\nallow_anonymous {str(self.anonymous).lower()}\n"
            f"password_file {passwords}\nacl_file {rules}\npersistence true\npersistence_location {self.folder}/\n"
            f"max_queued_messages {QUEUED}\n"
            "autosave_interval 1\n"
            f"user {getpass.getuser()}\n"  # as root it would switch to "mosquitto", who cannot write here
            f"log_dest file {self.log}\n")

    def start(self) -> None:
        """Start the broker and wait until its log says it runs (a port that another program took meanwhile
        is left for a free one, unless the port was given out already)."""
        for _attempt in range(5):
            said = self.log.stat().st_size if self.log.exists() else 0
            self.process = process = subprocess.Popen([self.exe, "-c", str(self.folder / "mosquitto.conf")],
                                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            wait_for(functools.partial(self._settled, process, said), "mosquitto to listen")
            if process.poll() is None:
                self.kept = True
                return
            self.process = None
            if self.kept or "Address already in use" not in self._log_since(said):
                break
            self._port = free_port()
            self._configure()
        raise RuntimeError(f"mosquitto exited: {self.log.read_text() if self.log.exists() else 'no log'}")

    def _settled(self, process: subprocess.Popen[bytes], said: int) -> bool:
        """The broker has exited, or logged that it runs."""
        return process.poll() is not None or " running" in self._log_since(said)

    def _log_since(self, offset: int) -> str:
        """What the broker logged after `offset` bytes of its log (it flushes each line)."""
        if not self.log.exists():
            return ""
        with self.log.open("rb") as file:
            file.seek(offset)
            return file.read().decode("utf-8", "replace")

    def stop(self) -> None:
        """SIGTERM: Mosquitto saves its persistence file (retained messages, sessions) as it stops."""
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=WAIT)
            self.process = None

    def broker(self, user: str) -> Broker:
        """How `user` signs in: the test password, or the one in the credentials folder ("" for anonymous)."""
        if self.credentials is None or not user:
            return Broker("127.0.0.1", self.port, username=user, password=PASSWORD if user else "")
        place = self.credentials / ("scoreboard.password" if user == "scoreboard" else f"boards/{user}/password")
        return Broker("127.0.0.1", self.port, username=user, password=place.read_text(encoding="utf-8").strip())
