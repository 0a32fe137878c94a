"""The board at a Raspberry Pi Zero 2 W's speed (`crib bench --only pi`, as root): the daemon and the pro run in a
cgroup (v2, or v1's cpu controller) whose CPU quota is a share of one core of this machine (`--cpu-share`,
default 0.125: the README derives it), pinned to that core, with the quota handed out every 8 ms (at a share of
0.125) so that the board is slow evenly, as a slow CPU is, rather than stopped for most of each 100 ms. The
measures are those of companion/bench/daemon.py, web.py and advice.py:

- cpu_share: the share asked for; cpu_share_measured: what a busy loop in the group got (less on a loaded machine);
- input_p99_ms: an entry to the log fsynced, the pegs sent and the OLED drawn (crib sim's sample deal, with undos);
- web_p99_ms: a control request to the page's WebSocket showing it, the daemon in the group, the browser outside;
- pro_p99_ms: the pro's decisions in whole games against the standard player;
- ready_s: starting `cribbage-companion` to its READY=1 (median); rss_mb: its largest resident memory, at READY
  and with the page on after the web inputs;
- recognize_p99_ms: the card reader reading a 640x480 frame (companion/bench/vision.py's sample frames);
  rss_with_reader_mb: rss_mb plus the memory loading and running the reader adds (OpenCV, the model);
- reference_ms: a fixed piece of the board's work (itemising 20,000 shows): the CPU time it takes here
  (cpu_here, whatever else the machine does), the time it takes in the quota (in_quota), and their ratio, the
  share of this machine's speed the board really got (share). The same on an idle Pi (`python -m
  companion.bench.pi reference 20000` prints its seconds) gives the share that board stands for: cpu_here over
  the Pi's time;
- goals, and met: each figure against its goal.
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from companion.errors import CommandError

GOALS = {"input_p99_ms": 50.0, "web_p99_ms": 150.0, "pro_p99_ms": 1500.0, "ready_s": 5.0, "rss_mb": 80.0,
         "recognize_p99_ms": 150.0, "rss_with_reader_mb": 120.0}
QUOTA_US = 1000
"""The run time handed out each period (the kernel's least): the period is this over the share."""
CGROUP = Path("/sys/fs/cgroup")


def _p99(samples: list[float]) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


class CpuQuota:
    """A cgroup with `share` of one CPU (the last one, which its processes are pinned to): a command started with
    `prefix` before it runs in it."""

    def __init__(self, share: float) -> None:
        if not 0.001 <= share <= 1:
            raise CommandError(f"--cpu-share must be between 0.001 and 1 (a share of one core; got {share})")
        if os.geteuid() != 0:
            raise CommandError("crib bench --only pi makes a cgroup with a CPU quota: run it as root (sudo)")
        self.share = share
        self.period_us = round(QUOTA_US / share)
        self.cpu = max(os.sched_getaffinity(0))
        self.version, parent = _cpu_controller()
        self.path = parent / f"crib-bench-pi-{os.getpid()}"

    def __enter__(self) -> CpuQuota:
        try:
            self.path.mkdir()
            if self.version == "v2":
                (self.path / "cpu.max").write_text(f"{QUOTA_US} {self.period_us}")
            else:
                (self.path / "cpu.cfs_period_us").write_text(str(self.period_us))
                (self.path / "cpu.cfs_quota_us").write_text(str(QUOTA_US))
        except OSError as error:
            self.__exit__()
            raise CommandError(f"cannot make a cgroup with a CPU quota in {self.path.parent} ({error}): is this a "
                               "container without its own cgroups?") from error
        return self

    @property
    def prefix(self) -> list[str]:
        return [sys.executable, "-m", "companion.bench.pi", "join", str(self.path), str(self.cpu)]

    def __exit__(self, *exc: object) -> None:
        for _ in range(50):  # the group's last processes may still be leaving
            try:
                self.path.rmdir()
                return
            except FileNotFoundError:
                return
            except OSError:
                time.sleep(0.1)


def _cpu_controller() -> tuple[str, Path]:
    """Which cgroup hierarchy has the cpu controller, and the directory to make a group in."""
    controllers = CGROUP / "cgroup.controllers"
    if controllers.exists() and "cpu" in controllers.read_text().split():
        subtree = CGROUP / "cgroup.subtree_control"
        if "cpu" not in subtree.read_text().split():
            try:
                subtree.write_text("+cpu")
            except OSError as error:
                raise CommandError(f"cannot enable the cpu controller in {subtree} ({error})") from error
        return "v2", CGROUP
    for line in Path("/proc/self/mounts").read_text().splitlines():
        _, where, kind, options, *_ = line.split()
        if kind == "cgroup" and "cpu" in options.split(","):
            return "v1", Path(where)
    raise CommandError("no cgroup with the cpu controller is mounted (cgroup v2 at /sys/fs/cgroup, or v1's cpu)")


def _inside(quota: CpuQuota, measure: str, *args: object) -> Any:
    """Run `measure` of this module in a process in the quota's group: what it returned, from its JSON."""
    result = subprocess.run([*quota.prefix, sys.executable, "-m", "companion.bench.pi", measure, *map(str, args)],
                            capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise RuntimeError(f"the {measure} measure failed under the quota:\n{result.stderr[-3000:]}")
    return json.loads(result.stdout)


def busy_share(seconds: float) -> float:
    """The share of one core a busy loop gets."""
    wall, cpu = time.monotonic(), time.process_time()
    while time.monotonic() - wall < seconds:
        pass
    return (time.process_time() - cpu) / (time.monotonic() - wall)


def input_p99(rounds: int) -> dict[str, float]:
    from companion.bench.daemon import input_latency

    with tempfile.TemporaryDirectory(prefix="crib-bench-pi-") as directory:
        samples = input_latency(rounds, Path(directory))
    return {"median": statistics.median(samples), "p99": _p99(samples), "samples": len(samples)}


def pro_p99(games: int) -> dict[str, object]:
    from companion.bench.advice import pro_decisions

    return pro_decisions(games)


def reference(hands: int) -> dict[str, float]:
    """Seconds (wall and CPU) to itemise the shows of `hands` fixed deals (pure Python, as the board's work is)."""
    import random

    from companion.cribbage.cards import DECK
    from companion.cribbage.scoring import score_show

    rng = random.Random(1)
    deals = [rng.sample(DECK, 5) for _ in range(hands)]
    start, cpu = time.perf_counter(), time.process_time()
    for *hand, starter in deals:
        score_show(hand, starter)
    return {"seconds": time.perf_counter() - start, "cpu_seconds": time.process_time() - cpu}


def recognize_p99(rounds: int) -> dict[str, float]:
    from companion.bench.vision import measure

    return measure(rounds)


REFERENCE_HANDS = 20_000
MEASURES = {"busy_share": busy_share, "input_p99": input_p99, "pro_p99": pro_p99, "reference": reference,
            "recognize_p99": recognize_p99}


def web_p99(quota: CpuQuota, inputs: int, state_dir: Path) -> tuple[list[float], float]:
    """The page's latency with the daemon in the group (the browser's side outside it), and its memory then."""
    from companion.bench.daemon import rss_mb
    from companion.bench.web import latency, start

    daemon, url = start(state_dir, prefix=quota.prefix)
    try:
        token = (state_dir / "web-token").read_text().strip()
        samples = asyncio.run(latency(url, token, inputs))
        return samples, rss_mb(daemon.pid)
    finally:
        daemon.terminate()
        daemon.wait(30)


def run(quick: bool, cpu_share: float = 0.125) -> dict[str, object]:
    from companion.bench.daemon import startup_to_ready

    with CpuQuota(cpu_share) as quota, tempfile.TemporaryDirectory(prefix="crib-bench-pi-") as directory:
        base = Path(directory)
        measured = _inside(quota, "busy_share", 1.0 if quick else 3.0)
        cpu_here = min(reference(REFERENCE_HANDS)["cpu_seconds"] for _ in range(3))
        in_quota = _inside(quota, "reference", REFERENCE_HANDS)["seconds"]
        starts, memory = zip(*(startup_to_ready(base / f"start-{i}", prefix=quota.prefix)
                               for i in range(1 if quick else 5)), strict=True)
        latency = _inside(quota, "input_p99", 1 if quick else 10)
        web, web_rss = web_p99(quota, 20 if quick else 300, base / "web")
        pro = _inside(quota, "pro_p99", 1 if quick else 8)
        reader = _inside(quota, "recognize_p99", 1 if quick else 10)
    figures = {
        "input_p99_ms": round(latency["p99"], 1),
        "web_p99_ms": round(_p99(web), 1),
        "pro_p99_ms": round(pro["decision_p99_ms"], 1),
        "ready_s": round(statistics.median(starts) / 1000, 2),
        "rss_mb": round(max(*memory, web_rss), 1),
        "recognize_p99_ms": round(reader["p99"], 1),
        "rss_with_reader_mb": round(max(*memory, web_rss) + reader["reader_mb"], 1),
    }
    return {
        "cpu_share": cpu_share,
        "cpu_share_measured": round(measured, 3),
        "cgroup": f"{quota.version}, {QUOTA_US} us every {quota.period_us} us on CPU {quota.cpu}",
        **figures,
        "reference_ms": {"cpu_here": round(cpu_here * 1000, 1), "in_quota": round(in_quota * 1000, 1),
                         "share": round(cpu_here / in_quota, 3)},
        "input_median_ms": round(latency["median"], 1),
        "web_median_ms": round(statistics.median(web), 1),
        "pro_max_ms": pro["decision_max_ms"],
        "pro_decisions": pro["decisions"],
        "recognize_median_ms": round(reader["p50"], 1),
        "recognize_reads": reader["reads"],
        "goals": GOALS,
        "met": {name: value <= GOALS[name] for name, value in figures.items()},
    }


def main(argv: list[str]) -> None:
    """`join GROUP CPU COMMAND...`: run the command in the group, on that CPU; `MEASURE ARG`: print its figures."""
    if argv[0] == "join":
        Path(argv[1], "cgroup.procs").write_text(str(os.getpid()))
        os.sched_setaffinity(0, {int(argv[2])})
        os.execv(argv[3], argv[3:])
    if argv[0] not in MEASURES or len(argv) != 2:
        sys.exit(f"usage: python -m companion.bench.pi {{{','.join(MEASURES)}}} N, or join GROUP CPU COMMAND...")
    argument = float(argv[1])
    measure: Any = MEASURES[argv[0]]
    print(json.dumps(measure(argument if argv[0] == "busy_share" else int(argument))))


if __name__ == "__main__":
    main(sys.argv[1:])
