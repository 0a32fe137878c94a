"""A phone's camera for Chromium's fake capture device, in colour: a Y4M video of ordinary cards held up one after
the other over a wooden table (tests/devices/card_photos.py), at ten frames a second."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from PIL import Image

from tests.devices.card_photos import SIZE, table

FPS = 10
"""The phone sends the board a frame at most every 250 ms (scan.js's CARD_FRAME_MS), after the board answered the
last: at 10 frames a second it waits at most a frame for the next one."""


@dataclass(frozen=True)
class Held:
    code: str
    picture: Image.Image


def _yuv(picture: Image.Image) -> bytes:
    """One frame as Y4M's 4:2:0 planes (full-range, as JFIF: C420jpeg)."""
    y, cb, cr = picture.convert("RGB").convert("YCbCr").split()
    half = (picture.width // 2, picture.height // 2)
    return (y.tobytes() + cb.resize(half, Image.Resampling.BOX).tobytes()
            + cr.resize(half, Image.Resampling.BOX).tobytes())


def write_y4m(path: Path, cards: list[Held], *, lead: int = 10, held: int = 12, gap: int = 20,
              tail: int = 20) -> list[int]:
    """The video, played in real time (its length is the test's): `lead` frames of table, then each card `held`
    frames (about 4 of them reach the board, which enters a card seen in 2 frames in a row) with `gap` frames of
    table after it (time for a person to answer a question), then `tail` frames of table. Returns the frame each
    card comes into view."""
    width, height = SIZE
    blank = _yuv(table(0))
    starts = []
    with path.open("wb") as file:
        file.write(f"YUV4MPEG2 W{width} H{height} F{FPS}:1 Ip A1:1 C420jpeg\n".encode())
        count = 0

        def write(frame: bytes, times: int) -> None:
            nonlocal count
            for _ in range(times):
                file.write(b"FRAME\n" + frame)
            count += times

        write(blank, lead)
        for card in cards:
            starts.append(count)
            write(_yuv(card.picture), held)
            write(blank, gap)
        write(blank, tail)
    return starts
