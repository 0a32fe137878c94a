"""The page and the computer players added to a running board: `attach` puts a `ComputerGame` and (unless
told not to) a `WebServer` among the board's entry devices, so the daemon's loop starts, polls and closes
them like a keypad or a scanner.

In simulation the controls need no token. On a real board they need the control token: `[web] token`, or one
made at the first start and kept in the state directory (`web-token`); the OLED shows it from the menu. With
`[web] https` the page is served over HTTPS too, with the board's own certificate (companion/web/tls.py): the
menu says the phones' address and the certificate's fingerprint.
"""

from __future__ import annotations

import errno
import os
import secrets
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from companion.config import Config
from companion.devices.base import Clock
from companion.devices.camera import taught_folder
from companion.play.computer import ComputerGame
from companion.registry import Devices
from companion.table import Outcome, Table
from companion.words.messages import PageAddress

from .server import WebServer, parse_listen
from .tls import NAME, board_certificate

TOKEN_FILE = "web-token"


def board_token(config: Config, state_dir: Path) -> str:
    """The control token of a real board: configured, or made once and kept beside the games."""
    if config.web.token:
        return config.web.token
    path = state_dir / TOKEN_FILE
    try:
        kept = path.read_text().strip()
    except FileNotFoundError:
        kept = ""
    if kept:
        return kept
    token = secrets.token_hex(4)
    # written whole under a name of its own, then linked: a full disk leaves no empty token behind, and of two
    # starts at once the first link wins and both say its token
    temporary = None
    try:
        state_dir.mkdir(parents=True, exist_ok=True)
        descriptor, temporary = tempfile.mkstemp(dir=state_dir, prefix=".web-token.")
        with os.fdopen(descriptor, "w") as file:
            file.write(token + "\n")
            file.flush()
            os.fsync(file.fileno())
        return _placed(temporary, path) or token
    except OSError as error:  # name the token's file, not a temporary one gone by the time the person reads it
        error.filename = str(path)
        raise
    finally:
        if temporary is not None:
            Path(temporary).unlink(missing_ok=True)


NO_LINKS = {errno.EPERM, errno.EOPNOTSUPP, errno.ENOSYS}
"""What link(2) says on a disk without hard links (FAT, some FUSE file systems)."""


def _placed(temporary: str, path: Path) -> str | None:
    """The written token put in place as `path`, or the token another start put there first."""
    try:
        os.link(temporary, path)
    except FileExistsError:
        kept = path.read_text().strip()
        if kept:
            return kept
        os.replace(temporary, path)  # a blank token file (emptied to make a new token): never a blank token
    except OSError as error:
        if error.errno not in NO_LINKS:
            raise
        os.replace(temporary, path)  # no hard links: of two starts at once the last wins
    return None


@dataclass
class Attached:
    computer: ComputerGame
    web: WebServer | None

    def outcome(self, outcome: Outcome) -> None:
        """The daemon's on_outcome: the computer players hear every outcome; a phone waiting for it gets it."""
        self.computer.outcome(outcome)
        if self.web is not None:
            self.web.outcome(outcome)

    def chain(self, other: Callable[[Outcome], None] | None) -> Callable[[Outcome], None]:
        """An on_outcome for the daemon: `outcome` above, then `other`."""
        def both(outcome: Outcome) -> None:
            self.outcome(outcome)
            if other is not None:
                other(outcome)
        return both


def attach(config: Config, board: Devices, table: Table, *, state_dir: Path, clock: Clock, simulate: bool,
           web: bool = True, listen: str | None = None, move_seconds: float | None = None,
           on_ready: Callable[[str], None] | None = None) -> Attached:
    computer = ComputerGame(table, clock=clock) if move_seconds is None else ComputerGame(
        table, clock=clock, delay=move_seconds)
    board.entries.append(computer)
    server = None
    if web:
        token = None if simulate else board_token(config, state_dir)
        https = parse_listen(config.web.https) if config.web.https else None
        certificate = board_certificate(state_dir) if https else None
        address = parse_listen(listen or config.web.listen)  # --listen checked by the command, as [web] listen is
        server = WebServer(table, listen=address, token=token, clock=clock,
                           state_dir=state_dir, computer=computer,
                           key_timeout=config.keypad.sequence_timeout_ms / 1000, any_port=simulate,
                           on_ready=on_ready, https=https, certificate=certificate,
                           deck=taught_folder(config.camera.deck, state_dir))
        board.entries.append(server)
        phones = None if https is None or certificate is None else f"https://{NAME}:{https[1]}/scan"
        if token is not None or certificate is not None:
            table.menu_note = PageAddress(config.web.listen, token, phones,
                                          None if certificate is None else certificate.short)
    return Attached(computer, server)
