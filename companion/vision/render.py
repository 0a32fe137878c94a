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

from companion.vision.index import CODES

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
