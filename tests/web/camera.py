"""A phone's camera for Chromium's fake capture device: a Y4M video of the deck's own labels held up one after the
other (printed with `crib print-deck`'s code, rasterised with pdftoppm), on a grey table between them."""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

from companion.deck.labels import DeckOptions, deck_codes, write_deck
from companion.deck.sheets import PRESETS
from companion.deck.symbols import Symbology, make_symbol
from tests.deck.pages import rasterise

SIZE = (320, 240)
FPS = 15
DPI = 150
TABLE = 150  # the table's grey


def label_images(folder: Path) -> dict[str, Image.Image]:
    """Every label of the default deck (L7651 sheets, DataMatrix), cut from the rasterised pages, by payload."""
    sheet = PRESETS["L7651"]
    pdf = folder / "deck.pdf"
    write_deck(pdf, DeckOptions(sheet, Symbology.DATAMATRIX))
    pages = rasterise(pdf, DPI)
    px = DPI / 25.4
    out = {}
    codes = deck_codes()
    places = list(sheet.positions())
    for index, code in enumerate(codes):
        page = pages[index // sheet.per_page]
        x, y = places[index % sheet.per_page]
        box = (round(x * px), round(y * px), round((x + sheet.label[0]) * px), round((y + sheet.label[1]) * px))
        out[code.payload] = page.crop(box).convert("L")
    return out


def foreign_label(payload: str) -> Image.Image:
    """A DataMatrix that is not one of the deck's (a product's label), at the deck's module size."""
    symbol = make_symbol(payload, Symbology.DATAMATRIX)
    module, quiet = 8, 2
    image = Image.new("L", ((symbol.width + 2 * quiet) * module, (symbol.height + 2 * quiet) * module), 255)
    for row, cells in enumerate(symbol.rows):
        for column, dark in enumerate(cells):
            if dark:
                left, top = (column + quiet) * module, (row + quiet) * module
                image.paste(0, (left, top, left + module, top + module))
    return image


@dataclass(frozen=True)
class Shown:
    payload: str
    first_frame: int  # the frame it comes into view


def write_y4m(path: Path, labels: list[tuple[str, Image.Image]], *, lead: int = 12, held: int = 5,
              gap: int = 3, apart: int = 10, seed: int = 7) -> list[Shown]:
    """The video: `lead` frames of table, then each label `held` frames (moving a little, as in a hand) with `gap`
    frames of table after it, or `apart` frames before the same label again (it must leave the view, the page's
    GONE_FRAMES decoded frames, to count again); a long tail of table so that the loop does not come round during
    a test. The page decodes every frame (a millisecond or so each), so the video is as short as that allows:
    its length is the test's, played in real time."""
    rng = random.Random(seed)
    width, height = SIZE
    blank = Image.effect_noise(SIZE, 6).point(lambda v: TABLE + (v - 128) // 8)
    chroma = bytes([128]) * (width * height // 4)
    frames: list[Image.Image] = [blank] * lead
    shown = []
    for index, (payload, label) in enumerate(labels):
        shown.append(Shown(payload, len(frames)))
        for _ in range(held):
            frame = blank.copy()
            turned = label.rotate(rng.uniform(-6, 6), expand=True, fillcolor=TABLE)
            if turned.width > width * 0.9:
                turned = turned.resize((int(width * 0.9), int(turned.height * width * 0.9 / turned.width)))
            left = (width - turned.width) // 2 + rng.randint(-8, 8)
            top = (height - turned.height) // 2 + rng.randint(-8, 8)
            frame.paste(turned, (left, top))
            frames.append(frame)
        again = index + 1 < len(labels) and labels[index + 1][0] == payload
        frames += [blank] * (apart if again else gap)
    frames += [blank] * (FPS * 6)
    with path.open("wb") as file:
        file.write(f"YUV4MPEG2 W{width} H{height} F{FPS}:1 Ip A1:1 C420jpeg\n".encode())
        for frame in frames:
            file.write(b"FRAME\n" + frame.tobytes() + chroma + chroma)
    return shown
