"""`python3 dev.py pi-check [--reuse] [RELEASE ...]`: the board on the Pi's architecture, as root, without a Pi.

For each release (trixie and bookworm unless named): a Debian arm64 root made by debootstrap with systemd and kmod
in it, as an image has them (cached in ~/.cache/cribbage-companion/pi-check/RELEASE-arm64, and copied for each run,
so every run installs on a clean system; with --reuse the last run's root is used again, and install.sh upgrades
it), entered with chroot, where the kernel runs its aarch64 programs through qemu-user-static (binfmt_misc); then,
each step printed with its time:

1. systemd/install.sh from this checkout, run as an image builder runs it (root, no systemd as PID 1, no modules
   of the running kernel): it must finish, enable the unit and say what it left for the first boot;
2. `crib check-config` of the configuration it wrote, by the aarch64 Python;
3. a scripted deal (crib sim's sample deal) through `crib sim`: each entry's answer and the game's state (scores,
   pegs, every hand's count) must be those of the same script run on this machine;
4. `cribbage-companion` as the unit runs it: as the user `cribbage` (its groups, its state directory), with the
   installed configuration and pin library and a notify socket; it must tell READY=1, serve its page on 127.0.0.1
   (fetched from outside the root), name in devices.json each device it lacks, the pin library it tried among
   them, and stop with status 0 on SIGTERM. All read from machine facts (sd_notify, devices.json, the exit
   status), not the journal's words, which are in the system's language.

This machine's pip configuration, PIP_* settings and CA certificates go into the root, so pip and apt reach the
registries this machine reaches; downloaded packages are kept beside the cached root for the next run.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "cribbage-companion" / "pi-check"
MIRROR = "http://deb.debian.org/debian"
RELEASES = ("trixie", "bookworm")
HOST_PACKAGES = {"debootstrap": "debootstrap", "qemu-aarch64-static": "qemu-user-static",
                 "update-binfmts": "binfmt-support"}
BINFMT = Path("/proc/sys/fs/binfmt_misc")
SOURCE = "/root/cribbage-companion"
VENV = "/opt/cribbage-companion/venv"
UNIT = "cribbage-companion.service"
NOTIFY = "/tmp/pi-check-notify"
"""The daemon's NOTIFY_SOCKET in the root (its /tmp, a tmpfs this machine sees), where systemd's would be."""
STATUS_FILE = "devices.json"
"""What the running daemon has and misses, in its state directory (companion.devices.presence.STATUS_FILE)."""
PIN_LIBRARY = "pin_library"
"""The code of a pin library that cannot be used (companion.words.devices.Fault.PIN_LIBRARY)."""
STATE = "/var/lib/cribbage-companion"
"""The unit's StateDirectory and WorkingDirectory."""
USER_GROUPS = ("gpio", "i2c", "dialout", "input")
"""The unit's SupplementaryGroups."""
IMAGE_PACKAGES = "systemd,kmod"
"""What an image has beside the minimal base: systemctl (to enable units) and modprobe."""
CA_CERTIFICATES = "/etc/ssl/certs/ca-certificates.crt"
HOST_CA = "/etc/host-ca.crt"
"""This machine's CA certificates in the root (its own ca-certificates package would rewrite the usual path)."""
NO_SERVICES = "#!/bin/sh\nexit 101\n"  # policy-rc.d: packages start no services in the root


class Failed(Exception):
    """A step failed: what to look at."""


def say(text: str) -> None:
    print(f"[pi-check] {text}", flush=True)


@contextlib.contextmanager
def step(name: str) -> Iterator[None]:
    say(f"{name} ...")
    start = time.monotonic()
    yield
    say(f"{name}: ok, {time.monotonic() - start:.1f} s")


def host_ready(apt_install: Callable[[list[str]], bool]) -> None:
    """debootstrap and qemu-user-static installed, binfmt_misc mounted and aarch64 registered with qemu."""
    missing = [package for tool, package in HOST_PACKAGES.items() if not shutil.which(tool)]
    if missing and not apt_install(missing):
        raise Failed(f"cannot install {' '.join(missing)}: apt-get install them and run me again")
    if not (BINFMT / "status").exists():
        subprocess.run(["mount", "-t", "binfmt_misc", "binfmt_misc", str(BINFMT)], check=False)
    if not (BINFMT / "status").exists():
        raise Failed(f"cannot mount binfmt_misc on {BINFMT} (a container without it?): the kernel cannot run "
                     "aarch64 programs through qemu here; run pi-check on a machine or VM of your own")
    registered = BINFMT / "qemu-aarch64"
    if not registered.exists():
        subprocess.run(["update-binfmts", "--enable", "qemu-aarch64"], check=False)
    if not registered.exists() or "enabled" not in registered.read_text():
        raise Failed("qemu-aarch64 is not registered with binfmt_misc: update-binfmts --enable qemu-aarch64")
    if "F" not in re.search(r"flags: *(\w*)", registered.read_text() + "flags: ")[1]:  # type: ignore[index]
        raise Failed("qemu-aarch64 is registered without the F flag: chroot would not find qemu inside the root")


def base_root(release: str) -> Path:
    """The cached debootstrap root of the release, made when missing."""
    root = CACHE / f"{release}-arm64"
    if (root / "etc" / "debian_version").exists():
        say(f"{release}: the cached root {root}")
        return root
    partial = root.with_name(root.name + ".tmp")
    shutil.rmtree(partial, ignore_errors=True)
    partial.parent.mkdir(parents=True, exist_ok=True)
    with step(f"{release}: debootstrap --arch=arm64 --variant=minbase --include={IMAGE_PACKAGES} {release} (once)"):
        if subprocess.run(["debootstrap", "--arch=arm64", "--variant=minbase", f"--include={IMAGE_PACKAGES}", release,
                           str(partial), MIRROR], check=False).returncode != 0:
            raise Failed(f"debootstrap failed (above); its log is {partial}/debootstrap/debootstrap.log")
    partial.rename(root)
    return root


@contextlib.contextmanager
def mounted(root: Path, release: str) -> Iterator[None]:
    """The kernel's file systems and the caches mounted in the root, unmounted afterwards whatever happens."""
    caches = {CACHE / f"{release}-apt": root / "var/cache/apt/archives", CACHE / "pip": root / "root/.cache/pip"}
    mounts = [(["-t", "proc", "proc"], root / "proc"), (["-t", "sysfs", "sys"], root / "sys"),
              (["--rbind", "/dev"], root / "dev"), (["-t", "tmpfs", "tmpfs"], root / "tmp"),
              *((["--bind", str(host)], inside) for host, inside in caches.items())]
    for host in caches:
        host.mkdir(parents=True, exist_ok=True)
    done: list[Path] = []
    try:
        for options, where in mounts:
            where.mkdir(parents=True, exist_ok=True)
            subprocess.run(["mount", *options, str(where)], check=True)
            done.append(where)
        yield
    finally:
        for where in reversed(done):
            subprocess.run(["umount", "-R", "-l", str(where)], check=False)


def prepare(base: Path, release: str, checkout: Path) -> Path:
    """A fresh copy of the cached root with this machine's network settings and the checkout."""
    root = CACHE / f"{release}-arm64-run"
    shutil.rmtree(root, ignore_errors=True)
    subprocess.run(["cp", "-a", "--reflink=auto", str(base), str(root)], check=True)
    shutil.copy2("/etc/resolv.conf", root / "etc/resolv.conf")
    for path in (Path("/etc/pip.conf"), *Path("/etc/xdg/pip").glob("*")):  # this machine's pip configuration
        if path.is_file():
            (root / path.relative_to("/")).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, root / path.relative_to("/"))
    shutil.copy2(CA_CERTIFICATES, root / HOST_CA.lstrip("/"))
    policy = root / "usr/sbin/policy-rc.d"
    policy.parent.mkdir(parents=True, exist_ok=True)
    policy.write_text(NO_SERVICES)
    policy.chmod(0o755)
    copy_checkout(checkout, root)
    return root


def copy_checkout(checkout: Path, root: Path) -> None:
    """The checkout's files (committed or not, without what git ignores) in the root's SOURCE, replacing it."""
    shutil.rmtree(root / SOURCE.lstrip("/"), ignore_errors=True)
    files = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=checkout,
                           capture_output=True, check=True).stdout.split(b"\0")
    for name in filter(None, (file.decode() for file in files)):
        source, target = checkout / name, root / SOURCE.lstrip("/") / name
        if source.is_file():
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target, follow_symlinks=False)
        elif source.is_symlink():
            target.parent.mkdir(parents=True, exist_ok=True)
            target.symlink_to(os.readlink(source))


def environment() -> dict[str, str]:
    """What runs in the root sees: a Pi's PATH, this machine's PIP_* settings and CA certificates."""
    env = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "HOME": "/root", "LANG": "C.UTF-8",
           "DEBIAN_FRONTEND": "noninteractive"}
    env.update({key: value for key, value in os.environ.items() if key.startswith("PIP_")})
    env.update(dict.fromkeys(("PIP_CERT", "SSL_CERT_FILE", "REQUESTS_CA_BUNDLE"), HOST_CA))
    return env


def inside(root: Path, *argv: str, output: bool = False, timeout: float = 3600) -> str:
    result = subprocess.run(["chroot", str(root), *argv], env=environment(), timeout=timeout, check=False,
                            stdout=subprocess.PIPE if output else None, text=True)
    if result.returncode != 0:
        raise Failed(f"{' '.join(argv)} exited with {result.returncode} in {root}")
    return result.stdout or ""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def check_release(release: str, checkout: Path, reference: Deal, *, reuse: bool = False) -> None:
    base = base_root(release)
    root = CACHE / f"{release}-arm64-run"
    if reuse and (root / VENV.lstrip("/") / "bin" / "python").exists():
        with step(f"{release}: the last run's root again, with the checkout in {SOURCE} (install.sh upgrades)"):
            copy_checkout(checkout, root)
    else:
        with step(f"{release}: a fresh copy of the root, with the checkout in {SOURCE}"):
            root = prepare(base, release, checkout)
    with mounted(root, release):
        machine = inside(root, "uname", "-m", output=True).strip()
        if machine != "aarch64":
            raise Failed(f"the root runs as {machine}, not aarch64")
        if not (root / "usr/bin/systemctl").exists():  # a root cached before systemd was part of it
            inside(root, "apt-get", "update", "-qq")
            inside(root, "apt-get", "install", "-y", "-qq", *IMAGE_PACKAGES.split(","))
        with step(f"{release}: systemd/install.sh as an image builder runs it (root; no systemd, no kernel modules)"):
            said = inside(root, "bash", f"{SOURCE}/systemd/install.sh", output=True)
            print(said, end="", flush=True)
            installed(root, said)
        with step(f"{release}: crib check-config /etc/cribbage-companion/config.toml"):
            python = inside(root, f"{VENV}/bin/python", "-c", "import platform, sys; "
                            "print(platform.machine(), sys.version.split()[0])", output=True).split()
            say(f"  the venv's Python {python[1]} on {python[0]}")
            if python[0] != "aarch64":
                raise Failed(f"the venv's Python runs as {python[0]}")
            inside(root, f"{VENV}/bin/crib", "check-config", "/etc/cribbage-companion/config.toml")
        with step(f"{release}: a scripted deal through crib sim, scored as on this machine"):
            (root / "tmp/deal.txt").write_text("\n".join(reference.entries) + "\n")
            crib = ["chroot", str(root), f"{VENV}/bin/crib"]
            theirs = play_deal(crib, reference.entries, Path("/tmp/sim"), Path("/tmp/deal.txt"), environment())
            problems = differences(reference, theirs)
            if problems:
                raise Failed("the deal in the root differs from this machine's:\n" + "\n".join(problems))
            say(f"  {len(theirs.entries)} entries taken, the scores {theirs.scores()} as here")
        with step(f"{release}: cribbage-companion as the user cribbage, with the installed configuration"):
            serve_page(root)


def installed(root: Path, said: str) -> None:
    """install.sh finished as in an image: the unit enabled, and what waits for the first boot said."""
    wants = root / "etc/systemd/system/multi-user.target.wants" / UNIT
    if not wants.is_symlink():
        raise Failed(f"install.sh did not enable {UNIT} ({wants} is missing)")
    if "left for the next boot" not in said or f"{UNIT} starts" not in said:
        raise Failed("install.sh did not say what it left for the first boot")


@dataclass
class Deal:
    """A scripted deal played through `crib sim --quiet`: its entries, what it answered to each, the game's state
    (`crib state --json`'s "state") after it."""

    entries: list[str]
    answers: list[str]
    state: dict[str, Any]

    def scores(self) -> str:
        return ", ".join(f"{side['name']} {side['score']}" for side in self.state["sides"])


def play_deal(crib: list[str], entries: list[str], state_dir: Path, script: Path, env: dict[str, str]) -> Deal:
    """The deal through `crib sim`, started by `crib` (its argv), with the game's state after it."""
    common = ["--lang", "en"]
    argv = [*crib, *common, "sim", "--quiet", "--no-web", "--new", "--players", "Ann,Bob", "--dealer", "Ann",
            "--state-dir", str(state_dir), "--script", str(script)]
    answered = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=1800, check=False)
    if answered.returncode != 0:
        raise Failed(f"crib sim exited with {answered.returncode}: {answered.stderr.strip()[-2000:]}")
    state = subprocess.run([*crib, *common, "state", "--json", "--state-dir", str(state_dir)], env=env,
                           capture_output=True, text=True, timeout=600, check=False)
    if state.returncode != 0:
        raise Failed(f"crib state exited with {state.returncode}: {state.stderr.strip()[-2000:]}")
    shown = json.loads(state.stdout)["state"]  # the game, without where its log is (crib state --json's "log")
    return Deal(entries, [line for line in answered.stdout.splitlines() if line.strip()], shown)


def reference_deal(python: Path, checkout: Path) -> Deal:
    """crib sim's sample deal on this machine, from the checkout, as the root plays it."""
    entries = subprocess.run([str(python), "-c", "from companion.commands.sim import DEMO; print('\\n'.join(DEMO))"],
                             cwd=checkout, capture_output=True, text=True, check=True).stdout.split()
    with tempfile.TemporaryDirectory(prefix="pi-check-") as tmp:
        script = Path(tmp, "deal.txt")
        script.write_text("\n".join(entries) + "\n")
        env = {**os.environ, "LANG": "C.UTF-8", "PYTHONPATH": str(checkout)}
        return play_deal([str(python), "-m", "companion.cli"], entries, Path(tmp, "sim"), script, env)


def differences(reference: Deal, theirs: Deal) -> list[str]:
    """What the root's deal did otherwise than this machine's: each entry's answer, then the state's keys."""
    problems = [f"entry {n} ({entry}): here {here!r}, there {there!r}"
                for n, (entry, here, there) in enumerate(zip(reference.entries, reference.answers, theirs.answers,
                                                             strict=False), 1) if here != there]
    if len(theirs.answers) != len(reference.answers):
        problems.append(f"{len(theirs.answers)} answers there, {len(reference.answers)} here")
    problems += [f"the state's {key!r}: here {reference.state.get(key)!r}, there {theirs.state.get(key)!r}"
                 for key in sorted(reference.state.keys() | theirs.state.keys())
                 if reference.state.get(key) != theirs.state.get(key)]
    return problems


def daemon_argv(root: Path, port: int) -> list[str]:
    """cribbage-companion in the root as its unit starts it: the user cribbage with the unit's groups, in its state
    directory (made as StateDirectory= makes it), with the installed configuration and a notify socket, as systemd
    gives it (`NOTIFY`, in the root's /tmp); only the page's port is ours."""
    users = {line.split(":")[0]: line.split(":") for line in (root / "etc/passwd").read_text().splitlines() if line}
    groups = {line.split(":")[0]: line.split(":")[2] for line in (root / "etc/group").read_text().splitlines() if line}
    if "cribbage" not in users:
        raise Failed("install.sh made no user cribbage")
    uid, gid = int(users["cribbage"][2]), int(users["cribbage"][3])
    state = root / STATE.lstrip("/")
    state.mkdir(parents=True, exist_ok=True)
    os.chown(state, uid, gid)
    state.chmod(0o750)
    return ["chroot", f"--userspec={uid}:{gid}", f"--groups={','.join(groups[g] for g in USER_GROUPS)}", str(root),
            "env", f"--chdir={STATE}", f"HOME={STATE}", f"NOTIFY_SOCKET={NOTIFY}", f"{VENV}/bin/cribbage-companion",
            "--set", f"web.listen=127.0.0.1:{port}"]


def serve_page(root: Path) -> None:
    port = free_port()
    pin = re.search(r'^pin_factory *= *"(\w+)"', (root / "etc/cribbage-companion/config.toml").read_text(),
                    re.MULTILINE)
    argv = daemon_argv(root, port)
    lacking = run_service(argv, environment(), port=port, state=root / STATE.lstrip("/"),
                          notify=root / NOTIFY.lstrip("/"), pin_library=pin[1] if pin else "lgpio")
    for what, kind in lacking.items():
        say(f"  {what}: missing ({kind})")


def run_service(argv: list[str], env: dict[str, str], *, port: int, state: Path, notify: Path,
                pin_library: str) -> dict[str, str]:
    """cribbage-companion started by `argv` as systemd starts it, with its notify socket at `notify` here: it must
    tell READY=1, serve its page on 127.0.0.1:`port`, say in `state`'s devices.json that the pin library it tried
    is missing, and stop with status 0 on SIGTERM, taking devices.json away. Each is read from what systemd and
    `crib state` read, never from the journal's words (they are in the system's language). Returns each device
    missing and its problem's code."""
    notify.unlink(missing_ok=True)
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as listener, tempfile.TemporaryFile("w+") as journal:
        listener.bind(str(notify))
        notify.chmod(0o666)  # the daemon runs as its own user
        listener.settimeout(1)
        daemon = subprocess.Popen(argv, env=env, stdout=journal, stderr=journal, text=True)

        def said() -> str:  # the daemon's last journal lines, for a person to read when a check fails
            journal.seek(0)
            return "\n".join(journal.read().splitlines()[-20:])

        try:
            told = ready(listener, daemon, time.monotonic() + 300, said)
            say(f"  READY=1 (STATUS={told.get('STATUS', '')!r})")
            page = fetch_page(f"http://127.0.0.1:{port}/", daemon, time.monotonic() + 60)
            say(f"  http://127.0.0.1:{port}/ answered 200 with {len(page)} characters of HTML")
            lacking = missing_devices(state / STATUS_FILE, daemon.pid)
            daemon.terminate()
            status = daemon.wait(timeout=60)
        except (Failed, subprocess.TimeoutExpired):
            daemon.kill()
            daemon.wait()
            raise
        finally:
            notify.unlink(missing_ok=True)
        if status != 0:
            raise Failed(f"cribbage-companion exited with {status} on SIGTERM:\n{said()}")
    if (state / STATUS_FILE).exists():
        raise Failed(f"cribbage-companion left {state / STATUS_FILE} behind when it stopped (crib state would "
                     "say it runs)")
    tried = [what for what, problem in lacking.items() if problem == f"{PIN_LIBRARY} {pin_library}"]
    if not tried:
        raise Failed(f"the daemon did not try the installed pin library {pin_library} (devices.pin_factory): "
                     f"{STATUS_FILE} says {lacking}")
    return lacking


def ready(listener: socket.socket, daemon: subprocess.Popen[str], deadline: float,
          said: Callable[[], str]) -> dict[str, str]:
    """The fields of the daemon's READY=1 notification (READY, STATUS ...), as systemd would take them."""
    while time.monotonic() < deadline:
        try:
            datagram = listener.recv(4096).decode()
        except TimeoutError:
            if daemon.poll() is not None:
                raise Failed(f"cribbage-companion exited with {daemon.returncode} before READY=1:\n{said()}") from None
            continue
        fields = dict(line.partition("=")[::2] for line in datagram.splitlines() if "=" in line)
        if fields.get("READY") == "1":
            return fields
    raise Failed("cribbage-companion did not tell systemd READY=1 in 300 s")


def fetch_page(url: str, daemon: subprocess.Popen[str], deadline: float) -> str:
    """The page at `url`, asked again while the server comes up (READY=1 may come just before it listens)."""
    while True:
        try:
            with urllib.request.urlopen(url, timeout=60) as response:
                page: str = response.read().decode()
                if response.status != 200 or "<html" not in page.lower():
                    raise Failed(f"the page answered {response.status} without HTML")
                return page
        except (urllib.error.URLError, ConnectionError) as error:
            if daemon.poll() is not None or time.monotonic() > deadline:
                raise Failed(f"the page at {url} did not answer: {error}") from None
            time.sleep(0.5)


def missing_devices(path: Path, pid: int) -> dict[str, str]:
    """Each device the daemon misses, by devices.json (what `crib state` reads): its problem's code, with the
    pin library's name for a pin library that cannot be used (`PIN_LIBRARY lgpio`), or its cause's."""
    try:
        status = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise Failed(f"the daemon wrote no readable {path} after READY=1: {error}") from None
    if status.get("pid") != pid:
        raise Failed(f"{path} is not the running daemon's (pid {status.get('pid')}, not {pid})")
    lacking = {}
    for what, said in status["devices"].items():
        problem = said
        while problem is not None and problem["kind"] != PIN_LIBRARY and problem.get("cause") is not None:
            problem = problem["cause"]
        if problem is not None:
            name = problem["facts"].get("name") if problem["kind"] == PIN_LIBRARY else None
            lacking[what] = problem["kind"] + (f" {name}" if name else "")
    return lacking


def main(argv: list[str], *, checkout: Path, apt_install: Callable[[list[str]], bool], python: Path) -> int:
    """`python`: this machine's environment for the reference deal (the checkout's, as `dev.py sim` makes it)."""
    reuse = "--reuse" in argv
    releases = [name for name in argv if name != "--reuse"] or list(RELEASES)
    unknown = [name for name in releases if name not in RELEASES]
    if unknown:
        say(f"no release {unknown[0]!r}: choose from {', '.join(RELEASES)}")
        return 2
    if os.geteuid() != 0:
        say("pi-check needs root (debootstrap, chroot, mount): sudo python3 dev.py pi-check")
        return 2
    start = time.monotonic()
    try:
        with step("this machine: debootstrap, qemu-user-static, binfmt_misc with qemu-aarch64"):
            host_ready(apt_install)
        with step("this machine: the sample deal through crib sim, to compare with"):
            reference = reference_deal(python, checkout)
        for release in releases:
            check_release(release, checkout, reference, reuse=reuse)
    except (Failed, subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError) as error:
        say(f"FAILED: {error}")
        return 1
    say(f"passed: {', '.join(releases)} on arm64, {time.monotonic() - start:.0f} s in all")
    return 0


if __name__ == "__main__":
    sys.exit("run me as: sudo python3 dev.py pi-check [trixie] [bookworm]")
