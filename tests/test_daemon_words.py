"""Every word the service says to a person, in the system's language (the journal's reader's): its help and
argparse's errors, why it cannot start (an engine's refusal, a full disk), and its journal lines (its address, a
log repaired at start, a status file or systemd it cannot reach), while the board speaks its own language."""

from __future__ import annotations

import errno
import logging
import os
import socket
from pathlib import Path

import pytest

from companion import daemon
from companion.base.clock import ManualClock
from companion.config import load_config
from companion.cribbage.cards import parse_cards
from companion.daemon import Daemon, Notifier, open_game, setup_input
from companion.i18n import speaking
from companion.registry import Devices
from companion.view.screen import screen_text
from tests.daemon_script import SIM, run_script
from tests.sample_deal import DEAL

GERMAN, ENGLISH = "de_DE.UTF-8", "C.UTF-8"


@pytest.mark.parametrize(("system", "said"), [
    (ENGLISH, "'ZZ' is not a card: type a rank"), (GERMAN, "'ZZ' ist keine Karte: tippe einen Rang")])
def test_an_engine_refusal_reaching_the_service_is_said_in_the_systems_language(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], system: str, said: str) -> None:
    monkeypatch.setenv("LANG", system)
    monkeypatch.setattr(daemon, "serve", lambda args: parse_cards("ZZ"))  # whatever raises one on the way up
    assert daemon.main([]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"cribbage-companion: {said}") and err.count("\n") == 1


def test_the_services_help_and_argparse_errors_are_in_the_systems_language(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("LANG", GERMAN)
    with pytest.raises(SystemExit) as exited:
        daemon.main(["--bogus"])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("Aufruf: cribbage-companion") and err.endswith("unbekannte Argumente: --bogus\n")
    with pytest.raises(SystemExit):
        daemon.main(["--help"])
    out = capsys.readouterr().out
    assert "Der Dienst von Cribbage Companion." in out and "Aufruf: cribbage-companion" in out
    assert "start a new game" not in out and "usage:" not in out and "options:" not in out


@pytest.mark.parametrize(("case", "said"), [
    ((ENGLISH, errno.ENOSPC), "No space left on device: the disk is full: free space on it, and start the board again"),
    ((GERMAN, errno.ENOSPC), "No space left on device: der Datenträger ist voll: schaffe Platz darauf und starte das "
                           "Brett neu"),
    ((ENGLISH, errno.EACCES), "Permission denied: let the board's user write there (the unit's StateDirectory=, or "
                            "[state] dir), and start the board again"),
    ((GERMAN, errno.ENOENT), "No such file or directory: prüfe das Zustandsverzeichnis ([state] dir, --state-dir) und "
                           "seinen Datenträger und starte das Brett neu")])
def test_a_file_the_system_refuses_at_start_is_said_in_the_systems_language_and_the_devices_are_let_go(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], case: tuple[str, int],
        said: str) -> None:
    system, number = case
    monkeypatch.setenv("LANG", system)
    token = tmp_path / "web-token"

    def full(config: object, state_dir: Path) -> str:  # the first file a fresh board writes: its page's token
        raise OSError(number, os.strerror(number), str(token))

    monkeypatch.setattr("companion.web.wiring.board_token", full)
    closed: list[Devices] = []
    close = Devices.close
    monkeypatch.setattr(Devices, "close", lambda board: closed.append(board) or close(board))
    assert daemon.main(["--state-dir", str(tmp_path), "--set", "web.listen=127.0.0.1:0"]) == 2
    assert capsys.readouterr().err == f"cribbage-companion: {token}: {said}\n"
    assert len(closed) == 1  # the devices opened for the game are closed before it is said
    assert not (tmp_path / "devices.json").exists()  # no service ran: `crib state` says none runs


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full, a disk that is always full")
def test_a_full_disk_at_the_first_start_names_the_token_file_it_could_not_write(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("LANG", ENGLISH)
    fdopen = os.fdopen

    def onto_a_full_disk(descriptor: int, *args: object, **kwargs: object) -> object:  # every byte refused: ENOSPC
        os.close(descriptor)
        return fdopen(os.open("/dev/full", os.O_WRONLY), *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(os, "fdopen", onto_a_full_disk)
    # as the unit starts it: no --state-dir, the state directory from the configuration
    assert daemon.main(["--set", f"state.dir={tmp_path}", "--set", "web.listen=127.0.0.1:0"]) == 2
    assert capsys.readouterr().err == (f"cribbage-companion: {tmp_path / 'web-token'}: No space left on device: the "
                                       "disk is full: free space on it, and start the board again\n")


def test_the_journal_speaks_the_systems_language_while_the_board_speaks_its_own(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setenv("LANG", GERMAN)
    _, board, table = run_script(tmp_path, DEAL[:6])
    board.close()
    lines = table.log.path.read_bytes().splitlines(keepends=True)
    table.log.path.write_bytes(b"".join(lines[:4]) + b'{"type":"play","card":"10C"}\n' + b"".join(lines[4:]))
    config = load_config(overrides=[*SIM, "game.language=en"], system_path=None)
    clock = ManualClock()
    script = tmp_path / "none.txt"
    script.write_text("")
    caplog.set_level(logging.INFO)
    with speaking("en"):  # as serve speaks the board's language
        board, table = open_game(config, state_dir=tmp_path / "state", clock=clock, simulate=True, script=script,
                                 setup=setup_input(config, ["Ann", "Bob"], "Ann"))
        nowhere = Notifier({"NOTIFY_SOCKET": str(tmp_path / "no-socket")})
        board_daemon = Daemon(table, board, clock=clock, notifier=nowhere, address=lambda: "192.168.1.23",
                              status_path=tmp_path / "gone" / "devices.json")
        try:
            board_daemon.start()
        finally:
            board.close()
    journal = [record.getMessage() for record in caplog.records]
    assert any(": Zeile 5 enthält " in line for line in journal), journal  # the log repaired at start
    assert "die Adresse des Bretts: 192.168.1.23" in journal
    assert any(line.startswith(f"kann {tmp_path / 'gone' / 'devices.json'} nicht schreiben") for line in journal)
    assert any(line.startswith("kann systemd 'READY=1") for line in journal)
    assert not [line for line in journal if "the board" in line or "cannot" in line or "line 5" in line]
    shown = " ".join(line.strip() for line in screen_text(table.presenter.view))
    assert "IP address 192.168.1.23" in shown  # the board's own language on its OLED


def test_systemctl_status_shows_the_tables_prompt_in_the_systems_language(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANG", GERMAN)
    address = str(tmp_path / "notify")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as systemd, speaking("en"):  # the board speaks English
        systemd.bind(address)
        _, board, table = run_script(tmp_path, [], notifier=Notifier({"NOTIFY_SOCKET": address}))
        board.close()
        told = systemd.recv(1024).decode()
    assert told == "READY=1\nSTATUS=Ann gibt. Startkarte eingeben"
    assert table.prompt() == "Ann deals. Enter the starter"
