"""What pyproject.toml promises: the board's own dependencies, the extras, one version, the firmware as package data."""

from __future__ import annotations

import importlib.resources
import re
import subprocess
import sys
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


def test_dev_py_installs_every_extra_the_tests_use_and_the_simulator_none():
    sys.path.insert(0, str(ROOT))
    try:
        import dev
    finally:
        sys.path.remove(str(ROOT))
    # lgpio is the Pi's alone; torch trains the card reader on a development machine (its test skips without it)
    assert set(dev.EXTRAS["test"]) == set(PROJECT["optional-dependencies"]) - {"pi", "train"}
    assert dev.EXTRAS["sim"] == ()
    assert not names(PROJECT["dependencies"]) & {"evdev", "lgpio", "pytest", "mypy", "playwright", "atheris"}


def test_the_simulator_runs_a_deal_without_any_extra(tmp_path):
    # what `python3 dev.py sim` installs: the dependencies alone; every extra's packages made unimportable
    script = tmp_path / "deal.txt"
    script.write_text("5C\n10C\n")
    extras = {re.match(r"[A-Za-z0-9_.-]+", r).group(0).lower() for reqs in PROJECT["optional-dependencies"].values()
              for r in reqs}
    modules = {"evdev", "lgpio", "fpdf", "zxingcpp", "matplotlib", "pytest", "hypothesis", "playwright", "atheris",
               "babel", "mypy", "ruff", "packaging"}
    assert {"evdev", "lgpio", "fpdf2", "zxing-cpp", "matplotlib", "pytest", "playwright"} <= extras
    code = (f"import sys\nclass Block:\n    def find_spec(self, name, path=None, target=None):\n"
            f"        if name.split('.')[0] in {sorted(modules)!r}:\n"
            f"            raise ImportError(name + ' is an extra')\n"
            f"sys.meta_path.insert(0, Block())\nfrom companion.cli import main\nsys.exit(main(sys.argv[1:]))")
    result = subprocess.run([sys.executable, "-c", code, "sim", "--quiet", "--no-web", "--new", "--players",
                             "Ann,Bob", "--dealer", "Ann", "--state-dir", str(tmp_path / "state"), "--script",
                             str(script)], capture_output=True, text=True, timeout=120, check=False, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    assert [line.split()[0] for line in result.stdout.splitlines()] == ["ok", "ok"]


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
