"""What pyproject.toml promises: the board's own dependencies, the extras, one version, the firmware as package data."""

from __future__ import annotations

import importlib.resources
import re
import tomllib
from importlib.metadata import version
from pathlib import Path

from companion.devices.picosim import FIRMWARE, MODULES

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def names(requirements: list[str]) -> set[str]:
    return {re.match(r"[A-Za-z0-9_.-]+", r).group(0).lower() for r in requirements}


def test_the_board_installs_without_printing_and_plotting():
    assert not names(PROJECT["dependencies"]) & {"fpdf2", "zxing-cpp", "matplotlib"}
    extras = PROJECT["optional-dependencies"]
    assert names(extras["print"]) == {"fpdf2", "zxing-cpp"}
    assert names(extras["plots"]) == {"matplotlib"}


def test_dev_py_installs_every_extra_the_tests_use():
    assert '".[dev,print,plots]"' in (ROOT / "dev.py").read_text()


def test_one_version_number():
    assert version("cribbage-companion") == PROJECT["version"]
    assert "__version__" not in (ROOT / "companion" / "__init__.py").read_text()
    assert f"## {PROJECT['version']}" in (ROOT / "CHANGELOG.md").read_text()


def test_the_firmware_is_package_data():
    assert Path(str(importlib.resources.files("companion") / "firmware")) == FIRMWARE
    assert {f"{name}.py" for name in MODULES} | {"main.py"} <= {p.name for p in FIRMWARE.glob("*.py")}
    assert (FIRMWARE / "main.py").read_bytes() == (ROOT / "firmware" / "main.py").read_bytes()


def test_pre_commit_runs_the_checks_of_dev_py():
    config = (ROOT / ".pre-commit-config.yaml").read_text()
    assert "entry: python3 dev.py check" in config
