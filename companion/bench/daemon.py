"""Daemon figures for `crib bench`, with simulated devices (luma dummy OLED, recording strip):

- input_latency_ms: from an entry put on the queue to the log fsynced, the pegs sent and the OLED image
  drawn and shown (median and 99th percentile over crib sim's sample deal, entered again and again with undos);
- idle_cpu_percent: CPU time of the main loop with nothing entered (it polls every 10 ms);
- rss_mb: resident memory of the `cribbage-companion` process once it is ready (the largest of the starts);
- startup_to_ready_ms: from starting `cribbage-companion` to its READY=1 on $NOTIFY_SOCKET (median);
- oled_frame_ms: one OLED frame through luma's real ssd1306 driver and I2C interface, onto an smbus2 bus that
  counts what crosses the wire: the CPU time luma takes here (median over the sample deal's screens), and the
  time those bytes take on the bus at 400 kHz (what install.sh sets) and at the Pi's default 100 kHz (each byte
  9 clocks with its ACK, plus start and stop per transfer).
"""

from __future__ import annotations

import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

DEVICE_CHOICES = ["web.listen=127.0.0.1:0", "devices.display=dummy", "devices.strip=sim", "devices.keypad=none",
                  "devices.buttons=none",
                  "devices.scanner=none"]


def _table(state_dir: Path):  # type: ignore[no-untyped-def]
    from companion.base.clock import SystemClock
    from companion.config import load_config
    from companion.daemon import Daemon, Notifier, open_table, setup_input
    from companion.registry import open_devices

    config = load_config(overrides=DEVICE_CHOICES, system_path=None)
    clock = SystemClock()
    board = open_devices(config, clock=clock, simulate=False)
    table = open_table(config, board, state_dir=state_dir, clock=clock, setup=setup_input(config, ["Ann", "Bob"],
                                                                                          "Ann"))
    return Daemon(table, board, clock=clock, notifier=Notifier({}))


def input_latency(rounds: int, state_dir: Path) -> list[float]:
    from companion.base.demo import DEMO
    from companion.entry import Entry

    daemon = _table(state_dir)
    table = daemon.table
    samples = []
    try:
        for _ in range(rounds):
            for text in [*DEMO, *(["undo"] * 12)]:  # crib sim's sample deal, then back to the starter's prompt
                start = time.perf_counter()
                table.emit(Entry(text))
                daemon.step(timeout=0)
                samples.append((time.perf_counter() - start) * 1000)
            table.emit(Entry("undo"))
            daemon.step(timeout=0)
    finally:
        daemon.board.close()
    return samples


def idle_cpu(seconds: float, state_dir: Path) -> float:
    daemon = _table(state_dir)
    try:
        wall, cpu = time.monotonic(), time.process_time()
        while time.monotonic() - wall < seconds:
            daemon.step()
        return 100 * (time.process_time() - cpu) / (time.monotonic() - wall)
    finally:
        daemon.board.close()


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def startup_to_ready(state_dir: Path, prefix: Sequence[str] = ()) -> tuple[float, float]:
    """Start the daemon as systemd would, wait for READY=1: milliseconds to ready, and its resident MB then.
    `prefix` starts the daemon's command (companion/bench/pi.py's puts it under a CPU quota)."""
    state_dir.mkdir(parents=True, exist_ok=True)
    address = str(state_dir / "notify")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as systemd:
        systemd.bind(address)
        systemd.settimeout(30)
        overrides = [arg for choice in DEVICE_CHOICES for arg in ("--set", choice)]
        start = time.perf_counter()
        child = subprocess.Popen([*prefix, sys.executable, "-c", "import sys; from companion.daemon import main; "
                                  "sys.exit(main(sys.argv[1:]))", "--state-dir", str(state_dir), *overrides],
                                 env={**os.environ, "NOTIFY_SOCKET": address}, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL)
        try:
            while not systemd.recv(4096).startswith(b"READY=1"):
                pass
            return (time.perf_counter() - start) * 1000, rss_mb(child.pid)
        finally:
            child.terminate()
            child.wait(10)
            os.unlink(address)


class _WireCount:
    """smbus2.SMBus as luma's I2C interface uses it, counting the transfers and the bytes on the wire (the address
    byte included) instead of sending them."""

    transfers = 0
    wire_bytes = 0

    def __init__(self, port: int) -> None:
        pass

    def write_i2c_block_data(self, address: int, register: int, data: list[int]) -> None:
        type(self).transfers += 1
        type(self).wire_bytes += 2 + len(data)

    def i2c_rdwr(self, *messages: object) -> None:
        for message in messages:
            type(self).transfers += 1
            type(self).wire_bytes += 1 + len(message)  # type: ignore[arg-type]

    def close(self) -> None:
        pass


def oled_frame(rounds: int, state_dir: Path) -> dict[str, object]:
    from unittest import mock

    from companion.base.demo import DEMO
    from companion.devices.base import Entry
    from companion.devices.oled import open_oled

    daemon = _table(state_dir)
    screens = []
    try:
        for text in DEMO:
            daemon.table.emit(Entry(text))
            daemon.step(timeout=0)
            screens.append(daemon.table.picture.image)
    finally:
        daemon.board.close()
    with mock.patch("smbus2.SMBus", _WireCount):
        oled = open_oled("ssd1306")
        samples = []
        _WireCount.transfers = _WireCount.wire_bytes = 0
        for _ in range(rounds):
            for image in screens:
                start = time.perf_counter()
                oled.show(image)
                samples.append((time.perf_counter() - start) * 1000)
        frames = rounds * len(screens)
        transfers, wire_bytes = _WireCount.transfers / frames, _WireCount.wire_bytes / frames
    clocks = wire_bytes * 9 + transfers * 2

    def on_the_wire(khz: int) -> float:
        return round(clocks / khz, 1)

    return {"cpu_median": round(statistics.median(samples), 2), "wire_at_400khz": on_the_wire(400),
            "wire_at_100khz": on_the_wire(100), "bytes": round(wire_bytes), "transfers": round(transfers),
            "frames": frames}


def run(quick: bool) -> dict[str, object]:
    with tempfile.TemporaryDirectory(prefix="crib-bench-") as directory:
        base = Path(directory)
        samples = sorted(input_latency(2 if quick else 20, base / "latency"))
        idle = idle_cpu(0.5 if quick else 3.0, base / "idle")
        starts, memory = zip(*(startup_to_ready(base / f"start-{i}") for i in range(1 if quick else 5)), strict=True)
        frame = oled_frame(1 if quick else 10, base / "oled")
    return {
        "input_latency_ms": {
            "median": round(statistics.median(samples), 2),
            "p99": round(samples[min(len(samples) - 1, int(0.99 * len(samples)))], 2),
            "samples": len(samples),
        },
        "idle_cpu_percent": round(idle, 2),
        "rss_mb": round(max(memory), 1),
        "startup_to_ready_ms": round(statistics.median(starts), 1),
        "oled_frame_ms": frame,
        "devices": "simulated: luma dummy OLED, recording strip; the log fsynced on this machine's disk",
    }
