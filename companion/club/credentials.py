"""A club's credentials, made by the director once: a broker password for each board and for the scoreboard,
the director's token, the club's signing secret; and the Mosquitto files that enforce them.

`make_credentials` writes, into one folder (files readable by their owner only):

    mosquitto/cribbage.passwords   Mosquitto's password file (PBKDF2-SHA512, the form `mosquitto_passwd` writes)
    mosquitto/cribbage.acl         each board writes only its own topics and reads only its own seat; the
                                   scoreboard reads the club's boards and writes the seats
    mosquitto/cribbage.conf        the listener's settings naming both (for /etc/mosquitto/conf.d/)
    boards/BOARD/password          the board's broker password (its `[club] password_file`)
    boards/BOARD/signing.key       the board's signing key, for a broker that cannot be configured
    scoreboard.password            the scoreboard's broker password
    director.token                 the token the scoreboard asks for before a card or a decision is taken
    club.secret                    the scoreboard's secret, from which each board's signing key is derived

Made again with more boards, the passwords and keys already there are kept.
"""

from __future__ import annotations

import base64
import hashlib
import os
import secrets
from collections.abc import Sequence
from pathlib import Path

from companion.club.protocol import board_key, check_name
from companion.club.refused import Refused
from companion.words.club import Why

SCOREBOARD = "scoreboard"
ITERATIONS = 101  # what mosquitto_passwd 2.x writes for its "$7$" (PBKDF2-SHA512) hashes
SALT_BYTES = 12


def password_line(user: str, password: str, salt: bytes | None = None) -> str:
    """One line of Mosquitto's password file: `user:$7$101$SALT$HASH` (base64), PBKDF2-HMAC-SHA512."""
    salt = secrets.token_bytes(SALT_BYTES) if salt is None else salt
    digest = hashlib.pbkdf2_hmac("sha512", password.encode("utf-8"), salt, ITERATIONS)
    return f"{user}:$7${ITERATIONS}${base64.b64encode(salt).decode()}${base64.b64encode(digest).decode()}"


def acl(club: str, *, home_assistant: bool = True) -> str:
    """The broker's ACL: the scoreboard reads the club and writes the seats; each board (its user name is its
    id) writes only under its own topics and reads only its own seat; Home Assistant may read the club."""
    text = (f"user {SCOREBOARD}\ntopic read cribbage/{club}/#\ntopic write cribbage/{club}/seats/#\n\n")
    if home_assistant:
        text += f"user homeassistant\ntopic read homeassistant/#\ntopic read cribbage/{club}/#\n\n"
    return text + (f"pattern write cribbage/{club}/boards/%u/#\n"
                   f"pattern read cribbage/{club}/seats/%u\n"
                   "pattern write homeassistant/sensor/cribbage_%u/#\n")


QUEUED = 100_000  # messages the broker keeps for a slow client: every input is needed to check a game


def broker_conf(folder: Path, port: int = 1883) -> str:
    """Mosquitto's settings for the club. Its default queue (1,000 messages a client) drops inputs when the
    scoreboard falls behind a busy night, and a game missing an input never counts: keep them all."""
    return (f"listener {port}\nallow_anonymous false\npassword_file {folder / 'cribbage.passwords'}\n"
            f"acl_file {folder / 'cribbage.acl'}\npersistence true\nmax_queued_messages {QUEUED}\n")


def _secret(path: Path, make: str) -> str:
    """The secret kept at `path`, or `make` written there (owner only)."""
    if path.exists():
        return path.read_text(encoding="utf-8").strip()
    path.parent.mkdir(parents=True, exist_ok=True)
    _write(path, make + "\n")
    return make


def _write(path: Path, text: str) -> None:
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as out:
        out.write(text)


def make_credentials(folder: Path, club: str, boards: Sequence[str], *, install: Path | None = None,
                     port: int = 1883, home_assistant_password: str | None = None) -> dict[str, str]:
    """Write the club's credentials into `folder` (see the module's text); the broker's files name their place
    as `install` (default /etc/mosquitto). Returns each broker user's password."""
    check_name(club, "club")
    for board in boards:
        check_name(board, "board")
        if board in (SCOREBOARD, "homeassistant"):
            raise Refused(Why.TAKEN_NAME, board=board)
    if len(set(boards)) != len(boards):
        raise Refused(Why.BOARD_TWICE)
    folder.mkdir(parents=True, exist_ok=True)
    os.chmod(folder, 0o700)
    passwords = {SCOREBOARD: _secret(folder / "scoreboard.password", secrets.token_urlsafe(18))}
    _secret(folder / "director.token", secrets.token_urlsafe(24))
    secret = bytes.fromhex(_secret(folder / "club.secret", secrets.token_hex(32)))
    for board in boards:
        passwords[board] = _secret(folder / "boards" / board / "password", secrets.token_urlsafe(18))
        _secret(folder / "boards" / board / "signing.key", board_key(secret, board).hex())
    if home_assistant_password:
        passwords["homeassistant"] = home_assistant_password
    broker = folder / "mosquitto"
    broker.mkdir(exist_ok=True)
    _write(broker / "cribbage.passwords", "".join(password_line(u, p) + "\n" for u, p in passwords.items()))
    _write(broker / "cribbage.acl", acl(club, home_assistant=bool(home_assistant_password)))
    _write(broker / "cribbage.conf", broker_conf(install or Path("/etc/mosquitto"), port))
    return passwords
