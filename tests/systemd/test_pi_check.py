"""`python3 dev.py pi-check`'s preparation of a root (the whole check takes minutes under qemu and runs by hand,
as systemd/README.md says): a clean copy of the cached root with the checkout, the stand-ins and this machine's
pip and CA settings; and what it refuses."""

from __future__ import annotations

import os
import subprocess
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
    for name in ("systemctl", "modprobe"):
        stand_in = root / "usr" / "local" / "sbin" / name
        assert os.access(stand_in, os.X_OK) and ">> /var/log/pi-check-stand-ins.log" in stand_in.read_text()
    environment = pi_check.environment()
    assert environment["PIP_CERT"] == environment["SSL_CERT_FILE"] == "/etc/host-ca.crt"
    assert environment["PATH"].startswith("/usr/local/sbin:")  # the stand-ins come first


def test_an_unknown_release_or_no_root_changes_nothing(capsys: pytest.CaptureFixture[str],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    assert pi_check.main(["buster"], checkout=ROOT, apt_install=lambda packages: False) == 2
    assert "no release 'buster': choose from trixie, bookworm" in capsys.readouterr().out
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    assert pi_check.main([], checkout=ROOT, apt_install=lambda packages: False) == 2
    assert "pi-check needs root" in capsys.readouterr().out


def test_the_deal_counts_as_taken_only_when_every_entry_was(tmp_path: Path) -> None:
    from companion.commands.sim import DEMO

    script = tmp_path / "deal.txt"
    script.write_text("\n".join(DEMO) + "\n")
    said = subprocess.run([sys.executable, "-m", "companion.cli", "sim", "--quiet", "--no-web", "--new", "--players",
                           "Ann,Bob", "--dealer", "Ann", "--state-dir", str(tmp_path / "sim"), "--script", str(script),
                           "--set", "devices.pin_factory=mock"], capture_output=True, text=True, check=True,
                          cwd=ROOT).stdout  # as pi-check runs it in the root
    assert pi_check.deal_taken(said, len(DEMO))
    assert not pi_check.deal_taken(said.replace("ok 9 ", "error 9 "), len(DEMO))
    assert not pi_check.deal_taken(said.rsplit("ok ", 1)[0], len(DEMO))  # the crib never made
