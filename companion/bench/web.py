"""The web page's figures for `crib bench`, against a real `cribbage-companion` process (simulated devices, the
page on a free port, the control token it keeps in its state directory):

- input_to_page_ms: from a control request sent through a real socket (POST /api/entry, "peg 1 1" and "undo"
  in turn) to the page's WebSocket receiving the snapshot that shows it (median and 99th percentile);
- scan_to_answer_ms: a phone scanner's code (POST /api/scan: the starter C5H and UNDO in turn) to the board's
  answer, which comes after the table has taken it (median and 99th percentile);
- wrong_tokens: one client sending wrong control tokens as fast as it can for a few seconds: how many were looked
  at (401) and how many refused unread while the address waits (429), a second;
- rss_mb: the daemon's resident memory with the web server on and a page connected, after those inputs.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DEVICES = ["devices.display=dummy", "devices.strip=sim", "devices.keypad=none", "devices.buttons=none",
           "devices.scanner=none", "web.listen=127.0.0.1:0", "game.dealer=Ann"]


def _start(state_dir: Path) -> tuple[subprocess.Popen[str], str]:
    argv = [sys.executable, "-m", "companion.daemon", "--state-dir", str(state_dir)]
    for choice in DEVICES:
        argv += ["--set", choice]
    daemon = subprocess.Popen(argv, stderr=subprocess.PIPE, text=True, env={**os.environ, "NOTIFY_SOCKET": ""})
    assert daemon.stderr is not None
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = daemon.stderr.readline()
        found = re.search(r"the board's page: (http://\S+)", line)
        if found:
            return daemon, found.group(1)
        if not line and daemon.poll() is not None:
            break
    daemon.kill()
    raise RuntimeError("the daemon did not start its page")


async def _latency(url: str, token: str, inputs: int) -> list[float]:
    import aiohttp

    samples = []
    async with aiohttp.ClientSession() as session:
        socket = await session.ws_connect(url + "ws")
        seen = json.loads((await socket.receive()).data)["state"]["inputs"]
        for n in range(inputs):
            start = time.perf_counter()
            response = await session.post(url + "api/entry", json={"text": "peg 1 1" if n % 2 == 0 else "undo"},
                                          headers={"X-Crib-Token": token})
            assert response.status == 202, await response.text()
            while True:
                now = json.loads((await socket.receive(timeout=10)).data)["state"]["inputs"]
                if now != seen:
                    seen = now
                    break
            samples.append((time.perf_counter() - start) * 1000)
        await socket.close()
    return samples


async def _scans(url: str, token: str, inputs: int) -> list[float]:
    import aiohttp

    samples = []
    async with aiohttp.ClientSession() as session:
        for n in range(inputs):
            start = time.perf_counter()
            response = await session.post(url + "api/scan", json={"text": "C5H" if n % 2 == 0 else "XU"},
                                          headers={"X-Crib-Token": token})
            answer = await response.json()
            assert response.status == 200 and not answer["error"], answer
            samples.append((time.perf_counter() - start) * 1000)
    return samples


async def _guesses(url: str, seconds: float) -> dict[str, float]:
    import aiohttp

    statuses: dict[int, int] = {}
    async with aiohttp.ClientSession() as session:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            async with session.post(url + "api/token", json={}, headers={"X-Crib-Token": "wrong"}) as response:
                statuses[response.status] = statuses.get(response.status, 0) + 1
    return {"seconds": seconds, "looked_at": statuses.get(401, 0), "refused_unread": statuses.get(429, 0),
            "requests_per_s": round(sum(statuses.values()) / seconds)}


def _quantiles(samples: list[float]) -> dict[str, float]:
    samples = sorted(samples)
    return {"median": round(statistics.median(samples), 2), "p99": round(samples[int(len(samples) * 0.99) - 1], 2)}


def run(quick: bool) -> dict[str, object]:
    from companion.bench.daemon import rss_mb

    inputs = 50 if quick else 1000
    with tempfile.TemporaryDirectory() as directory:
        state_dir = Path(directory)
        daemon, url = _start(state_dir)
        try:
            token = (state_dir / "web-token").read_text().strip()
            samples = asyncio.run(_latency(url, token, inputs))
            scans = asyncio.run(_scans(url, token, inputs))
            rss = rss_mb(daemon.pid)
            guesses = asyncio.run(_guesses(url, 1.0 if quick else 5.0))  # last: it locks this address out
        finally:
            daemon.terminate()
            daemon.wait(10)
    return {"inputs": inputs, "input_to_page_ms": _quantiles(samples), "scan_to_answer_ms": _quantiles(scans),
            "wrong_tokens": guesses, "rss_mb": rss}
