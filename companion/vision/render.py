"""The card designs the model learns from, rendered to pictures (RGBA, the card's outline in its alpha).

Each design comes from a package whose licence allows it (docs/vision.md and the README list them):

- Debian's kdegames-card-data-kf5: the SVG decks of /usr/share/carddecks (not xskat-german, whose suits are
  German); aisleriot's bonded.svgz. Rendered by rsvg-convert (librsvg2-bin), one element per card.
- npm's svg-cards (LGPL-2.1): its own PNG renders of each card.
- npm's @letele/playing-cards (CC0): React components, turned into SVG by a few lines of node, then rsvg-convert.

Renders are kept in a cache folder (a design takes a minute to render; the cache makes the next training quick).
"""

from __future__ import annotations

import functools
import io
import os
import shutil
import subprocess
import tarfile
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from companion.vision.index import CODES

if TYPE_CHECKING:
    from numpy.typing import NDArray

KDE_DECKS = Path("/usr/share/carddecks")
AISLERIOT = Path("/usr/share/aisleriot/cards/bonded.svgz")
LEFT_OUT = {
    "svg-xskat-german": "its suits are German (hearts, bells, leaves, acorns)",
    "svg-oxygen": "its rank and suit stand in different corners", "svg-oxygen-air": "the same",
    "svg-oxygen-white": "the same",
}
"""Decks the reader does not learn from, and why."""
NPM_PACKAGES = {"svg-cards": "4.0.2", "@letele/playing-cards": "0.1.0"}
CARD_WIDTH = 250
"""A rendered card's width in pixels."""
_RANK_WORDS = {"A": "1", "J": "jack", "Q": "queen", "K": "king"}
_SUIT_WORDS = {"C": "club", "D": "diamond", "H": "heart", "S": "spade"}


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "cribbage-companion" / "vision"


def designs() -> dict[str, Callable[[Path], None]]:
    """Each design's name and the function that renders its 52 cards into a folder (CODE.png)."""
    found: dict[str, Callable[[Path], None]] = {}
    if KDE_DECKS.is_dir():
        for deck in sorted(KDE_DECKS.iterdir()):
            svgs = list(deck.glob("*.svgz"))
            if deck.name not in LEFT_OUT and svgs and _whole(svgs[0]):
                found[deck.name.removeprefix("svg-")] = functools.partial(_render_svg_deck, svgs[0])
    if AISLERIOT.is_file() and _whole(AISLERIOT):
        found["aisleriot-bonded"] = functools.partial(_render_svg_deck, AISLERIOT)
    if shutil.which("npm"):
        found["svg-cards"] = _svg_cards
        found["letele"] = _letele
    return found


def rendered(progress: Callable[[str], None] | None = None) -> dict[str, Path]:
    """Every design rendered (from the cache when it is there): name -> folder of CODE.png."""
    folders = {}
    for name, render in designs().items():
        folder = cache_dir() / "renders" / name
        if (folder / "FAILED").is_file():
            continue
        if not all((folder / f"{code}.png").is_file() for code in CODES):
            if progress:
                progress(f"rendering {name}")
            folder.mkdir(parents=True, exist_ok=True)
            try:
                render(folder)
            except subprocess.CalledProcessError as error:
                if progress:
                    progress(f"left out {name}: {error.stderr.decode(errors='replace').strip()}")
                shutil.rmtree(folder)
                folder.mkdir()
                (folder / "FAILED").write_text(error.stderr.decode(errors="replace"))  # not tried again
                continue
        if not _card_shaped(folder):
            (folder / "FAILED").write_text("its renders are not card-shaped")
            continue
        folders[name] = folder
    return folders


def _card_shaped(folder: Path) -> bool:
    """Whether a design's renders have a playing card's proportions (an element may draw something else)."""
    from PIL import Image

    with Image.open(folder / "AS.png") as image:
        return 1.2 <= image.height / image.width <= 1.7


def _element_id(code: str, suit_first: bool) -> str:
    """A card's element in a KDE or aisleriot SVG deck: 1_club, king_heart (KDE's), or club_1 (aisleriot's)."""
    rank, suit = _RANK_WORDS.get(code[:-1], code[:-1]), _SUIT_WORDS[code[-1]]
    return f"{suit}_{rank}" if suit_first else f"{rank}_{suit}"


def _whole(svg: Path) -> bool:
    """Whether an SVG deck draws each of the 52 cards as one element (some draw number cards from pips in code)."""
    import gzip

    text = gzip.decompress(svg.read_bytes())
    suit_first = b'id="club_2"' in text
    return all(f'id="{_element_id(code, suit_first)}"'.encode() in text for code in CODES)


def _rsvg(source: Path | bytes, out: Path, element: str | None = None, zoom: float = 1.0) -> None:
    argv = ["rsvg-convert", "-z", f"{zoom:.4f}", "-o", str(out)]
    if element:
        argv += ["-i", element]
    if isinstance(source, Path):
        subprocess.run([*argv, str(source)], check=True, capture_output=True)
    else:
        subprocess.run(argv, input=source, check=True, capture_output=True)


def _finish(png: Path) -> None:
    """Crop a render to its card (what is not transparent) and scale it to CARD_WIDTH."""
    from PIL import Image

    with Image.open(png) as image:
        card = image.convert("RGBA")
    box = card.getchannel("A").point(lambda a: 255 if a > 16 else 0).getbbox()
    card = card.crop(box)
    height = round(card.height * CARD_WIDTH / card.width)
    card.resize((CARD_WIDTH, height), Image.Resampling.LANCZOS).save(png)


def _render_svg_deck(svg: Path, out: Path) -> None:
    import gzip

    from PIL import Image

    suit_first = b'id="club_2"' in gzip.decompress(svg.read_bytes())
    probe = out / "probe.png"
    _rsvg(svg, probe, _element_id("2C", suit_first))
    with Image.open(probe) as image:
        box = image.getchannel("A").getbbox()
    probe.unlink()
    zoom = 1.5 * CARD_WIDTH / max(1, box[2] - box[0]) if box else 1.0
    for code in CODES:
        target = out / f"{code}.png"
        _rsvg(svg, target, _element_id(code, suit_first), zoom)
        _finish(target)


def _npm_pack(name: str, folder: Path) -> Path:
    """The npm package's tarball, fetched with `npm pack` into `folder`."""
    spec = f"{name}@{NPM_PACKAGES[name]}"
    subprocess.run(["npm", "pack", "--silent", "--pack-destination", str(folder), spec], check=True,
                   capture_output=True)
    return next(folder.glob("*.tgz"))


def _svg_cards(out: Path) -> None:
    with tempfile.TemporaryDirectory() as temp, tarfile.open(_npm_pack("svg-cards", Path(temp))) as tar:
        for code in CODES:
            rank = _RANK_WORDS.get(code[:-1], code[:-1])
            member = tar.extractfile(f"package/png/2x/{_SUIT_WORDS[code[-1]]}_{rank}.png")
            assert member is not None
            (out / f"{code}.png").write_bytes(member.read())
            _finish(out / f"{code}.png")


_LETELE_TO_SVG = r"""
const fs = require('fs');
let src = fs.readFileSync(process.argv[1], 'utf8');
src = src.replace(/^import .*$/mg, '').replace(/export \{([^}]*)\};?/, (m, names) =>
  'module.exports = {' + names.replace(/(\w+) as (\w+)/g, '$2: $1') + '};');
const esc = s => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
const attr = k => k === 'className' ? 'class' : k === 'xlinkHref' ? 'xlink:href'
  : /^(viewBox|preserveAspectRatio|patternUnits|gradientUnits|gradientTransform|patternTransform)$/.test(k) ? k
  : k.replace(/[A-Z]/g, c => '-' + c.toLowerCase());
const React = {createElement: (tag, props, ...kids) => {
  if (typeof tag === 'function') return tag(Object.assign({}, props, {children: kids}));
  const a = Object.entries(props || {}).filter(([k, v]) => v != null && k !== 'children' && !k.startsWith('aria'))
    .map(([k, v]) => ` ${attr(k)}="${esc(v)}"`).join('');
  return `<${tag}${a}>${kids.flat().filter(k => k != null).join('')}</${tag}>`;
}};
const m = {exports: {}};
new Function('React', '_extends', 'module', src)(React, Object.assign, m);
const out = {};
for (const [k, f] of Object.entries(m.exports)) out[k] = f({});
process.stdout.write(JSON.stringify(out));
"""


def _letele(out: Path) -> None:
    import json

    with tempfile.TemporaryDirectory() as temp:
        with tarfile.open(_npm_pack("@letele/playing-cards", Path(temp))) as tar:
            member = tar.extractfile("package/dist/index.esm.js")
            assert member is not None
            script = Path(temp) / "cards.js"
            script.write_bytes(member.read())
        svgs = json.loads(subprocess.run(["node", "-e", _LETELE_TO_SVG, str(script)], check=True,
                                         capture_output=True, text=True).stdout)
    for code in CODES:
        rank, suit = code[:-1], code[-1]
        name = suit + {"A": "a", "J": "j", "Q": "q", "K": "k"}.get(rank, rank)
        svg = svgs[name].replace("<svg", '<svg xmlns:xlink="http://www.w3.org/1999/xlink"', 1)
        target = out / f"{code}.png"
        _rsvg(io.BytesIO(svg.encode()).getvalue(), target, zoom=1.5 * CARD_WIDTH / 240)
        _finish(target)


FONT_FAMILIES = {
    "truetype/dejavu": "DejaVu (fonts-dejavu-core: Bitstream Vera licence, public-domain changes)",
    "truetype/liberation": "Liberation (fonts-liberation: SIL OFL 1.1)",
    "truetype/noto": "Noto Mono (fonts-noto-mono: SIL OFL 1.1)",
    "opentype/urw-base35": "URW base35 (fonts-urw-base35: AGPL-3 with a font exception)",
    "truetype/freefont": "GNU FreeFont (fonts-freefont-ttf: GPL-3+ with a font exception)",
    "opentype/linux-libertine": "Linux Libertine and Biolinum (fonts-linuxlibertine: GPL-2+ with a font exception, "
                                "and SIL OFL 1.1)",
    "opentype/ebgaramond": "EB Garamond (fonts-ebgaramond: SIL OFL 1.1)",
    "truetype/crosextra": "Caladea (fonts-crosextra-caladea: SIL OFL 1.1)"}
"""The installed fonts (folders under /usr/share/fonts) drawn decks take their indices from, and their licences:
each allows drawing with it. Those missing are skipped."""
FONTS = Path("/usr/share/fonts")
_SYMBOLS = ("D050000L", "StandardSymbolsPS")
"""Symbol fonts: their suits are drawn, but their letters are no letters."""
_SUIT_GLYPHS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}


def fonts() -> tuple[list[Path], list[Path]]:
    """The fonts that draw ranks, and the fonts that draw the four suits."""
    from PIL import ImageFont

    ranks, suits = [], []
    for family in FONT_FAMILIES:
        for path in sorted((FONTS / family).glob("*.[ot]tf")):
            if "Math" in path.name or "ExtraLight" in path.name:
                continue
            if not path.stem.startswith(_SYMBOLS):
                ranks.append(path)
            font = ImageFont.truetype(str(path), 40)
            missing = font.getmask("\U000f0000").size
            if all(font.getmask(glyph).size not in (missing, (0, 0)) for glyph in _SUIT_GLYPHS.values()):
                suits.append(path)
    return ranks, suits


def _shape_suit(suit: str, size: int, rng: np.random.Generator) -> NDArray[np.uint8]:
    """A suit drawn as simple shapes (size x size, 255 inked), its proportions a little different each time."""
    import cv2

    s = size * 4  # drawn large, then scaled down: smooth edges
    mask = np.zeros((s, s), np.uint8)
    r = int(s * rng.uniform(0.2, 0.27))
    c = s // 2
    if suit == "D":
        half = int(s * rng.uniform(0.3, 0.42))
        cv2.fillPoly(mask, [np.array([[c, 0], [c + half, c], [c, s - 1], [c - half, c]])], 255)
    elif suit in "HS":
        top = int(s * 0.32)
        cv2.circle(mask, (c - r + 2, top), r, 255, -1)
        cv2.circle(mask, (c + r - 2, top), r, 255, -1)
        tip = int(s * rng.uniform(0.8, 0.95))
        cv2.fillPoly(mask, [np.array([[c - 2 * r + 3, top + r // 3], [c + 2 * r - 3, top + r // 3], [c, tip]])], 255)
        if suit == "S":
            mask = mask[::-1].copy()
            cv2.fillPoly(mask, [np.array([[c, int(s * 0.55)], [c - r, s - 1], [c + r, s - 1]])], 255)
    else:
        for dx, dy in ((0, -0.9), (-1, 0.3), (1, 0.3)):
            cv2.circle(mask, (c + int(dx * r * 1.05), int(s * 0.42 + dy * r)), r, 255, -1)
        cv2.fillPoly(mask, [np.array([[c, int(s * 0.5)], [c - r, s - 1], [c + r, s - 1]])], 255)
    out: NDArray[np.uint8] = cv2.resize(mask, (size, size), interpolation=cv2.INTER_AREA)
    return out


def _glyph(text: str, font: Any, stroke: int) -> NDArray[np.uint8]:
    """Text drawn in a font, cropped to its ink (255 inked)."""
    from PIL import Image, ImageDraw

    left, top, right, bottom = font.getbbox(text, stroke_width=stroke)
    image = Image.new("L", (right - left + 4, bottom - top + 4), 0)
    ImageDraw.Draw(image).text((2 - left, 2 - top), text, fill=255, font=font, stroke_width=stroke, stroke_fill=255)
    ink = np.asarray(image)
    rows, cols = np.nonzero(ink > 40)
    if not len(rows):
        return ink
    cropped: NDArray[np.uint8] = ink[rows.min():rows.max() + 1, cols.min():cols.max() + 1]
    return cropped


def _fit(ink: NDArray[np.uint8], height: int, width_scale: float = 1.0) -> NDArray[np.uint8]:
    import cv2

    h, w = ink.shape
    scaled: NDArray[np.uint8] = cv2.resize(ink, (max(1, round(w * height / h * width_scale)), height),
                                           interpolation=cv2.INTER_AREA)
    return scaled


_PIPS: dict[int, list[tuple[float, float]]] = {
    1: [(0.5, 0.5)], 2: [(0.5, 0.1), (0.5, 0.9)], 3: [(0.5, 0.1), (0.5, 0.5), (0.5, 0.9)],
    4: [(0, 0.1), (1, 0.1), (0, 0.9), (1, 0.9)], 5: [(0, 0.1), (1, 0.1), (0.5, 0.5), (0, 0.9), (1, 0.9)],
    6: [(0, 0.1), (1, 0.1), (0, 0.5), (1, 0.5), (0, 0.9), (1, 0.9)],
    7: [(0, 0.1), (1, 0.1), (0.5, 0.3), (0, 0.5), (1, 0.5), (0, 0.9), (1, 0.9)],
    8: [(0, 0.1), (1, 0.1), (0.5, 0.3), (0, 0.5), (1, 0.5), (0.5, 0.7), (0, 0.9), (1, 0.9)],
    9: [(0, 0.1), (1, 0.1), (0, 0.37), (1, 0.37), (0.5, 0.5), (0, 0.63), (1, 0.63), (0, 0.9), (1, 0.9)],
    10: [(0, 0.1), (1, 0.1), (0.5, 0.25), (0, 0.37), (1, 0.37), (0, 0.63), (1, 0.63), (0.5, 0.75), (0, 0.9),
         (1, 0.9)]}
"""Where a number card's pips lie in its middle (fractions of the pip area)."""


def font_deck(rng: np.random.Generator, rank_fonts: list[Path], suit_fonts: list[Path]) -> tuple[
        dict[str, NDArray[np.uint8]], tuple[bool, bool]]:
    """A deck drawn here (BGRA, CARD_WIDTH wide), its look chosen at random: the font, size, weight, spacing and
    colours of its index, its suit symbols (a font's, or shapes), a border, pips and pictures in the middle.
    Returns its cards and which corner pairs hold an index (as train.Design.index_corners)."""
    import cv2
    from PIL import ImageFont

    width, height = CARD_WIDTH, round(CARD_WIDTH * rng.uniform(1.36, 1.45))
    font_path = rank_fonts[int(rng.integers(len(rank_fonts)))]
    suit_path = suit_fonts[int(rng.integers(len(suit_fonts)))] if rng.random() < 0.6 else None
    rank_h = int(rng.uniform(0.08, 0.22) * width)
    suit_h = int(rank_h * rng.uniform(0.6, 1.0))
    font = ImageFont.truetype(str(font_path), rank_h * 2)
    stroke = int(rng.choice([0, 0, 0, 1, 2]))
    squeeze = rng.uniform(0.4, 1.1)  # the rank's width: very narrow (svg-cards' 8) to wide
    ten = rng.choice(["plain", "narrow", "tight"])
    centre_x = rng.uniform(0.045, 0.13) * width
    top = rng.uniform(0.02, 0.08) * height
    gap = rng.uniform(-0.05, 0.25) * rank_h
    beside = rng.random() < 0.15  # the suit to the right of the rank, lower down (as tigullio's is)
    paper = np.array([rng.uniform(215, 255), rng.uniform(230, 255), rng.uniform(235, 255)], np.float32)
    if rng.random() < 0.2:  # tinted card stock (parchment, grey), shaded across the card
        paper = np.array([rng.uniform(150, 225), rng.uniform(180, 240), rng.uniform(200, 250)], np.float32)
    shading = 1 - rng.uniform(0, 0.15) * np.linspace(0, 1, height, dtype=np.float32)[:, None, None] * (
        rng.random() < 0.3)
    red = np.array([rng.uniform(0, 70), rng.uniform(0, 50), rng.uniform(150, 240)], np.float32)
    black = np.full(3, rng.uniform(0, 60), np.float32) + rng.uniform(0, 25, 3).astype(np.float32)
    border = rng.random() < 0.35
    border_colour = rng.uniform(0, 200, 3).astype(np.float32)
    inset = int(rng.uniform(0.02, 0.06) * width)
    radius = int(rng.uniform(0.04, 0.09) * width)
    four = rng.random() < 0.2
    upright = not four and rng.random() < 0.15  # the opposite index not turned: the suit above the rank, upright
    pip_h = int(rng.uniform(0.12, 0.24) * width)
    pips_x, pips_y = rng.uniform(0.2, 0.32) * width, rng.uniform(0.1, 0.2) * height  # close to the index in some
    panel_x, panel_y = int(rng.uniform(0.1, 0.25) * width), int(rng.uniform(0.06, 0.16) * height)
    frame_colour = rng.uniform(0, 200, 3).astype(np.float32) if rng.random() < 0.5 else None
    frame_width = int(rng.integers(1, 4))
    court_pip = int(rng.uniform(0.1, 0.2) * width) if rng.random() < 0.6 else 0
    suits = {}
    for suit in "CDHS":
        if suit_path is not None:
            suit_font = ImageFont.truetype(str(suit_path), suit_h * 3)
            suits[suit] = _glyph(_SUIT_GLYPHS[suit], suit_font, 0)
        else:
            suits[suit] = _shape_suit(suit, suit_h * 3, rng)
    cards = {}
    for code in CODES:
        rank, suit = code[:-1], code[-1]
        colour = red if suit in "DH" else black
        card = np.ones((height, width, 3), np.float32) * paper * shading
        if border:
            cv2.rectangle(card, (inset, inset), (width - inset, height - inset), border_colour.tolist(),
                          int(rng.integers(1, 3)))
        if rank == "10" and ten == "tight":
            one, zero = _fit(_glyph("1", font, stroke), rank_h, squeeze), _fit(_glyph("0", font, stroke), rank_h,
                                                                                squeeze * 0.85)
            rank_ink = np.zeros((rank_h, one.shape[1] + zero.shape[1]), np.uint8)
            rank_ink[:, :one.shape[1]] = one
            rank_ink[:, -zero.shape[1]:] = np.maximum(rank_ink[:, -zero.shape[1]:], zero)
        else:
            rank_ink = _fit(_glyph(rank, font, stroke), rank_h, squeeze * (0.65 if rank == "10" and ten == "narrow"
                                                                           else 1.0))
        suit_ink = _fit(suits[suit], suit_h)
        index = np.zeros((height, width), np.uint8)
        turn = not upright  # an upright 6 seen upside down looks a 9: its suit, upside down, tells them apart
        rank_left = max(centre_x - rank_ink.shape[1] / 2, 0.015 * width)  # centred, clear of the card's edge
        suit_at = ((rank_left + rank_ink.shape[1] + gap, top + rank_h * 0.45 + gap) if beside
                   else (max(centre_x - suit_ink.shape[1] / 2, 0.015 * width), top + rank_h + gap))
        for ink, (x, y) in ((rank_ink, (rank_left, top)), (suit_ink, suit_at)):
            left = int(x)
            _paint_ink(index, ink, left, int(y))
            if four:  # top right too, the glyphs as they are
                _paint_ink(index, ink, width - left - ink.shape[1], int(y))
            if not turn:
                _paint_ink(index, ink, width - left - ink.shape[1], int(height - y - ink.shape[0]))
        middle = np.zeros((height, width), np.uint8)
        pip = _fit(suits[suit], pip_h)
        if rank in ("J", "Q", "K"):  # a court card's picture: a framed panel of coloured shapes
            x0, y0 = panel_x, panel_y
            panel = card[y0:height - y0, x0:width - x0]
            outline = rng.random() < 0.6  # drawn in black outlines and strokes, as most decks' pictures are
            for _ in range(int(rng.integers(8, 20))):
                shade = rng.uniform(0, 255, 3)
                centre = (int(rng.uniform(0, panel.shape[1])), int(rng.uniform(0, panel.shape[0])))
                axes = (int(rng.uniform(5, 40)), int(rng.uniform(5, 60)))
                angle = rng.uniform(0, 180)
                cv2.ellipse(panel, centre, axes, angle, 0, 360, shade.tolist(), -1)
                if outline:
                    cv2.ellipse(panel, centre, axes, angle, 0, 360, (black * 0.5).tolist(), int(rng.integers(1, 3)))
            for _ in range(int(rng.integers(0, 30)) if outline else 0):
                points = np.cumsum(rng.normal(0, 8, (5, 2)), axis=0) + rng.uniform(0, 1, 2) * panel.shape[1::-1]
                cv2.polylines(panel, [points.astype(np.int32)], False, (black * 0.5).tolist(), 1, cv2.LINE_AA)
            cv2.rectangle(card, (x0, y0), (width - x0, height - y0),
                          (colour if frame_colour is None else frame_colour).tolist(), frame_width)
            if court_pip:  # a suit pip in the picture's corner, beside the index, as many decks have
                big = _fit(suits[suit], court_pip)
                _paint_ink(middle, big, x0 + 3, y0 + 3)
                _paint_ink(middle, big[::-1, ::-1], width - x0 - 3 - big.shape[1], height - y0 - 3 - big.shape[0])
        else:
            count = 1 if rank == "A" else int(rank)
            area_x0, area_x1 = pips_x, width - pips_x
            area_y0, area_y1 = pips_y, height - pips_y
            big = _fit(suits[suit], int(pip_h * 2.2)) if rank == "A" else pip
            for fx, fy in _PIPS[count]:
                x, y = area_x0 + fx * (area_x1 - area_x0), area_y0 + fy * (area_y1 - area_y0)
                shown = big[::-1, ::-1] if fy > 0.5 and turn else big  # upside down below, unless all upright
                _paint_ink(middle, shown, int(x - big.shape[1] / 2), int(y - big.shape[0] / 2))
        # the index is repeated at the opposite corner, turned half round (upright in some decks)
        index = np.maximum(index, index[::-1, ::-1]) if turn else index
        ink = np.maximum(index, middle).astype(np.float32)[..., None] / 255
        card = card * (1 - ink) + colour * ink
        alpha = np.full((height, width), 255, np.uint8)
        corner = np.zeros((radius * 2, radius * 2), np.uint8)
        cv2.circle(corner, (radius, radius), radius, 255, -1)
        for flip_y, flip_x in ((False, False), (False, True), (True, False), (True, True)):
            view = alpha[::-1] if flip_y else alpha
            view = view[:, ::-1] if flip_x else view
            view[:radius, :radius] = corner[:radius, :radius]
        cards[code] = np.dstack([np.clip(card, 0, 255).astype(np.uint8), alpha])
    return cards, (True, four)


def _paint_ink(mask: NDArray[np.uint8], ink: NDArray[np.uint8], x: int, y: int) -> None:
    h, w = ink.shape
    y0, x0, y1, x1 = max(y, 0), max(x, 0), min(y + h, mask.shape[0]), min(x + w, mask.shape[1])
    if y1 > y0 and x1 > x0:
        mask[y0:y1, x0:x1] = np.maximum(mask[y0:y1, x0:x1], ink[y0 - y:y1 - y, x0 - x:x1 - x])
