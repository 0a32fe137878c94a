"""`python3 dev.py pi-check [--reuse] [RELEASE ...]`: the board on the Pi's architecture, as root, without a Pi.

For each release (trixie and bookworm unless named): a Debian arm64 root made by debootstrap (cached in
~/.cache/cribbage-companion/pi-check/RELEASE-arm64, and copied for each run, so every run installs on a clean
system; with --reuse the last run's root is used again, and install.sh upgrades it), entered with chroot, where
the kernel runs its aarch64 programs through qemu-user-static (binfmt_misc); then, each step printed with its time:

1. systemd/install.sh from this checkout, as on a Pi (only systemctl and modprobe are stand-ins that log);
2. `crib check-config` of the configuration it wrote, by the aarch64 Python;
3. a scripted deal (crib sim's sample deal) through `crib sim`;
4. `cribbage-companion` on mock pins, serving its page on 127.0.0.1, fetched from outside the root.

This machine's pip configuration, PIP_* settings and CA certificates go into the root, so pip and apt reach the
registries this machine reaches; downloaded packages are kept beside the cached root for the next run.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "cribbage-companion" / "pi-check"
MIRROR = "http://deb.debian.org/debian"
RELEASES = ("trixie", "bookworm")
HOST_PACKAGES = {"debootstrap": "debootstrap", "qemu-aarch64-static": "qemu-user-static",
                 "update-binfmts": "binfmt-support"}
BINFMT = Path("/proc/sys/fs/binfmt_misc")
SOURCE = "/root/cribbage-companion"
VENV = "/opt/cribbage-companion/venv"
STAND_IN = """#!/bin/sh
# pi-check's stand-in: there is no systemd or kernel of the Pi's in this root; the call is logged
echo "$(basename "$0") $*" >> /var/log/pi-check-stand-ins.log
"""
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
    with step(f"{release}: debootstrap --arch=arm64 --variant=minbase {release} (once)"):
        if subprocess.run(["debootstrap", "--arch=arm64", "--variant=minbase", release, str(partial), MIRROR],
                          check=False).returncode != 0:
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
    """A fresh copy of the cached root with this machine's network settings, the stand-ins and the checkout."""
    root = CACHE / f"{release}-arm64-run"
    shutil.rmtree(root, ignore_errors=True)
    subprocess.run(["cp", "-a", "--reflink=auto", str(base), str(root)], check=True)
    shutil.copy2("/etc/resolv.conf", root / "etc/resolv.conf")
    for path in (Path("/etc/pip.conf"), *Path("/etc/xdg/pip").glob("*")):  # this machine's pip configuration
        if path.is_file():
            (root / path.relative_to("/")).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, root / path.relative_to("/"))
    shutil.copy2(CA_CERTIFICATES, root / HOST_CA.lstrip("/"))
    for name, text in {"usr/local/sbin/systemctl": STAND_IN, "usr/local/sbin/modprobe": STAND_IN,
                       "usr/sbin/policy-rc.d": NO_SERVICES}.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
        (root / name).chmod(0o755)
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


def check_release(release: str, checkout: Path, *, reuse: bool = False) -> None:
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
        with step(f"{release}: systemd/install.sh (as root in the arm64 root)"):
            inside(root, "bash", f"{SOURCE}/systemd/install.sh")
        say("  stand-ins called: " + "; ".join((root / "var/log/pi-check-stand-ins.log").read_text().splitlines()))
        with step(f"{release}: crib check-config /etc/cribbage-companion/config.toml"):
            python = inside(root, f"{VENV}/bin/python", "-c", "import platform, sys; "
                            "print(platform.machine(), sys.version.split()[0])", output=True).split()
            say(f"  the venv's Python {python[1]} on {python[0]}")
            if python[0] != "aarch64":
                raise Failed(f"the venv's Python runs as {python[0]}")
            inside(root, f"{VENV}/bin/crib", "check-config", "/etc/cribbage-companion/config.toml")
        with step(f"{release}: a scripted deal through crib sim"):
            inside(root, f"{VENV}/bin/python", "-c", "from companion.commands.sim import DEMO; "
                   "open('/tmp/deal.txt', 'w').write('\\n'.join(DEMO) + '\\n')")
            said = inside(root, f"{VENV}/bin/crib", "sim", "--quiet", "--no-web", "--new", "--players", "Ann,Bob",
                          "--dealer", "Ann", "--state-dir", "/tmp/sim", "--script", "/tmp/deal.txt", output=True)
            deal = (root / "tmp/deal.txt").read_text().split()
            if not deal_taken(said, len(deal)):
                raise Failed("crib sim did not take every entry of the deal:\n" + said)
            say(f"  {len(deal)} entries taken, the crib last: {said.strip().splitlines()[-1][:100]}")
        with step(f"{release}: cribbage-companion on mock pins, its page on 127.0.0.1"):
            serve_page(root)


def deal_taken(said: str, entries: int) -> bool:
    """Whether `crib sim --quiet` took each of a deal's entries (the first crib cards are noted, the last makes the
    crib), the crib last."""
    lines = [line for line in said.splitlines() if line.strip()]
    taken = [line for line in lines if line.startswith(("ok ", "noted "))]
    return len(taken) == len(lines) == entries and lines[-1].startswith("ok ") and '"crib"' in lines[-1]


def serve_page(root: Path) -> None:
    port = free_port()
    settings = ["devices.pin_factory=mock", "devices.display=dummy", "devices.strip=sim", "devices.scanner=none",
                f"web.listen=127.0.0.1:{port}"]
    argv = ["chroot", str(root), f"{VENV}/bin/cribbage-companion", "--state-dir", "/tmp/daemon",
            *(word for setting in settings for word in ("--set", setting))]
    daemon = subprocess.Popen(argv, env=environment(), stderr=subprocess.PIPE, text=True)
    assert daemon.stderr is not None
    try:
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            line = daemon.stderr.readline()
            if "the board's page: " in line:
                break
            if not line and daemon.poll() is not None:
                raise Failed(f"cribbage-companion exited with {daemon.returncode} before serving its page")
        else:
            raise Failed("cribbage-companion did not serve its page in 300 s")
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=60) as response:
            page = response.read().decode()
        if response.status != 200 or "<html" not in page.lower():
            raise Failed(f"the page answered {response.status} without HTML")
        say(f"  http://127.0.0.1:{port}/ answered 200 with {len(page)} characters of HTML")
    finally:
        daemon.terminate()
        try:
            daemon.wait(60)
        except subprocess.TimeoutExpired:
            daemon.kill()


def main(argv: list[str], *, checkout: Path, apt_install: Callable[[list[str]], bool]) -> int:
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
        for release in releases:
            check_release(release, checkout, reuse=reuse)
    except (Failed, subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError) as error:
        say(f"FAILED: {error}")
        return 1
    say(f"passed: {', '.join(releases)} on arm64, {time.monotonic() - start:.0f} s in all")
    return 0


if __name__ == "__main__":
    sys.exit("run me as: sudo python3 dev.py pi-check [trixie] [bookworm]")
