#!/usr/bin/env python3
"""Set up and run Cribbage Companion from a fresh checkout, with nothing but python3.

    python3 dev.py sim [crib sim options]   the simulated board in this terminal
    python3 dev.py test [pytest options]    lint (ruff, import layers), strict type check, the whole test suite
    python3 dev.py check                    only the lint and type check (what pre-commit runs)
    python3 dev.py crib ARGS...             any `crib` subcommand inside the project's environment
    python3 dev.py i18n                     extract the messages, update and compile the German catalog
    python3 dev.py schema                   write the JSON Schemas in docs/schema/ again from the contract's types
    python3 dev.py vendor                   refresh the vendored zxing-wasm (the phone scanner's decoder) from npm
    sudo python3 dev.py pi-check [--reuse] [RELEASE]  install, run the board in Debian arm64 roots (trixie, bookworm)
                                            as an image builder would, and score a deal as this machine does

The first run makes `.venv/` and installs what that command needs: `sim` only the board's dependencies, run from
the checkout (16 s and 141 MB from a fresh clone here), `crib` the package with the printing, plotting and scanner
extras, `test`, `check` and `i18n` also the development tools (ruff, mypy, pytest, Playwright ...); later runs
install again only when pyproject.toml changes or a command needs more. Debian packages the tests use
(poppler-utils for pdftoppm, shellcheck, mosquitto, chromium for the page's browser test, espeak-ng and
alsa-utils for speech, npm, gettext for msgfmt's check of the catalog) are installed with apt-get when missing, as
root or through passwordless sudo; npm packages the page tests inject into chromium (axe-core) are fetched with
`npm pack` into .venv/npm/.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
STAMP = VENV / ".installed-from"
ZXING_WASM = "3.1.4"  # the npm package zxing-wasm (zxing-cpp's WebAssembly build), pinned: `python3 dev.py vendor`
VENDOR = ROOT / "companion" / "web" / "static" / "vendor" / "zxing-wasm"
DEBIAN_TEST_PACKAGES = {"pdftoppm": "poppler-utils", "shellcheck": "shellcheck", "mosquitto": "mosquitto",
                        "chromium": "chromium", "espeak-ng": "espeak-ng", "aplay": "alsa-utils", "npm": "npm",
                        "rsvg-convert": "librsvg2-bin", "/usr/share/carddecks": "kdegames-card-data-kf5",
                        "msgfmt": "gettext"}
"""What the tests need, by a command (or a path) each package provides: the card decks are rendered into the
camera tests' photographs of ordinary cards; msgfmt checks the German catalog as translators' tools do."""
NPM_TEST_PACKAGES = {"axe-core": "4.14.1"}  # the accessibility checks the page tests run in chromium
NPM_DIR = VENV / "npm"  # each as the registry's tarball (`npm pack`): the tests read the file they need from it


def say(text: str) -> None:
    print(f"[dev] {text}", file=sys.stderr, flush=True)


def run(*argv: str | Path) -> int:
    return subprocess.call([str(a) for a in argv], cwd=ROOT)


def apt_install(packages: list[str]) -> bool:
    if not shutil.which("apt-get"):
        return False
    sudo = [] if os.geteuid() == 0 else ["sudo", "-n"]
    if sudo and not shutil.which("sudo"):
        return False
    say(f"installing Debian packages: {' '.join(packages)}")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    ok = subprocess.call([*sudo, "apt-get", "update", "-qq"], env=env) == 0
    return ok and subprocess.call([*sudo, "apt-get", "install", "-y", "-qq", *packages], env=env) == 0


EXTRAS = {"sim": (), "crib": ("print", "plots", "scanner", "vision"),
          "test": ("dev", "print", "plots", "scanner", "vision")}
"""The package's extras each command needs (check and i18n as test): the simulated board needs none."""


def ensure_venv(extras: tuple[str, ...]) -> None:
    if not (BIN / "python").exists():
        say(f"creating {VENV.relative_to(ROOT)}")
        try:
            venv.EnvBuilder(with_pip=True, clear=True).create(VENV)
        except (subprocess.CalledProcessError, OSError):
            minor = f"python3.{sys.version_info.minor}-venv"
            if not apt_install([minor]) and not apt_install(["python3-venv"]):
                sys.exit("[dev] this Python cannot make virtual environments: "
                         "run 'sudo apt install python3-venv' and try again")
            venv.EnvBuilder(with_pip=True, clear=True).create(VENV)
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    stamp = STAMP.read_text().split() if STAMP.exists() else []
    have = set(stamp[1:]) if stamp[:1] == [wanted] else None
    if have is not None and set(extras) <= have:
        return
    extras = tuple(sorted({*extras, *(have or ())}))
    pip = [BIN / "python", "-m", "pip", "install", "--disable-pip-version-check", "-q", "--no-compile"]
    if extras:
        say(f"installing the package with {', '.join(extras)} (once; again when pyproject.toml changes)")
        argv = [*pip, "-e", f".[{','.join(extras)}]"]
    else:  # the simulated board runs from the checkout: only its dependencies, nothing to build
        import tomllib

        say("installing what the board needs (once; again when pyproject.toml changes)")
        argv = [*pip, *tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]]
    if run(*argv) != 0:
        sys.exit("[dev] installing failed: read pip's message above (is the package index reachable?)")
    STAMP.write_text(" ".join((wanted, *extras)))
    if os.geteuid() == 0 and os.environ.get("SUDO_UID"):  # made under sudo (pi-check): the user's, as the checkout
        for path in (VENV, *VENV.rglob("*")):
            os.lchown(path, int(os.environ["SUDO_UID"]), int(os.environ.get("SUDO_GID", os.environ["SUDO_UID"])))


def ensure_test_tools() -> None:
    missing = [pkg for tool, pkg in DEBIAN_TEST_PACKAGES.items() if not (shutil.which(tool) or Path(tool).is_dir())]
    if missing and not apt_install(missing):
        say(f"could not install {' '.join(missing)}: tests that need it will say so and fail")
    for name, version in NPM_TEST_PACKAGES.items():
        if not (NPM_DIR / f"{name}-{version}.tgz").exists() and shutil.which("npm"):
            NPM_DIR.mkdir(parents=True, exist_ok=True)
            if run("npm", "pack", "--silent", "--pack-destination", NPM_DIR, f"{name}@{version}") != 0:
                say(f"could not fetch {name}@{version} from the npm registry: tests that need it will fail")


CHECKS = [
    ("lint", [BIN / "ruff", "check", "."]),
    ("lint (import layers)", [BIN / "lint-imports", "--no-logo"]),
    ("type check (strict, the whole package)", [BIN / "mypy"]),
]
"""The checks before the tests: `python3 dev.py check` runs just these (so does pre-commit, before each commit)."""


def test(args: list[str]) -> int:
    ensure_test_tools()
    # a worker more than the cores (tests/conftest.py); an idle worker takes tests queued for another, the long ones
    # queued first. The bytecode is written (in __pycache__/, which git ignores) even where PYTHONDONTWRITEBYTECODE
    # says not to: each worker and each process a test starts would compile the same modules again (pytest's
    # rewritten test modules are 3 of a worker's 5 s of collecting)
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    pytest = [BIN / "python", "-m", "pytest", "-n", "auto", "--dist", "worksteal", "-q", *args]
    return run_steps([*CHECKS, ("tests", pytest)])


def run_steps(steps: list[tuple[str, list[str | Path]]]) -> int:
    failed = []
    for name, argv in steps:
        say(f"{name}: {' '.join(str(a) for a in argv[1:])}")
        code = run(*argv)
        if code != 0:
            failed.append(f"{name} (exit {code})")
    if failed:
        say("FAILED: " + ", ".join(failed))
        return 1
    say("all checks passed")
    return 0


def vendor() -> int:
    """zxing-wasm's reader (the IIFE build, no bundler), its .wasm and its licence, from the npm registry into
    the package's static files; the .wasm is checked against the SHA-256 its reader was built with."""
    if not shutil.which("npm"):
        say("npm is needed to fetch zxing-wasm: sudo apt install npm")
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        packed = subprocess.run(["npm", "pack", "--silent", f"zxing-wasm@{ZXING_WASM}"], cwd=tmp,
                                capture_output=True, text=True, check=False)
        if packed.returncode != 0:
            say(f"npm pack failed: {packed.stderr.strip()}")
            return 1
        with tarfile.open(Path(tmp) / packed.stdout.strip().splitlines()[-1]) as archive:
            archive.extractall(tmp, filter="data")
        package = Path(tmp) / "package"
        reader = (package / "dist/iife/reader/index.js").read_text(encoding="utf-8")
        wasm = (package / "dist/reader/zxing_reader.wasm").read_bytes()
        built = re.search(r"ZXING_WASM_SHA256=`([0-9a-f]{64})`", reader)
        if built is None or built.group(1) != hashlib.sha256(wasm).hexdigest():
            say("the reader and its .wasm do not match (ZXING_WASM_SHA256): not vendored")
            return 1
        commit = re.search(rf"`{re.escape(ZXING_WASM)}`,\w+=`([0-9a-f]{{40}})`", reader)  # zxing-cpp's commit
        if VENDOR.exists():
            shutil.rmtree(VENDOR)
        VENDOR.mkdir(parents=True, exist_ok=True)
        (VENDOR / "zxing-reader.js").write_text(reader, encoding="utf-8")
        (VENDOR / "zxing_reader.wasm").write_bytes(wasm)
        shutil.copyfile(package / "LICENSE", VENDOR / "LICENSE")
        source = commit.group(1) if commit else "?"
        (VENDOR / "VERSION").write_text(f"zxing-wasm {ZXING_WASM} from the npm registry (python3 dev.py vendor)\n"
                                        f"zxing_reader.wasm sha256 {built.group(1)}\n"
                                        f"built from zxing-cpp (Apache-2.0) commit {source}\n", encoding="utf-8")
    say(f"zxing-wasm {ZXING_WASM} vendored in {VENDOR.relative_to(ROOT)}")
    return 0


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("sim", "test", "check", "crib", "i18n", "schema", "vendor", "pi-check"):
        print(__doc__.strip())
        return 2
    if argv[0] == "vendor":
        return vendor()
    if argv[0] == "pi-check":  # in roots of their own; here only what `sim` needs, for the deal to compare with
        ensure_venv(EXTRAS["sim"])
        sys.path.insert(0, str(ROOT / "systemd"))
        import pi_check

        return pi_check.main(argv[1:], checkout=ROOT, apt_install=apt_install, python=BIN / "python")
    command, rest = argv[0], argv[1:]
    ensure_venv(EXTRAS.get(command, EXTRAS["test"]))
    if command == "test":
        return test(rest)
    if command == "check":
        return run_steps(CHECKS)
    if command == "sim":
        return run(BIN / "python", "-m", "companion.cli", "sim", *rest)
    if command == "i18n":
        return run(BIN / "python", "-m", "companion.catalog", *rest)
    if command == "schema":
        return run(BIN / "python", "-m", "companion.schemagen")
    return run(BIN / "crib", *rest)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
