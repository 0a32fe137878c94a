"""Training the index reader, and measuring it honestly: `python -m companion.vision.train` (or
`crib recognize --train`). It needs PyTorch (the `train` extra), on the development machine only.

1. Every licensed design is rendered (companion/vision/render.py; cached), and decks are drawn from the
   installed fonts (render.font_deck: many looks of index, suit symbol, colour, border).
2. Each licensed design's index corners are found from its renders (most decks have an index top left and
   bottom right; some top right and bottom left; some all four): the corners whose ink changes from card to card.
3. Rectified views of every card are made once (synth.card_view: photographic faults and the small errors of
   finding a card), and their corners' features kept.
4. The licensed designs are split into folds. For each fold the network is trained on the other designs' views
   and the drawn decks', then measured on whole photographs (synth.scene) of the fold's designs, read end to end
   by the Recognizer: right, wrong, wrong and sure, no card; and again after teaching each held-out deck from
   one photograph of each card.
5. The `sure` thresholds are the lowest confidences at which the pooled held-out readings were wrong at most
   SURE_WRONG of the time; the shipped model is then trained on all licensed designs and the drawn decks, saved
   with them, and measured on the kept-out design (letele), which no network here ever learns from.
6. Each fold's network is kept (FOLDS): `--measure-only` reads the held-out designs again with them and the reader
   as it is now (a finder's or a matcher's change measured without training), and calibrates again.

The figures go to a JSON file (docs/vision.md shows them); a progress line goes to stderr.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import importlib.util
import itertools
import json
import multiprocessing
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from companion.vision.find import CARD_H, CARD_W
from companion.vision.index import (
    CHANNELS,
    CODES,
    CONVS,
    HIDDEN,
    MODEL,
    NO_INDEX,
    PATCH_H,
    PATCH_W,
    RANKS,
    SUITS,
    IndexNet,
    card_features,
    corner,
)
from companion.vision.reader import CardReading, Recognizer, TeachingPhoto, learn, teaching_photo
from companion.vision.render import cache_dir

if TYPE_CHECKING:
    from numpy.typing import NDArray

SURE_WRONG = 0.0
"""At most this share of the held-out readings may be wrong and sure: none (the goal allows 0.2 %; the last
training's model, calibrated to 0.1 %, read one letele card wrong and sure in 104)."""
FIGURES = Path(__file__).with_name("figures.json")
FOLDS = cache_dir() / "folds"
"""Where the training keeps each fold's network (fold-N.npz) and which designs it left out (folds.json), for
--measure-only."""
FOLDS_FILE = "folds.json"
RETAKES = 2
"""How many times more the measure's teaching walk takes a photo whose card's index reads another card (the page
asks: take it again, or keep it)."""
KEPT_OUT = "letele"
"""The design the shipped model is not trained on: tests/vision's photographs are of it (CC0, so they may ship)."""


@dataclass
class Design:
    name: str
    cards: dict[str, NDArray[np.uint8]]
    """Each card's render, BGRA."""
    index_corners: tuple[bool, bool]
    """Whether the top left (and bottom right) corner holds an index; whether the top right (and bottom left)."""


def load_designs(say: Callable[[str], None]) -> list[Design]:
    from PIL import Image

    from companion.vision.render import rendered
    from companion.vision.synth import to_bgra

    designs = []
    for name, folder in rendered(say).items():
        cards = {code: to_bgra(np.asarray(Image.open(folder / f"{code}.png").convert("RGBA"))) for code in CODES}
        designs.append(Design(name, cards, _index_corners(cards)))
    return designs


def _index_corners(cards: dict[str, NDArray[np.uint8]]) -> tuple[bool, bool]:
    """Which corner pairs of a design hold an index: those that differ between the four aces (an index shows the
    suit; a corner with only a border ornament or a pip-less margin does not change)."""
    import cv2

    spread = []
    for flip in (False, True):
        patches = []
        for code in ("AC", "AD", "AH", "AS"):
            card = cv2.resize(cards[code], (CARD_W, CARD_H), interpolation=cv2.INTER_AREA).astype(np.float32)
            alpha = card[:, :, 3:] / 255
            white = card[:, :, :3] * alpha + 255 * (1 - alpha)
            patches.append(corner(white[:, ::-1] if flip else white))
        spread.append(float(np.stack(patches).std(axis=0).mean()))
    best = max(spread)
    return spread[0] >= 0.35 * best, spread[1] >= 0.35 * best


def _corner_labels(design: Design, code: str) -> tuple[list[int], list[int]]:
    """The rank and suit labels of card_features' four corners (TL, TR, turned TL, turned TR); -1: no suit."""
    rank, suit = RANKS.index(code[:-1]), SUITS.index(code[-1])
    ranks, suits = [], []
    for has in (design.index_corners[0], design.index_corners[1]) * 2:
        ranks.append(rank if has else NO_INDEX)
        suits.append(suit if has else -1)
    return ranks, suits


def views(designs: Sequence[Design], per_card: int, seed: int,
          progress: Callable[[int, int], None]) -> tuple[NDArray[np.float16], NDArray[np.int64], NDArray[np.int64]]:
    """Features and labels of `per_card` rectified views of each card of each design, and of table patches
    (no index)."""
    from companion.vision.index import features
    from companion.vision.synth import card_view, table

    rng = np.random.default_rng(seed)
    feats, ranks, suits = [], [], []
    total = len(designs) * len(CODES) * per_card
    done = 0
    for design in designs:
        for code in CODES:
            labels = _corner_labels(design, code)
            for _ in range(per_card):
                turned = bool(rng.random() < 0.5)
                view = card_view(rng, design.cards[code], turned)
                feats.append(card_features(view))
                r, s = labels
                if turned:  # the card turned half round: its corners come in the other order
                    r, s = r[2:] + r[:2], s[2:] + s[:2]
                ranks += r
                suits += s
                done += 1
                if done % 50 == 0:
                    progress(done, total)
    for _ in range(total // 8):  # the table alone, anywhere a quadrilateral might be found
        patch = table(rng, 80, 56)
        feats.append(features(patch)[None])
        ranks.append(NO_INDEX)
        suits.append(-1)
    return (np.concatenate(feats).astype(np.float16), np.array(ranks, np.int64), np.array(suits, np.int64))


def fit(feats: NDArray[np.float16], ranks: NDArray[np.int64], suits: NDArray[np.int64], *, seed: int,
        epochs: int = 12, progress: Callable[[int, int], None] | None = None) -> IndexNet:
    """The convolutional network (index.IndexNet) trained with PyTorch (the `train` extra; the board reads with
    numpy alone) on both heads' cross-entropy (the suit only where there is an index), each batch's corners
    moved, scaled and turned a little and their contrast and redness changed; then taken out of PyTorch."""
    import torch
    from torch import nn

    torch.manual_seed(seed)
    torch.set_num_threads(1)  # a second thread waits on the first more than it helps, on a busy machine
    layers: list[nn.Module] = []
    width = CHANNELS
    shrink = 1
    for out, stride, pool in CONVS:
        layers += [nn.Conv2d(width, out, 3, stride=stride, padding=1, bias=False), nn.BatchNorm2d(out), nn.ReLU()]
        layers += [nn.MaxPool2d(2)] if pool else []
        width, shrink = out, shrink * stride * (2 if pool else 1)
    flat = width * (PATCH_H // shrink) * (PATCH_W // shrink)
    model = nn.Sequential(*layers, nn.Flatten(), nn.Linear(flat, HIDDEN), nn.ReLU(), nn.Dropout(0.3),
                          nn.Linear(HIDDEN, NO_INDEX + 1 + len(SUITS)))
    x_all = torch.from_numpy(feats.reshape(-1, CHANNELS, PATCH_H, PATCH_W))
    y_rank, y_suit = torch.from_numpy(ranks), torch.from_numpy(suits)
    batch = min(256, max(16, len(x_all) // 8))  # a few steps an epoch however few the corners
    steps = epochs * (len(x_all) // batch)
    optimiser = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=3e-3, total_steps=max(steps, 1))
    rank_loss, suit_loss = nn.CrossEntropyLoss(), nn.CrossEntropyLoss(ignore_index=-1)
    model.train()
    step = 0
    for _ in range(epochs):
        order = torch.randperm(len(x_all))
        for start in range(0, len(order) - batch + 1, batch):
            idx = order[start:start + batch]
            x = _jitter(x_all[idx].float())
            logits = model(x)
            loss = rank_loss(logits[:, :NO_INDEX + 1], y_rank[idx]) + suit_loss(logits[:, NO_INDEX + 1:], y_suit[idx])
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            step += 1
            if progress is not None and step % 20 == 0:
                progress(step, steps)
    model.eval()
    mean = feats.astype(np.float32).mean(axis=0)
    scale = feats.astype(np.float32).std(axis=0) + 0.05
    convs = []
    for conv, norm in zip([m for m in layers if isinstance(m, nn.Conv2d)],
                          [m for m in layers if isinstance(m, nn.BatchNorm2d)], strict=True):
        assert norm.running_var is not None and norm.running_mean is not None  # batch normalisation folded in
        gain = (norm.weight / torch.sqrt(norm.running_var + norm.eps)).detach()
        weights = conv.weight.detach() * gain[:, None, None, None]
        bias = norm.bias.detach() - norm.running_mean * gain
        convs.append((weights.numpy().astype(np.float32), bias.numpy().astype(np.float32)))
    hidden, head = model[-4], model[-1]
    assert isinstance(hidden, nn.Linear) and isinstance(head, nn.Linear)
    return IndexNet(mean, scale, tuple(convs), hidden.weight.detach().numpy().T.copy(),
                    hidden.bias.detach().numpy().copy(), head.weight.detach().numpy().T.copy(),
                    head.bias.detach().numpy().copy(), sure=1.0, sure_taught=1.0)


def _jitter(x: Any) -> Any:
    """A batch of corners (a tensor) each moved, scaled and turned a little, its ink's contrast and its redness
    changed: the same index cut out a little differently, in another light."""
    import torch
    import torch.nn.functional as func

    n = len(x)
    angle = (torch.rand(n) - 0.5) * 0.15
    zoom = 1 + (torch.rand(n) - 0.5) * 0.4
    theta = torch.zeros(n, 2, 3)
    theta[:, 0, 0], theta[:, 0, 1] = torch.cos(angle) * zoom, -torch.sin(angle) * zoom
    theta[:, 1, 0], theta[:, 1, 1] = torch.sin(angle) * zoom, torch.cos(angle) * zoom
    theta[:, :, 2] = (torch.rand(n, 2) - 0.5) * 0.12
    grid = func.affine_grid(theta, list(x.shape), align_corners=False)
    x = func.grid_sample(x, grid, align_corners=False, padding_mode="zeros")
    gain = torch.stack([torch.rand(n) * 0.6 + 0.7, torch.rand(n) * 1.0 + 0.5], dim=1)[:, :, None, None]
    return (x * gain).clamp(0, 1)


@dataclass
class Readings:
    """What reading a held-out design's photographs gave: per photograph the truth, the code read (None: no
    card), its confidence, and whether the reader's other rules let it be sure (corners that agree; with a taught
    deck, an index that reads no other card): whether it was sure at a threshold of 0."""

    truth: list[str]
    code: list[str | None]
    confidence: list[float]
    eligible: list[bool]

    def accuracy(self) -> float:
        return sum(t == c for t, c in zip(self.truth, self.code, strict=True)) / len(self.truth)

    def wrong_sure(self, threshold: float) -> float:
        return sum(c is not None and t != c and e and p >= threshold for t, c, p, e in zip(
            self.truth, self.code, self.confidence, self.eligible, strict=True)) / len(self.truth)

    def sure_share(self, threshold: float) -> float:
        return sum(c is not None and e and p >= threshold for c, p, e in zip(
            self.code, self.confidence, self.eligible, strict=True)) / len(self.truth)


def measure(net: IndexNet, design: Design, photos_per_card: int, seed: int,
            progress: Callable[[], None]) -> tuple[Readings, Readings]:
    """Read whole photographs of each card of a held-out design (with a neighbouring card of another design in
    some), before and after teaching the design from one photograph of each card, taken as the teaching walk
    takes it: again while no card is found in it, and again up to RETAKES times more when the card's index reads
    another card (the first kept when none reads right)."""
    import cv2

    from companion.vision.synth import scene

    rng = np.random.default_rng(seed)
    again = np.random.default_rng([seed, 1])  # the photographs taken again: those read after teaching stay the same
    with tempfile.TemporaryDirectory() as temp:
        photos = {}
        for code in CODES:
            frame, found = _careful(net, design.cards[code], rng)
            for _ in range(RETAKES if found is not None and not found.confirms(code) else 0):
                retaken, found = _careful(net, design.cards[code], again)
                if found is not None and found.confirms(code):
                    frame = retaken
                    break
            photos[code] = Path(temp) / f"{code}.png"  # lossless: teaching sees the frame in which a card was found
            cv2.imwrite(str(photos[code]), frame)
        learn(photos, Path(temp) / "deck", net=net)
        anything = net.with_thresholds(0.0, 0.0)  # a reading sure at 0 passes the reader's other rules
        untaught, taught = Recognizer(anything), Recognizer.load_with(anything, Path(temp) / "deck")
    plain, learned = Readings([], [], [], []), Readings([], [], [], [])
    for code in CODES:
        for _ in range(photos_per_card):
            others = [design.cards[c] for c in rng.choice(CODES, int(rng.integers(0, 2)))]
            frame, placed = scene(rng, [design.cards[code], *others])
            for recognizer, readings in ((untaught, plain), (taught, learned)):
                read = _at(recognizer.read(frame), placed[0])
                readings.truth.append(code)
                readings.code.append(read[0].code if read else None)
                readings.confidence.append(read[0].confidence if read else 0.0)
                readings.eligible.append(bool(read) and read[0].sure)
            progress()
    return plain, learned


def _careful(net: IndexNet, card: NDArray[np.uint8], rng: np.random.Generator) -> tuple[NDArray[np.uint8],
                                                                                     TeachingPhoto | None]:
    """A careful photograph of `card` to teach it from, and what the teaching walk makes of it: taken again while
    the walk finds no card in it (at most 100 times)."""
    from companion.vision.synth import scene

    for _ in range(100):
        frame, _ = scene(rng, [card], careful=True)
        found = teaching_photo(net, frame)
        if found is not None:
            break
    return frame, found


def _at(readings: list[CardReading], corners: NDArray[np.float32]) -> list[CardReading]:
    """The readings of the card whose corners are given, the likeliest first: those whose box covers the card's
    more than half of the two together (a neighbour's box may hold the card's centre: reading the neighbour right,
    the card unfound, is no misreading of the card, and was counted as one)."""
    x0, y0 = corners.min(axis=0)
    x1, y1 = corners.max(axis=0)

    def shared(reading: CardReading) -> float:
        a0, b0, a1, b1 = reading.box
        common = max(0.0, min(x1, a1) - max(x0, a0)) * max(0.0, min(y1, b1) - max(y0, b0))
        return float(common / ((x1 - x0) * (y1 - y0) + (a1 - a0) * (b1 - b0) - common))

    return sorted((r for r in readings if shared(r) > 0.5), key=lambda r: -shared(r))


def pool(readings: Sequence[Readings]) -> Readings:
    return Readings([t for r in readings for t in r.truth], [c for r in readings for c in r.code],
                    [p for r in readings for p in r.confidence], [e for r in readings for e in r.eligible])


def calibrate(readings: Sequence[Readings]) -> float:
    """The lowest threshold at which the pooled readings would be wrong and sure at most SURE_WRONG of the time
    were the reader's other rules not there: every wrong reading counts, even one whose corners disagreed (the
    wrong readings are few, and the confidence they reach is what the threshold must be above; calibrated on
    those the rules let be sure alone, the threshold fell to 0.8309 and a letele JH read JD at 0.8452, sure)."""
    pooled = pool(readings)
    pooled = Readings(pooled.truth, pooled.code, pooled.confidence, [True] * len(pooled.truth))
    for threshold in sorted({*pooled.confidence, 1.0}):  # each confidence read, as the threshold that makes it sure
        if threshold >= 0.5 and pooled.wrong_sure(threshold) <= SURE_WRONG:
            return threshold
    return 1.0


class Progress:
    """One line on stderr, rewritten: what is being done, how far, how long so far."""

    def __init__(self) -> None:
        self.start = time.monotonic()

    def __call__(self, what: str, done: int | None = None, total: int | None = None) -> None:
        count = f" {done}/{total}" if total else ""
        print(f"\r\x1b[K[{time.monotonic() - self.start:5.0f} s] {what}{count}", end="", file=sys.stderr, flush=True)

    def line(self, text: str) -> None:
        print(f"\r\x1b[K{text}", file=sys.stderr, flush=True)


SAMPLES = {"AS": (), "10H": (), "QC": ("4S",), "7D": ("KS",)}
"""The sample photographs written by --samples: a card of the kept-out design, and the neighbours beside it."""


def write_samples(design: Design, folder: Path, seed: int = 7) -> None:
    """Photographs of the kept-out design for the tests and the bench (CODE.jpg, or CODE+NEIGHBOUR.jpg), and a
    table with no card (table.jpg)."""
    import cv2

    from companion.vision.find import find_cards
    from companion.vision.synth import FRAME, scene, table

    rng = np.random.default_rng(seed)
    folder.mkdir(parents=True, exist_ok=True)
    for code, neighbours in SAMPLES.items():
        while True:  # a photograph whose cards are all whole in view
            frame, corners = scene(rng, [design.cards[c] for c in (code, *neighbours)])
            whole = all((c >= 0).all() and (c < [FRAME[1], FRAME[0]]).all() for c in corners)
            if whole and len(corners) == 1 + len(neighbours) and len(find_cards(frame)) == len(corners):
                break
        name = "+".join((code, *neighbours))
        cv2.imwrite(str(folder / f"{name}.jpg"), frame, [cv2.IMWRITE_JPEG_QUALITY, 80])
    cv2.imwrite(str(folder / "table.jpg"), table(rng, *FRAME), [cv2.IMWRITE_JPEG_QUALITY, 80])


def _figures(plain: Readings, taught: Readings, sure: float, sure_taught: float) -> dict[str, float]:
    return {"photos": len(plain.truth), "right": round(plain.accuracy(), 4),
            "wrong_sure": round(plain.wrong_sure(sure), 4), "sure": round(plain.sure_share(sure), 4),
            "right_taught": round(taught.accuracy(), 4), "wrong_sure_taught": round(taught.wrong_sure(sure_taught), 4),
            "sure_taught": round(taught.sure_share(sure_taught), 4)}


def evaluate(net: IndexNet, designs: Sequence[Design], photos: int, figures_path: Path, progress: Progress) -> int:
    """The shipped model, with its thresholds, read on the designs it never saw (figures["kept_out"])."""
    figures = json.loads(figures_path.read_text()) if figures_path.is_file() else {}
    figures["kept_out"] = {}
    for design in designs:
        counter = itertools.count(1)

        def tick(name: str = f"reading {design.name}", counter: Iterator[int] = counter) -> None:
            progress(name, next(counter), len(CODES) * photos)

        plain, taught = measure(net, design, photos, seed=200, progress=tick)
        figures["kept_out"][design.name] = _figures(plain, taught, net.sure, net.sure_taught)
        progress.line(f"{design.name:24} {figures['kept_out'][design.name]}")
    figures_path.write_text(json.dumps(figures, indent=1) + "\n")
    return 0


def drawn_designs(count: int, seed: int) -> list[Design]:
    """Decks drawn here from the installed fonts (render.font_deck), each with its own look."""
    from companion.vision.render import font_deck, fonts

    rank_fonts, suit_fonts = fonts()
    rng = np.random.default_rng(seed)
    return [Design(f"drawn-{n}", *font_deck(rng, rank_fonts, suit_fonts)) for n in range(count)]


Views = tuple["NDArray[np.float16]", "NDArray[np.int64]", "NDArray[np.int64]"]


def joined(parts: Sequence[Views]) -> Views:
    return (np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts]),
            np.concatenate([p[2] for p in parts]))


_SHARED: dict[str, Any] = {}
"""What `_forked`'s worker processes work on: inherited when they are forked, not copied to each."""


def _forked(work: Callable[..., Any], tasks: Sequence[tuple[Any, ...]], jobs: int, shared: dict[str, Any]) -> list[Any]:
    """`work` done on each task's arguments, `jobs` at a time, each in a forked process (of one thread: fit's)."""
    _SHARED.clear()
    _SHARED.update(shared)
    if jobs <= 1:
        return [work(*task) for task in tasks]
    with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("fork")) as pool:
        return list(pool.map(work, *zip(*tasks, strict=True)))


def fit_all(seen: dict[str, Views], nets: Sequence[tuple[str, frozenset[str], int]], *, epochs: int, jobs: int,
            progress: Progress) -> list[IndexNet]:
    """Each network of `nets` (its name, the designs whose views it leaves out, its seed) fitted on the other
    views, `jobs` at a time."""
    return _forked(_fit_leaving_out, [(*net, epochs, progress) for net in nets], jobs, {"seen": seen})


def _fit_leaving_out(name: str, left_out: frozenset[str], seed: int, epochs: int, progress: Progress) -> IndexNet:
    return fit(*joined([v for design, v in _SHARED["seen"].items() if design not in left_out]), seed=seed,
               epochs=epochs, progress=functools.partial(progress, f"{name}: training"))


def _measure_held_out(fold: int, name: str, net_path: Path, photos: int, progress: Progress) -> tuple[Readings,
                                                                                                     Readings]:
    counter = itertools.count(1)
    return measure(IndexNet.load(net_path), _SHARED["designs"][name], photos, seed=100 + fold,
                   progress=lambda: progress(f"fold {fold + 1}: reading {name}", next(counter), len(CODES) * photos))


def _fingerprint(net: IndexNet) -> str:
    """What tells one trained network from another (the fold networks belong to the shipped model trained with
    them)."""
    return hashlib.sha256(net.w2.astype(np.float16).tobytes()).hexdigest()[:16]


def measure_again(licensed: Sequence[Design], kept_out: Sequence[Design], args: argparse.Namespace,
                  progress: Progress) -> int:
    """--measure-only: the last training's figures measured again with the reader as it is now."""
    manifest_path = args.fold_dir / FOLDS_FILE
    if not manifest_path.is_file():
        progress.line(f"{args.fold_dir} holds no fold networks: train first (python -m companion.vision.train)")
        return 2
    manifest = json.loads(manifest_path.read_text())
    missing = sorted({name for names in manifest["folds"] for name in names} - {d.name for d in licensed})
    if manifest["model"] != _fingerprint(IndexNet.load(args.out)) or missing:
        progress.line(f"the fold networks in {args.fold_dir} are not of the training that made {args.out}"
                      + (f" (designs not rendered here: {', '.join(missing)})" if missing else "")
                      + ": train again (python -m companion.vision.train)")
        return 2
    figures = json.loads(args.figures.read_text()) if args.figures.is_file() else {}
    figures["photos"] = args.photos
    return measure_folds(licensed, kept_out, args, figures, progress)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion.vision.train", description=__doc__.split("\n\n")[0])
    parser.add_argument("--folds", type=int, default=3, help="groups of designs left out in turn (0: none)")
    parser.add_argument("--views", type=int, default=6, help="training views of each card of each licensed design")
    parser.add_argument("--drawn", type=int, default=200, help="decks drawn from fonts, one view of each card")
    parser.add_argument("--photos", type=int, default=2, help="held-out photographs of each card")
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--jobs", type=int, default=1, help="networks fitted, and held-out designs read, at once "
                        "(each in a forked process of one thread)")
    parser.add_argument("--out", type=Path, default=MODEL, help="where to write the model")
    parser.add_argument("--figures", type=Path, default=FIGURES, help="where to write the figures (JSON)")
    parser.add_argument("--designs", help="only these designs (comma-separated), for a quick try")
    parser.add_argument("--keep-out", default=KEPT_OUT, help="designs the shipped model never sees (comma-separated): "
                        "the test photographs are of them")
    parser.add_argument("--samples", type=Path, metavar="DIR", help="only write sample photographs of the kept-out "
                        "design into DIR (tests/vision/data and companion/vision/samples hold them)")
    parser.add_argument("--evaluate", action="store_true", help="only read photographs of the kept-out designs "
                        "with the model --out names, and add the figures to --figures")
    parser.add_argument("--fold-dir", type=Path, default=FOLDS, help="where each fold's network is kept")
    parser.add_argument("--measure-only", action="store_true", help="train nothing: read the held-out designs again "
                        "with the fold networks the last training kept (--fold-dir) and the reader as it is now, "
                        "calibrate the thresholds of the model --out names, and write the figures")
    args = parser.parse_args(argv)
    progress = Progress()
    designs = load_designs(progress)
    keep_out = args.keep_out.split(",")
    kept_out = [d for d in designs if d.name in keep_out]
    if args.samples:
        write_samples(kept_out[0], args.samples)
        return 0
    if args.evaluate:
        return evaluate(IndexNet.load(args.out), kept_out, args.photos, args.figures, progress)
    if args.measure_only:
        return measure_again([d for d in designs if d.name not in keep_out], kept_out, args, progress)
    if importlib.util.find_spec("torch") is None:
        progress.line("training needs PyTorch, the `train` extra: pip install -e '.[vision,train]'")
        return 2
    licensed = [d for d in designs if d.name not in keep_out]
    if args.designs:
        licensed = [d for d in licensed if d.name in args.designs.split(",")]
    progress.line("designs: " + ", ".join(f"{d.name} ({'TL' if d.index_corners[0] else ''}"
                                         f"{'TR' if d.index_corners[1] else ''})" for d in licensed))
    figures: dict[str, Any] = {"designs": {}, "folds": args.folds, "views": args.views, "drawn": args.drawn,
                               "photos": args.photos, "epochs": args.epochs}
    seen: dict[str, Views] = {}
    for n, design in enumerate(licensed):
        seen[design.name] = views([design], args.views, seed=n,
                                  progress=functools.partial(progress, f"views of {design.name}"))
    drawn = drawn_designs(args.drawn, seed=1000)
    seen["drawn"] = views(drawn, 1, seed=1001, progress=functools.partial(progress, "views of the drawn decks"))
    del drawn
    folds = [(f"fold {fold + 1}", frozenset(d.name for d in licensed[fold::args.folds]), fold)
             for fold in range(args.folds)]
    nets = fit_all(seen, [("shipped model", frozenset(), 99), *folds], epochs=args.epochs, jobs=args.jobs,
                   progress=progress)
    nets[0].save(args.out)  # never sure until the held-out readings below calibrate it
    shutil.rmtree(args.fold_dir, ignore_errors=True)  # another training's folds are not this model's
    args.fold_dir.mkdir(parents=True)
    for fold, fold_net in enumerate(nets[1:]):
        fold_net.save(args.fold_dir / f"fold-{fold + 1}.npz")
    (args.fold_dir / FOLDS_FILE).write_text(json.dumps(
        {"model": _fingerprint(IndexNet.load(args.out)), "folds": [[d.name for d in licensed[fold::args.folds]]
                                                                   for fold in range(args.folds)]}, indent=1) + "\n")
    figures["trained_on"] = [d.name for d in licensed]
    return measure_folds(licensed, kept_out, args, figures, progress)


def measure_folds(licensed: Sequence[Design], kept_out: Sequence[Design], args: argparse.Namespace,
                  figures: dict[str, Any], progress: Progress) -> int:
    """Read each fold's held-out designs with the fold's network (as saved in args.fold_dir) and the reader as
    it is now, calibrate the `sure` thresholds on those readings, give them to the shipped model (args.out), and
    read the kept-out designs with it; the figures go to args.figures."""
    manifest = json.loads((args.fold_dir / FOLDS_FILE).read_text())
    by_name = {d.name: d for d in licensed}
    tasks = [(fold, name, args.fold_dir / f"fold-{fold + 1}.npz", args.photos, progress)
             for fold, names in enumerate(manifest["folds"]) for name in names]
    results = _forked(_measure_held_out, tasks, args.jobs, {"designs": by_name})
    held, held_taught = [plain for plain, _ in results], [taught for _, taught in results]
    sure = calibrate(held) if held else 1.0
    sure_taught = calibrate(held_taught) if held_taught else 1.0
    figures["designs"] = {}
    for (_, name, *_), plain, taught in zip(tasks, held, held_taught, strict=True):
        figures["designs"][name] = _figures(plain, taught, sure, sure_taught)
        progress.line(f"{name:24} {figures['designs'][name]}")
    if held:
        figures["all"] = _figures(pool(held), pool(held_taught), sure, sure_taught)
        progress.line(f"{'all held out':24} {figures['all']}")
    figures["sure"], figures["sure_taught"] = sure, sure_taught
    net = IndexNet.load(args.out).with_thresholds(sure, sure_taught)
    net.save(args.out)
    args.figures.write_text(json.dumps(figures, indent=1) + "\n")
    evaluate(net, kept_out, args.photos, args.figures, progress)
    progress.line(f"model written to {args.out} ({args.out.stat().st_size // 1024} KB), figures to {args.figures}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
