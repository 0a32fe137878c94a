"""`python3 dev.py pi-check`'s preparation of a root (the whole check takes minutes under qemu and runs by hand,
as systemd/README.md says): a clean copy of the cached root with the checkout, the stand-ins and this machine's
pip and CA settings; and what it refuses."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "systemd"))
import pi_check  # noqa: E402

sys.path.remove(str(ROOT / "systemd"))


def test_a_run_gets_a_clean_copy_with_the_checkout_stand_ins_and_this_machines_certificates(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pi_check, "CACHE", tmp_path)
    base = tmp_path / "trixie-arm64"
    (base / "etc").mkdir(parents=True)
    (base / "etc" / "debian_version").write_text("13.2\n")
    ca = tmp_path / "host.crt"
    ca.write_text("-----BEGIN CERTIFICATE-----\n")
    monkeypatch.setattr(pi_check, "CA_CERTIFICATES", str(ca))
    (tmp_path / "trixie-arm64-run" / "leftover").mkdir(parents=True)  # the last run's root: replaced
    root = pi_check.prepare(base, "trixie", ROOT)
    assert not (root / "leftover").exists() and (base / "etc" / "debian_version").exists()
    checkout = root / pi_check.SOURCE.lstrip("/")
    assert (checkout / "systemd" / "install.sh").read_bytes() == (ROOT / "systemd" / "install.sh").read_bytes()
    assert (checkout / "companion" / "firmware").is_symlink()  # the package's link to firmware/, kept
    assert not (checkout / ".venv").exists()
    assert (root / "etc" / "host-ca.crt").read_text() == ca.read_text()
    assert not (root / "usr" / "local" / "sbin").exists()  # no stand-ins: install.sh runs as in an image builder
    assert os.access(root / "usr" / "sbin" / "policy-rc.d", os.X_OK)  # packages start no services in the root
    environment = pi_check.environment()
    assert environment["PIP_CERT"] == environment["SSL_CERT_FILE"] == "/etc/host-ca.crt"


def test_an_unknown_release_or_no_root_changes_nothing(capsys: pytest.CaptureFixture[str],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    python = Path(sys.executable)
    assert pi_check.main(["buster"], checkout=ROOT, apt_install=lambda packages: False, python=python) == 2
    assert "no release 'buster': choose from trixie, bookworm" in capsys.readouterr().out
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    assert pi_check.main([], checkout=ROOT, apt_install=lambda packages: False, python=python) == 2
    assert "pi-check needs root" in capsys.readouterr().out


def test_the_deal_in_the_root_must_score_as_it_does_on_this_machine() -> None:
    reference = pi_check.reference_deal(Path(sys.executable), ROOT)  # the sample deal, as pi-check plays it here
    assert len(reference.answers) == len(reference.entries) and reference.answers[-1].startswith("ok ")
    assert reference.scores() == "Ann 17, Bob 21" and "log" not in reference.state
    same = pi_check.Deal(reference.entries, list(reference.answers), json.loads(json.dumps(reference.state)))
    assert pi_check.differences(reference, same) == []
    miscounted = json.loads(json.dumps(reference.state))
    miscounted["sides"][1]["score"] = 19  # a crib counted otherwise there: every answer taken, yet not the same
    assert pi_check.differences(reference, pi_check.Deal(reference.entries, reference.answers, miscounted)) == [
        f"the state's 'sides': here {reference.state['sides']!r}, there {miscounted['sides']!r}"]
    refused = [*reference.answers[:-1], "rejected 'KH': the crib has four cards already"]
    assert pi_check.differences(reference, pi_check.Deal(reference.entries, refused, reference.state)) == [
        f"entry 15 (KH): here {reference.answers[-1]!r}, there {refused[-1]!r}"]


def test_the_daemon_runs_as_the_user_cribbage_with_the_units_groups_in_its_state_directory(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "etc").mkdir()
    (tmp_path / "etc" / "passwd").write_text("root:x:0:0:root:/root:/bin/bash\n"
                                             "cribbage:x:998:997::/var/lib/cribbage-companion:/usr/sbin/nologin\n")
    (tmp_path / "etc" / "group").write_text("root:x:0:\ngpio:x:996:cribbage\ni2c:x:995:cribbage\n"
                                            "dialout:x:20:cribbage\ninput:x:101:cribbage\ncribbage:x:997:\n")
    owners = []
    monkeypatch.setattr(os, "chown", lambda path, uid, gid: owners.append((Path(path), uid, gid)))
    argv = pi_check.daemon_argv(tmp_path, 8999)
    assert argv == ["chroot", "--userspec=998:997", "--groups=996,995,20,101", str(tmp_path), "env",
                    "--chdir=/var/lib/cribbage-companion", "HOME=/var/lib/cribbage-companion",
                    "NOTIFY_SOCKET=/tmp/pi-check-notify", "/opt/cribbage-companion/venv/bin/cribbage-companion",
                    "--set", "web.listen=127.0.0.1:8999"]
    assert owners == [(tmp_path / "var/lib/cribbage-companion", 998, 997)]  # no --config, no pin_factory: installed
    assert "User=cribbage" in (ROOT / "systemd" / "cribbage-companion.service").read_text()
    unit = (ROOT / "systemd" / "cribbage-companion.service").read_text()
    assert f"SupplementaryGroups={' '.join(pi_check.USER_GROUPS)}" in unit
    assert f"WorkingDirectory={pi_check.STATE}" in unit and "StateDirectory=cribbage-companion" in unit


@pytest.mark.parametrize("system", ["de_DE.UTF-8", "C.UTF-8"])
def test_the_service_is_judged_by_what_systemd_and_crib_state_read_whatever_the_systems_language(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], system: str) -> None:
    # the daemon on this machine, as pi-check runs it in a root: its journal in German or English, the same checks
    port, state, notify = pi_check.free_port(), tmp_path / "state", tmp_path / "notify"
    argv = [sys.executable, "-m", "companion.daemon", "--state-dir", str(state), "--set",
            f"web.listen=127.0.0.1:{port}"]
    env = {**os.environ, "LANG": system, "PYTHONPATH": str(ROOT), "NOTIFY_SOCKET": str(notify)}
    lacking = pi_check.run_service(argv, env, port=port, state=state, notify=notify, pin_library="lgpio")
    assert lacking["keypad"] == lacking["buttons"] == "pin_library lgpio" and lacking["OLED"] == "no_i2c_bus"
    said = capsys.readouterr().out
    assert "READY=1 (STATUS=" in said and f"http://127.0.0.1:{port}/ answered 200" in said
    assert not notify.exists() and not (state / "devices.json").exists()
    with pytest.raises(pi_check.Failed, match="did not try the installed pin library rpigpio"):
        pi_check.run_service(argv, env, port=port, state=state, notify=notify, pin_library="rpigpio")


def test_a_service_that_cannot_start_fails_the_check_with_its_exit_status_and_its_words(tmp_path: Path) -> None:
    notify = tmp_path / "notify"
    argv = [sys.executable, "-m", "companion.daemon", "--state-dir", str(tmp_path), "--set", "game.target=7"]
    env = {**os.environ, "LANG": "de_DE.UTF-8", "PYTHONPATH": str(ROOT), "NOTIFY_SOCKET": str(notify)}
    with pytest.raises(pi_check.Failed) as failed:
        pi_check.run_service(argv, env, port=pi_check.free_port(), state=tmp_path, notify=notify, pin_library="lgpio")
    assert str(failed.value).startswith("cribbage-companion exited with 2 before READY=1:\n")
    assert "game.target muss 61 oder 121 sein" in str(failed.value)  # its journal, for a person to read


def test_a_device_missing_for_its_pin_library_is_found_beneath_its_cause(tmp_path: Path) -> None:
    pin = {"kind": "pin_library", "facts": {"name": "lgpio", "package": "python3-lgpio", "error": "gone"}}
    status = {"pid": 42, "devices": {"keypad": {"kind": "failed", "facts": {"error": "x"}, "cause": pin},
                                     "scanner": {"kind": "no_scanner", "facts": {}}, "camera": None}}
    path = tmp_path / "devices.json"
    path.write_text(json.dumps(status))
    assert pi_check.missing_devices(path, 42) == {"keypad": "pin_library lgpio", "scanner": "no_scanner"}
    with pytest.raises(pi_check.Failed, match="not the running daemon's"):
        pi_check.missing_devices(path, 43)  # left by another (an earlier) daemon
