"""A phone's camera for Chromium's fake capture device, in colour: a Y4M video of ordinary cards held up one after
the other over a wooden table (tests/devices/card_photos.py), at a few frames a second."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from PIL import Image

from tests.devices.card_photos import SIZE, table

FPS = 5


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


def write_y4m(path: Path, cards: list[Held], *, lead: int = 10, held: int = 8, gap: int = 15,
              tail: int = 40) -> list[int]:
    """The video: `lead` frames of table, then each card `held` frames with `gap` frames of table after it, then
    `tail` frames of table. Returns the frame each card comes into view."""
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
