"""systemd/install.sh: shellcheck, its --dry-run plan on Bookworm and Trixie, and that what it installs resolves
for both Pythons (3.11 on Bookworm, 3.13 on Trixie) on a 64-bit Pi: the Debian packages it names stand in for
their PyPI namesakes at the versions those releases ship, and pip finds every other dependency as a built wheel,
so nothing is compiled on the Pi (lgpio has no wheel for 3.13, evdev builds with a compiler)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "systemd" / "install.sh"
UNIT = ROOT / "systemd" / "cribbage-companion.service"

PYPI_NAMES = {"python3-lgpio": "lgpio", "python3-gpiozero": "gpiozero", "python3-evdev": "evdev",
              "python3-serial": "pyserial", "python3-smbus2": "smbus2", "python3-numpy": "numpy",
              "python3-pil": "pillow", "python3-num2words": "num2words"}
"""The Debian package of each PyPI distribution the script takes from the system."""
RELEASES = {
    # release: (its Python, the versions of those packages it ships: Raspberry Pi OS's archive for lgpio and
    # gpiozero, Debian's for the rest)
    "bookworm": ("3.11", {"lgpio": "0.2.2", "gpiozero": "2.0.1", "evdev": "1.6.1", "pyserial": "3.5",
                          "smbus2": "0.4.2", "numpy": "1.24.2", "pillow": "9.4.0", "num2words": "0.5.10"}),
    "trixie": ("3.13", {"lgpio": "0.2.2", "gpiozero": "2.0.1", "evdev": "1.9.1", "pyserial": "3.5",
                        "smbus2": "0.4.3", "numpy": "2.2.4", "pillow": "11.1.0", "num2words": "0.5.14"}),
}
AARCH64 = ["manylinux2014_aarch64", "manylinux_2_17_aarch64", "manylinux_2_28_aarch64", "linux_aarch64"]


def apt_packages() -> list[str]:
    found = re.search(r"^APT_PACKAGES=\(([^)]*)\)", SCRIPT.read_text(encoding="utf-8"), re.MULTILINE)
    assert found is not None
    return found[1].split()


def dry_run(tmp_path: Path, codename: str) -> str:
    release = tmp_path / "os-release"
    release.write_text(f"ID=debian\nVERSION_CODENAME={codename}\n", encoding="utf-8")
    result = subprocess.run(["bash", str(SCRIPT), "--dry-run"], capture_output=True, text=True, timeout=60,
                            check=False, env={"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "CRIB_OS_RELEASE": str(release)})
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="dev.py's test step installs shellcheck")
def test_the_script_passes_shellcheck() -> None:
    result = subprocess.run(["shellcheck", str(SCRIPT)], capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 0, result.stdout


@pytest.mark.parametrize("codename", ["bookworm", "trixie"])
def test_the_dry_run_prints_the_plan_and_changes_nothing(tmp_path: Path, codename: str) -> None:
    plan = dry_run(tmp_path, codename)
    lines = plan.splitlines()
    assert lines[0] == f"[install] Raspberry Pi OS / Debian {codename} (dry run: nothing is changed)"
    commands = [line.split("$ ", 1)[1] for line in lines if line.startswith("[install]   $ ")]
    assert ("env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq " + " ".join(apt_packages())) in commands
    assert "python3 -m venv --clear --system-site-packages /opt/cribbage-companion/venv" in commands
    assert any(c.startswith("/opt/cribbage-companion/venv/bin/python -m pip install") and c.endswith(f"{ROOT}[pi]")
               for c in commands)
    assert "modprobe -a cdc_acm usbserial i2c-dev" in commands
    assert commands[-3:] == ["systemctl daemon-reload", "systemctl enable cribbage-companion.service",
                             "systemctl restart cribbage-companion.service"]
    assert not Path("/opt/cribbage-companion/venv").exists() or "kept" in plan
    assert lines[-1].endswith("(dry run: nothing was changed)")


def test_an_unknown_option_changes_nothing_and_says_what_to_use(tmp_path: Path) -> None:
    result = subprocess.run(["bash", str(SCRIPT), "--yes"], capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 2 and "unknown option --yes: use --dry-run" in result.stderr


def test_the_groups_the_unit_allows_exist_when_it_starts() -> None:
    # DeviceAllow=char-NAME matches names in /proc/devices when the unit starts: a driver loaded later (the Pico
    # plugged in after boot) would stay denied, so the script loads them at boot and the unit starts after that
    unit = UNIT.read_text(encoding="utf-8")
    assert "After=local-fs.target systemd-modules-load.service" in unit
    script = SCRIPT.read_text(encoding="utf-8")
    modules = re.search(r"^MODULES=\(([^)]*)\)", script, re.MULTILINE)
    assert modules is not None
    needs = {"char-ttyACM": "cdc_acm", "char-ttyUSB": "usbserial", "char-i2c": "i2c-dev"}
    for group, module in needs.items():
        assert f"DeviceAllow={group} rw" in unit and module in modules[1].split()


@pytest.mark.parametrize("codename", sorted(RELEASES))
def test_what_the_script_installs_resolves_from_debian_and_built_wheels(tmp_path: Path, codename: str) -> None:
    python, debian = RELEASES[codename]
    from_apt = {PYPI_NAMES[package] for package in apt_packages() if package in PYPI_NAMES}
    assert {"lgpio", "gpiozero", "evdev"} <= from_apt
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    wanted = [Requirement(text) for text in (*project["dependencies"], *project["optional-dependencies"]["pi"])]
    environment = {"sys_platform": "linux", "platform_system": "Linux", "platform_machine": "aarch64",
                   "python_version": python}
    from_pypi = []
    for requirement in wanted:
        if requirement.marker is not None and not requirement.marker.evaluate(environment):
            continue
        name = requirement.name.lower()
        if name in from_apt and requirement.specifier.contains(debian[name]):
            continue  # the system's package serves, seen through --system-site-packages
        assert name not in ("lgpio", "evdev"), f"{name} {debian[name]} on {codename} does not satisfy {requirement}"
        from_pypi.append(str(requirement).split(";")[0])
    report = tmp_path / "report.json"
    result = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--dry-run", "--ignore-installed", "--quiet", "--report",
         str(report), "--python-version", python, *(f"--platform={tag}" for tag in AARCH64),
         "--only-binary=:all:", "--target", str(tmp_path / "target"), *from_pypi],
        capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode == 0, result.stderr[-3000:]
    installed = {item["metadata"]["name"].lower(): item["download_info"]["url"].rsplit("/", 1)[-1]
                 for item in json.loads(report.read_text(encoding="utf-8"))["install"]}
    assert "luma.oled" in installed
    assert not {"zxing-cpp", "fpdf2", "matplotlib"} & set(installed)  # the [print] and [plots] extras: not on the board
    assert not {"lgpio", "evdev", "rpi.gpio", "rpi-lgpio"} & set(installed)
    assert all(wheel.endswith(".whl") for wheel in installed.values())


def test_phones_get_the_page_on_the_network_and_the_board_as_cribbage_local(tmp_path: Path) -> None:
    release = tmp_path / "os-release"
    release.write_text("ID=debian\nVERSION_CODENAME=trixie\n", encoding="utf-8")
    result = subprocess.run(["bash", str(SCRIPT), "--dry-run", "--phones"], capture_output=True, text=True, timeout=60,
                            check=False, env={"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "CRIB_OS_RELEASE": str(release)})
    assert result.returncode == 0, result.stderr
    commands = [line.split("$ ", 1)[1] for line in result.stdout.splitlines() if line.startswith("[install]   $ ")]
    assert any(c.startswith("env DEBIAN_FRONTEND=noninteractive apt-get install") and c.endswith(" avahi-daemon")
               for c in commands)
    assert "writing /etc/systemd/system/cribbage-companion.service.d/phones.conf" in result.stdout
    assert any(c.endswith("cribbage") and "hostname" in c for c in commands) or "hostname is cribbage" in result.stdout
    assert "avahi-daemon" not in dry_run(tmp_path, "trixie")  # without --phones, nothing of it


def test_with_the_voice_on_the_script_installs_espeak_ng_and_lets_the_service_use_the_sound_card(
        tmp_path: Path) -> None:
    release = tmp_path / "os-release"
    release.write_text("ID=debian\nVERSION_CODENAME=bookworm\n", encoding="utf-8")
    env = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "CRIB_OS_RELEASE": str(release), "CRIB_CONFIG_DIR": str(tmp_path)}

    def plan() -> list[str]:
        result = subprocess.run(["bash", str(SCRIPT), "--dry-run"], capture_output=True, text=True, timeout=60,
                                check=False, env=env)
        assert result.returncode == 0, result.stderr
        return result.stdout.splitlines()

    silent = plan()  # no configuration yet: no voice
    assert not any("espeak-ng" in line or "audio" in line for line in silent)
    (tmp_path / "config.toml").write_text("[voice]\nenabled = true\n", encoding="utf-8")
    lines = plan()
    commands = [line.split("$ ", 1)[1] for line in lines if line.startswith("[install]   $ ")]
    assert ("env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq " + " ".join(apt_packages())
            + " espeak-ng alsa-utils") in commands
    assert "usermod --append --groups audio cribbage" in commands and "modprobe snd" in commands
    assert "[install] writing /etc/systemd/system/cribbage-companion.service.d/voice.conf" in lines
