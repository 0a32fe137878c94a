from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

SYSTEMD = Path(__file__).resolve().parents[2] / "systemd"
UNIT = SYSTEMD / "cribbage-companion.service"
EXEC = "/opt/cribbage-companion/venv/bin/cribbage-companion"


def verify(unit_text: str, tmp_path: Path) -> str:
    """systemd-analyze verify's complaints; it exits 0 on bad values, so any output at all is a failure."""
    # the installed program does not exist here; put an executable where verify looks for it
    program = tmp_path / "cribbage-companion"
    program.write_text("#!/bin/sh\n", encoding="utf-8")
    program.chmod(0o755)
    unit = tmp_path / UNIT.name
    unit.write_text(unit_text.replace(EXEC, str(program)), encoding="utf-8")
    result = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True, timeout=60,
                            check=False)
    return (result.stdout + result.stderr).strip() + ("" if result.returncode == 0 else f"\nexit {result.returncode}")


needs_analyze = pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not here")


@needs_analyze
def test_the_unit_verifies_without_a_word(tmp_path: Path) -> None:
    assert verify(UNIT.read_text(encoding="utf-8"), tmp_path) == ""


@needs_analyze
def test_the_check_catches_a_bad_value(tmp_path: Path) -> None:
    broken = UNIT.read_text(encoding="utf-8").replace("WatchdogSec=30", "WatchdogSec=thirty")
    assert "Failed to parse sec value, ignoring: thirty" in verify(broken, tmp_path)


def test_the_unit_is_a_hardened_notify_service_that_reaches_its_hardware() -> None:
    lines = UNIT.read_text(encoding="utf-8").splitlines()
    assert f"ExecStart={EXEC}" in lines
    for setting in ("Type=notify", "Restart=on-failure", "User=cribbage", "ProtectSystem=strict",
                    "StateDirectory=cribbage-companion", "DevicePolicy=closed", "NoNewPrivileges=yes",
                    "SupplementaryGroups=gpio i2c dialout input"):
        assert setting in lines
    assert any(line.startswith("WatchdogSec=") for line in lines)
    allowed = {line.split("=", 1)[1].split()[0] for line in lines if line.startswith("DeviceAllow=")}
    assert allowed == {"char-gpiochip", "char-bcm2835-gpiomem", "char-i2c", "char-ttyACM", "char-ttyUSB", "char-input"}
