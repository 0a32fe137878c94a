"""The keypad and buttons on Debian's gpiozero 1.6 (python3-gpiozero on Debian, DietPi and Armbian, which
systemd/install.sh takes with RPi.GPIO where apt has no lgpio): the device tests again, with gpiozero 1.6.2 from
PyPI in front of the environment's 2.x."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_the_device_drivers_work_on_gpiozero_1_6(tmp_path: Path) -> None:
    target = tmp_path / "gpiozero16"
    # with pkg_resources, which gpiozero 1.6 imports (Debian's python3-gpiozero depends on python3-pkg-resources;
    # setuptools dropped it in 82)
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps",
                    "--only-binary=:all:", "--target", str(target), "gpiozero==1.6.2", "setuptools<82"], check=True,
                   timeout=300)
    env = dict(os.environ, PYTHONPATH=str(target))
    version = subprocess.run([sys.executable, "-c", "import gpiozero, importlib.metadata as m; "
                              "print(gpiozero.__file__, m.version('gpiozero'))"],
                             capture_output=True, text=True, env=env, check=True, cwd=tmp_path).stdout.split()
    assert version[0].startswith(str(target)) and version[1] == "1.6.2"
    tests = ["tests/devices/test_keypad.py", "tests/devices/test_registry.py", "tests/devices/test_presence.py"]
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly",
                             *tests], capture_output=True, text=True, env=env, cwd=ROOT, timeout=600, check=False)
    assert result.returncode == 0, result.stdout[-4000:]
