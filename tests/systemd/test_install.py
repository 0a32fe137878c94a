"""systemd/install.sh: shellcheck, its --dry-run plan on Bookworm and Trixie, with the pin library apt has (lgpio on
Raspberry Pi OS, RPi.GPIO on plain Debian, a clear stop on a Pi 5 without lgpio), and that what it installs
resolves for both Pythons (3.11 on Bookworm, 3.13 on Trixie) on a 64-bit Pi: the Debian packages it names stand in
for their PyPI namesakes at the versions those releases ship, and pip finds every other dependency as a built
wheel, so nothing is compiled on the Pi (lgpio has no wheel for 3.13, evdev builds with a compiler)."""

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

PYPI_NAMES = {"python3-lgpio": "lgpio", "python3-rpi.gpio": "rpi.gpio", "python3-gpiozero": "gpiozero",
              "python3-evdev": "evdev", "python3-serial": "pyserial", "python3-smbus2": "smbus2",
              "python3-numpy": "numpy", "python3-pil": "pillow", "python3-num2words": "num2words"}
"""The Debian package of each PyPI distribution the script takes from the system."""
DEBIAN = {
    # release: (its Python, the versions of those packages Debian ships; python3-lgpio it has not)
    "bookworm": ("3.11", {"rpi.gpio": "0.7.1a4", "gpiozero": "1.6.2", "evdev": "1.6.1", "pyserial": "3.5",
                          "smbus2": "0.4.2", "numpy": "1.24.2", "pillow": "9.4.0", "num2words": "0.5.10"}),
    "trixie": ("3.13", {"rpi.gpio": "0.7.1a4", "gpiozero": "1.6.2", "evdev": "1.9.1", "pyserial": "3.5",
                        "smbus2": "0.4.3", "numpy": "2.2.4", "pillow": "11.1.0", "num2words": "0.5.14"}),
}
RASPBERRY_PI_OS = {"lgpio": "0.2.2", "gpiozero": "2.0.1"}
"""What Raspberry Pi OS's own archive adds over Debian's, the same in both releases."""
RELEASES = {f"{system} {codename}": (python, {**versions, **(RASPBERRY_PI_OS if system == "raspios" else {})})
            for codename, (python, versions) in DEBIAN.items() for system in ("raspios", "debian")}
AARCH64 = ["manylinux2014_aarch64", "manylinux_2_17_aarch64", "manylinux_2_28_aarch64", "linux_aarch64"]


def apt_packages() -> list[str]:
    found = re.search(r"^APT_PACKAGES=\(([^)]*)\)", SCRIPT.read_text(encoding="utf-8"), re.MULTILINE)
    assert found is not None
    return found[1].split()


def dry_run(tmp_path: Path, codename: str, *, has: tuple[str, ...] = ("python3-lgpio",),
            model: str = "Raspberry Pi Zero 2 W Rev 1.0", code: int = 0, options: tuple[str, ...] = (),
            env: dict[str, str] | None = None, booted: bool = True) -> str:
    """The plan on this release and board, with apt's lists holding `has` (of the two pin libraries), for the
    script's `options` in the environment `env` adds: on a `booted` Pi (systemd running, the kernel's modules
    there), or in an image builder's root (neither)."""
    release, board, stand_ins = tmp_path / "os-release", tmp_path / "model", tmp_path / "bin"
    there = str(tmp_path if booted else tmp_path / "absent")
    env = {"CRIB_SYSTEMD_RUNTIME": there, "CRIB_KERNEL_MODULES": there,
           "CRIB_BOOT_CONFIG": str(tmp_path / "config.txt"), **(env or {})}
    release.write_text(f"ID=debian\nVERSION_CODENAME={codename}\n", encoding="utf-8")
    board.write_text(model + "\0", encoding="utf-8")
    stand_ins.mkdir(exist_ok=True)
    apt_cache = stand_ins / "apt-cache"  # `apt-cache policy PACKAGE` as apt answers, with these lists (and a long
    # version table after the candidate, as apt's can be: reading stops at no line, or apt-cache dies of SIGPIPE)
    apt_cache.write_text("#!/bin/sh\necho \"$2:\"\ncase \" $HAS \" in *\" $2 \"*) echo '  Candidate: 1.0-1' ;; "
                         "*) echo '  Candidate: (none)' ;; esac\nseq 100000 | sed 's/^/        500 http:/'\n",
                         encoding="utf-8")
    apt_cache.chmod(0o755)
    result = subprocess.run(["bash", str(SCRIPT), "--dry-run", *options], capture_output=True, text=True,
                            timeout=60, check=False, env={"PATH": f"{stand_ins}:/usr/sbin:/usr/bin:/sbin:/bin",
                                                          "CRIB_OS_RELEASE": str(release), "CRIB_MODEL": str(board),
                                                          "HAS": " ".join(has), **env})
    assert result.returncode == code, result.stderr
    return result.stdout if code == 0 else result.stderr


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
    assert "[install] pin library: lgpio (python3-lgpio), the one every Pi takes" in lines
    assert ("env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq " + " ".join(apt_packages())
            + " python3-lgpio") in commands
    assert "python3 -m venv --clear --system-site-packages /opt/cribbage-companion/venv" in commands
    assert any(c.startswith("/opt/cribbage-companion/venv/bin/python -m pip install") and c.endswith(f"{ROOT}[pi]")
               for c in commands)
    assert "modprobe -a cdc_acm usbserial i2c-dev" in commands
    assert commands[-3:] == ["systemctl daemon-reload", "systemctl enable cribbage-companion.service",
                             "systemctl restart cribbage-companion.service"]
    assert not Path("/opt/cribbage-companion/venv").exists() or "kept" in plan
    assert lines[-1].endswith("(dry run: nothing was changed)")


@pytest.mark.parametrize("codename", ["bookworm", "trixie"])
def test_on_plain_debian_the_plan_takes_rpigpio_and_says_so(tmp_path: Path, codename: str) -> None:
    # Debian, DietPi and Armbian have no python3-lgpio: RPi.GPIO drives a Pi Zero to 4 through Debian's gpiozero
    plan = dry_run(tmp_path, codename, has=("python3-rpi.gpio",))
    lines = plan.splitlines()
    assert ('[install] pin library: RPi.GPIO (python3-rpi.gpio; apt has no python3-lgpio here), '
            'devices.pin_factory = "rpigpio"') in lines
    commands = [line.split("$ ", 1)[1] for line in lines if line.startswith("[install]   $ ")]
    assert ("env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq " + " ".join(apt_packages())
            + " python3-rpi.gpio") in commands
    pip = next(c for c in commands if c.startswith("/opt/cribbage-companion/venv/bin/python -m pip install"))
    assert pip.endswith(f" {ROOT}[scanner]")  # evdev; not the [pi] extra: that is lgpio too
    assert "python3-lgpio" not in plan.replace("apt has no python3-lgpio", "")


def test_a_pi_5_without_lgpio_stops_naming_the_package_and_the_archive(tmp_path: Path) -> None:
    message = dry_run(tmp_path, "trixie", has=("python3-rpi.gpio",), model="Raspberry Pi 5 Model B Rev 1.0", code=1)
    assert "this Raspberry Pi 5 Model B Rev 1.0 needs the lgpio pin library (python3-lgpio)" in message
    assert "https://archive.raspberrypi.com/debian trixie main" in message
    assert "raspberrypi.gpg.key" in message
    # with Raspberry Pi's archive added, it goes on
    assert "pin library: lgpio" in dry_run(tmp_path, "trixie", model="Raspberry Pi 5 Model B Rev 1.0")


def test_without_either_pin_library_it_stops_and_says_what_to_do(tmp_path: Path) -> None:
    message = dry_run(tmp_path, "trixie", has=(), code=1)
    assert "apt finds neither python3-lgpio nor python3-rpi.gpio" in message and "apt-get update" in message


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


@pytest.mark.slow
@pytest.mark.parametrize("codename", sorted(DEBIAN))
def test_what_the_script_installs_resolves_from_debian_and_built_wheels(tmp_path: Path, codename: str) -> None:
    """On Raspberry Pi OS and on Debian of this release: pip resolves once for each different set it is left."""
    resolved: dict[tuple[str, ...], dict[str, str]] = {}
    for release in (f"raspios {codename}", f"debian {codename}"):
        python, from_pypi = left_for_pip(release)
        installed = resolved.get(from_pypi) or resolve(tmp_path / release.replace(" ", "-"), python, from_pypi)
        resolved[from_pypi] = installed
        assert "luma.oled" in installed
        assert not {"zxing-cpp", "fpdf2", "matplotlib"} & set(installed)  # [print] and [plots]: not on the board
        assert not {"lgpio", "evdev", "rpi.gpio", "rpi-lgpio"} & set(installed)
        assert all(wheel.endswith(".whl") for wheel in installed.values())


def left_for_pip(release: str) -> tuple[str, tuple[str, ...]]:
    """The release's Python and what pip must find on PyPI: what the system's packages do not serve."""
    python, debian = RELEASES[release]
    pin_library = "lgpio" if "lgpio" in debian else "rpi.gpio"
    from_apt = {PYPI_NAMES[package] for package in apt_packages() if package in PYPI_NAMES} | {pin_library}
    assert {"gpiozero", "evdev"} <= from_apt
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"]
    extra = [*extras["scanner"], *(extras["pi"] if pin_library == "lgpio" else [])]
    wanted = [Requirement(text) for text in (*project["dependencies"], *extra)
              if not text.startswith("cribbage-companion[")]
    environment = {"sys_platform": "linux", "platform_system": "Linux", "platform_machine": "aarch64",
                   "python_version": python}
    from_pypi = []
    for requirement in wanted:
        if requirement.marker is not None and not requirement.marker.evaluate(environment):
            continue
        name = requirement.name.lower()
        if name in from_apt and requirement.specifier.contains(debian[name]):
            continue  # the system's package serves, seen through --system-site-packages
        assert name not in ("lgpio", "evdev", "gpiozero"), \
            f"{name} {debian[name]} on {release} does not satisfy {requirement}"
        from_pypi.append(str(requirement).split(";")[0])
    return python, tuple(from_pypi)


def resolve(tmp_path: Path, python: str, requirements: tuple[str, ...]) -> dict[str, str]:
    """What pip would install for a 64-bit Pi's `python`, taking only built wheels: each distribution's file."""
    tmp_path.mkdir()
    report = tmp_path / "report.json"
    result = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--dry-run", "--ignore-installed", "--quiet", "--report",
         str(report), "--python-version", python, *(f"--platform={tag}" for tag in AARCH64),
         "--only-binary=:all:", "--target", str(tmp_path / "target"), *requirements],
        capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode == 0, result.stderr[-3000:]
    return {item["metadata"]["name"].lower(): item["download_info"]["url"].rsplit("/", 1)[-1]
            for item in json.loads(report.read_text(encoding="utf-8"))["install"]}


def test_phones_get_the_page_on_the_network_and_the_board_as_cribbage_local(tmp_path: Path) -> None:
    plan = dry_run(tmp_path, "trixie", options=("--phones",))
    commands = [line.split("$ ", 1)[1] for line in plan.splitlines() if line.startswith("[install]   $ ")]
    assert any(c.startswith("env DEBIAN_FRONTEND=noninteractive apt-get install") and " avahi-daemon" in c
               for c in commands)
    assert "phones.conf" not in plan  # the unit has the network it needs: no drop-in for it
    assert any(c.endswith("cribbage") and "hostname" in c for c in commands) or "hostname is cribbage" in plan
    assert "avahi-daemon" not in dry_run(tmp_path, "trixie")  # without --phones, nothing of it


def test_with_the_voice_on_the_script_installs_espeak_ng_and_lets_the_service_use_the_sound_card(
        tmp_path: Path) -> None:
    def plan() -> list[str]:
        return dry_run(tmp_path, "bookworm", env={"CRIB_CONFIG_DIR": str(tmp_path)}).splitlines()

    silent = plan()  # no configuration yet: no voice
    assert not any("espeak-ng" in line or "audio" in line for line in silent)
    (tmp_path / "config.toml").write_text("[voice]\nenabled = true\n", encoding="utf-8")
    lines = plan()
    commands = [line.split("$ ", 1)[1] for line in lines if line.startswith("[install]   $ ")]
    install = next(c.split() for c in commands if c.startswith("env DEBIAN_FRONTEND=noninteractive apt-get install"))
    assert set(apt_packages()) | {"espeak-ng", "alsa-utils"} <= set(install)
    assert "usermod --append --groups audio cribbage" in commands and "modprobe snd" in commands
    assert "[install] writing /etc/systemd/system/cribbage-companion.service.d/voice.conf" in lines


@pytest.mark.parametrize("codename", ["bookworm", "trixie"])
def test_in_an_image_builders_root_it_finishes_and_says_what_waits_for_the_first_boot(tmp_path: Path,
                                                                                      codename: str) -> None:
    # pi-gen and the like: a root without systemd as PID 1 and without the running kernel's modules, where modprobe
    # says "Module cdc_acm not found" and systemctl daemon-reload "System has not been booted with systemd"
    (tmp_path / "config.txt").write_text("[all]\n", encoding="utf-8")  # the Pi's firmware settings, I2C not on
    lines = dry_run(tmp_path, codename, booted=False).splitlines()
    commands = [line.split("$ ", 1)[1] for line in lines if line.startswith("[install]   $ ")]
    assert not any(c.startswith(("modprobe", "systemctl daemon-reload", "systemctl restart", "hostnamectl"))
                   for c in commands)
    assert commands[-1] == "systemctl enable cribbage-companion.service"  # links only: works without systemd
    assert "[install] no systemd running here (an image builder's root?): the service starts at the first boot" \
        in lines
    assert f"[install] dtparam=i2c_arm=on in {tmp_path}/config.txt (the OLED's I2C bus on; from the next boot)" \
        in lines
    told = lines[lines.index("[install] left for the next boot (an image's first):") + 1 : -1]
    assert told == ["[install]   - the kernel modules cdc_acm usbserial i2c-dev load "
                    "(/etc/modules-load.d/cribbage-companion.conf)",
                    "[install]   - dtparam=i2c_arm=on takes effect", "[install]   - dtparam=i2c_arm_baudrate=400000 "
                    "takes effect", "[install]   - cribbage-companion.service starts"]
    phones = dry_run(tmp_path, codename, booted=False, options=("--phones",))
    assert "[install] writing /etc/hostname" in phones or "/etc/hostname is up to date" in phones


def test_where_nothing_turns_i2c_on_it_says_what_to_add(tmp_path: Path) -> None:
    plan = dry_run(tmp_path, "trixie", has=("python3-rpi.gpio",))  # plain Debian: no raspi-config, no config.txt
    assert ("nothing turns I2C on for the OLED. On a Pi, add dtparam=i2c_arm=on and dtparam=i2c_arm_baudrate=400000 "
            "to the firmware's config.txt") in plan
    (tmp_path / "config.txt").write_text("dtparam=i2c_arm=on\n", encoding="utf-8")
    plan = dry_run(tmp_path, "trixie", has=("python3-rpi.gpio",))
    assert f"dtparam=i2c_arm=on: {tmp_path}/config.txt says so already" in plan
    assert "dtparam=i2c_arm_baudrate=400000 in " in plan
