"""Training the index reader, and measuring it honestly: `python -m companion.vision.train` (or
`crib recognize --train`).

1. Every licensed design is rendered (companion/vision/render.py; cached).
2. Each design's index corners are found from its renders (most decks have an index top left and bottom right;
   some top right and bottom left; some all four): the corners whose ink changes from card to card.
3. Designs are split into folds. For each fold the network is trained on the other designs' rectified views
   (synth.card_view: photographic faults and the small errors of finding a card), then measured on whole
   photographs (synth.scene) of the fold's designs, read end to end by the Recognizer: right, wrong, wrong and
   sure, no card; and again after teaching each held-out deck from one photograph of each card.
4. The `sure` thresholds are the lowest confidences at which the held-out readings were wrong at most
   SURE_WRONG of the time; the shipped model is then trained on all designs and saved with them.

The figures go to a JSON file (docs/vision.md shows them); a progress line goes to stderr.
"""

from __future__ import annotations

import argparse
import functools
import itertools
import json
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from companion.vision.find import CARD_H, CARD_W
from companion.vision.index import CODES, MODEL, NO_INDEX, RANKS, SUITS, IndexNet, card_features, corner
from companion.vision.reader import Recognizer, learn

if TYPE_CHECKING:
    from numpy.typing import NDArray

SURE_WRONG = 0.001
"""At most this share of readings may be wrong and sure (the goal is 0.2 %; calibrated to half of it)."""
FIGURES = Path(__file__).with_name("figures.json")
KEPT_OUT = "letele"
"""The design the shipped model is not trained on: tests/vision's photographs are of it (CC0, so they may ship)."""
HIDDEN = 256


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
          progress: Callable[[int, int], None]) -> tuple[NDArray[np.float32], NDArray[np.int64], NDArray[np.int64]]:
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
    return (np.concatenate(feats).astype(np.float32), np.array(ranks, np.int64), np.array(suits, np.int64))


def fit(feats: NDArray[np.float32], ranks: NDArray[np.int64], suits: NDArray[np.int64], seed: int,
        epochs: int = 40) -> IndexNet:
    """A network of one hidden layer trained by Adam on both heads' cross-entropy (the suit only where there is
    an index), with dropout on the hidden layer."""
    rng = np.random.default_rng(seed)
    mean = feats.mean(axis=0)
    scale = feats.std(axis=0) + 1e-3
    x_all = (feats - mean) / scale
    n_rank, n_suit = NO_INDEX + 1, len(SUITS)
    params = {
        "w1": rng.normal(0, np.sqrt(2 / x_all.shape[1]), (x_all.shape[1], HIDDEN)).astype(np.float32),
        "b1": np.zeros(HIDDEN, np.float32),
        "w2": rng.normal(0, np.sqrt(1 / HIDDEN), (HIDDEN, n_rank + n_suit)).astype(np.float32),
        "b2": np.zeros(n_rank + n_suit, np.float32),
    }
    moments = {k: (np.zeros_like(v), np.zeros_like(v)) for k, v in params.items()}
    step, batch, rate = 0, 256, 2e-3
    for epoch in range(epochs):
        order = rng.permutation(len(x_all))
        for start in range(0, len(order), batch):
            idx = order[start:start + batch]
            x, yr, ys = x_all[idx], ranks[idx], suits[idx]
            x = x + rng.normal(0, 0.1, x.shape).astype(np.float32)
            h_pre = x @ params["w1"] + params["b1"]
            h = np.maximum(h_pre, 0)
            keep = (rng.random(h.shape) > 0.3).astype(np.float32) / 0.7
            hd = h * keep
            logits = hd @ params["w2"] + params["b2"]
            grad_logits = np.zeros_like(logits)
            pr = _softmax(logits[:, :n_rank])
            pr[np.arange(len(idx)), yr] -= 1
            grad_logits[:, :n_rank] = pr / len(idx)
            has_suit = ys >= 0
            ps = _softmax(logits[:, n_rank:])
            ps[np.arange(len(idx))[has_suit], ys[has_suit]] -= 1
            ps[~has_suit] = 0
            grad_logits[:, n_rank:] = ps / len(idx)
            grads = {"w2": hd.T @ grad_logits, "b2": grad_logits.sum(axis=0)}
            grad_h = (grad_logits @ params["w2"].T) * keep * (h_pre > 0)
            grads["w1"] = x.T @ grad_h + 1e-4 * params["w1"]
            grads["b1"] = grad_h.sum(axis=0)
            step += 1
            lr = rate * (0.5 * (1 + np.cos(np.pi * epoch / epochs)))
            for k, g in grads.items():
                m, v = moments[k]
                m *= 0.9
                m += 0.1 * g
                v *= 0.999
                v += 0.001 * g * g
                params[k] -= lr * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)
    return IndexNet(mean.astype(np.float32), scale.astype(np.float32), params["w1"], params["b1"], params["w2"],
                    params["b2"], sure=1.0, sure_taught=1.0)


def _softmax(logits: NDArray[np.float32]) -> NDArray[np.float32]:
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    out: NDArray[np.float32] = e / e.sum(axis=1, keepdims=True)
    return out


@dataclass
class Readings:
    """What reading a held-out design's photographs gave: per photograph the truth, the code read (None: no
    card) and its confidence."""

    truth: list[str]
    code: list[str | None]
    confidence: list[float]

    def accuracy(self) -> float:
        return sum(t == c for t, c in zip(self.truth, self.code, strict=True)) / len(self.truth)

    def wrong_sure(self, threshold: float) -> float:
        return sum(c is not None and t != c and p >= threshold
                   for t, c, p in zip(self.truth, self.code, self.confidence, strict=True)) / len(self.truth)

    def sure_share(self, threshold: float) -> float:
        return sum(c is not None and p >= threshold for c, p in zip(self.code, self.confidence, strict=True)) / len(
            self.truth)


def measure(net: IndexNet, design: Design, photos_per_card: int, seed: int,
            progress: Callable[[], None]) -> tuple[Readings, Readings]:
    """Read whole photographs of each card of a held-out design (with a neighbouring card of another design in
    some), before and after teaching the design from one photograph of each card."""
    import cv2

    from companion.vision.find import find_cards
    from companion.vision.synth import scene

    rng = np.random.default_rng(seed)
    with tempfile.TemporaryDirectory() as temp:
        photos = {}
        for code in CODES:
            for _ in range(100):  # the teaching walk asks again for a photograph in which it finds no card
                frame, _ = scene(rng, [design.cards[code]], careful=True)
                if find_cards(frame):
                    break
            photos[code] = Path(temp) / f"{code}.jpg"
            cv2.imwrite(str(photos[code]), frame)
        learn(photos, Path(temp) / "deck")
        untaught, taught = Recognizer(net), Recognizer.load_with(net, Path(temp) / "deck")
    plain, learned = Readings([], [], []), Readings([], [], [])
    for code in CODES:
        for _ in range(photos_per_card):
            others = [design.cards[c] for c in rng.choice(CODES, int(rng.integers(0, 2)))]
            frame, _ = scene(rng, [design.cards[code], *others])
            for recognizer, readings in ((untaught, plain), (taught, learned)):
                found = recognizer.read(frame)
                readings.truth.append(code)
                readings.code.append(found[0].code if found else None)
                readings.confidence.append(found[0].confidence if found else 0.0)
            progress()
    return plain, learned


def pool(readings: Sequence[Readings]) -> Readings:
    return Readings([t for r in readings for t in r.truth], [c for r in readings for c in r.code],
                    [p for r in readings for p in r.confidence])


def calibrate(readings: Sequence[Readings]) -> float:
    """The lowest threshold at which the pooled readings are wrong and sure at most SURE_WRONG of the time."""
    pooled = pool(readings)
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
            if len(corners) == 1 + len(neighbours) and len(find_cards(frame)) == len(corners):
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
    """The shipped model read on the designs it never saw (figures["kept_out"])."""
    figures = json.loads(figures_path.read_text()) if figures_path.is_file() else {}
    figures["kept_out"] = {}
    for design in designs:
        counter = itertools.count(1)

        def tick(name: str = design.name, counter: Iterator[int] = counter) -> None:
            progress(f"reading {name}", next(counter), len(CODES) * photos)

        plain, taught = measure(net, design, photos, seed=200, progress=tick)
        figures["kept_out"][design.name] = _figures(plain, taught, net.sure, net.sure_taught)
        progress.line(f"{design.name:24} {figures['kept_out'][design.name]}")
    figures_path.write_text(json.dumps(figures, indent=1) + "\n")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion.vision.train", description=__doc__.split("\n\n")[0])
    parser.add_argument("--folds", type=int, default=3, help="groups of designs left out in turn (0: none)")
    parser.add_argument("--views", type=int, default=4, help="training views of each card of each design")
    parser.add_argument("--photos", type=int, default=1, help="held-out photographs of each card")
    parser.add_argument("--epochs", type=int, default=25)
    parser.add_argument("--out", type=Path, default=MODEL, help="where to write the model")
    parser.add_argument("--figures", type=Path, default=FIGURES, help="where to write the figures (JSON)")
    parser.add_argument("--designs", help="only these designs (comma-separated), for a quick try")
    parser.add_argument("--keep-out", default=KEPT_OUT, help="designs the shipped model never sees (comma-separated): "
                        "the test photographs are of them")
    parser.add_argument("--samples", type=Path, metavar="DIR", help="only write sample photographs of the kept-out "
                        "design into DIR (tests/vision/data and companion/vision/samples hold them)")
    parser.add_argument("--evaluate", action="store_true", help="only read photographs of the kept-out designs "
                        "with the model --out names, and add the figures to --figures")
    args = parser.parse_args(argv)
    progress = Progress()
    designs = load_designs(progress)
    if args.samples:
        write_samples(next(d for d in designs if d.name == args.keep_out.split(",")[0]), args.samples)
        return 0
    if args.evaluate:
        return evaluate(IndexNet.load(args.out), [d for d in designs if d.name in args.keep_out.split(",")],
                        args.photos, args.figures, progress)
    if args.designs:
        designs = [d for d in designs if d.name in args.designs.split(",")]
    progress.line("designs: " + ", ".join(f"{d.name} ({'TL' if d.index_corners[0] else ''}"
                                         f"{'TR' if d.index_corners[1] else ''})" for d in designs))
    figures: dict[str, Any] = {"designs": {}, "folds": args.folds, "views": args.views, "photos": args.photos}
    shipped = [d for d in designs if d.name not in args.keep_out.split(",")]
    data = views(shipped, args.views, seed=99, progress=functools.partial(progress, "shipped model: views"))
    progress(f"shipped model: training on {len(data[0])} corners")
    net = fit(*data, seed=99, epochs=args.epochs)
    net.save(args.out)  # sure from the held-out readings below; until then never
    figures["trained_on"] = [d.name for d in shipped]
    held: list[Readings] = []
    held_taught: list[Readings] = []
    for fold in range(args.folds):
        test = designs[fold::args.folds]
        train = [d for d in designs if d not in test]
        step = f"fold {fold + 1}/{args.folds}"
        data = views(train, args.views, seed=fold, progress=functools.partial(progress, f"{step}: views"))
        progress(f"{step}: training on {len(data[0])} corners")
        fold_net = fit(*data, seed=fold, epochs=args.epochs)
        for design in test:
            counter = itertools.count(1)

            def tick(what: str = f"{step}: reading {design.name}", counter: Iterator[int] = counter) -> None:
                progress(what, next(counter), len(CODES) * args.photos)

            plain, taught = measure(fold_net, design, args.photos, seed=100 + fold, progress=tick)
            held.append(plain)
            held_taught.append(taught)
            figures["designs"][design.name] = _figures(plain, taught, 1.0, 1.0)  # the thresholds come at the end
            progress.line(f"{design.name:24} right {plain.accuracy():.4f}, taught {taught.accuracy():.4f}")
            args.figures.write_text(json.dumps(figures, indent=1) + "\n")
    sure = calibrate(held) if held else 1.0
    sure_taught = calibrate(held_taught) if held_taught else 1.0
    for name, plain, taught in zip(figures["designs"], held, held_taught, strict=True):
        figures["designs"][name] = _figures(plain, taught, sure, sure_taught)
        progress.line(f"{name:24} {figures['designs'][name]}")
    if held:
        figures["all"] = _figures(pool(held), pool(held_taught), sure, sure_taught)
        progress.line(f"{'all held out':24} {figures['all']}")
    figures["sure"], figures["sure_taught"] = sure, sure_taught
    net = IndexNet(net.mean, net.scale, net.w1, net.b1, net.w2, net.b2, sure=sure, sure_taught=sure_taught)
    net.save(args.out)
    args.figures.write_text(json.dumps(figures, indent=1) + "\n")
    progress.line(f"model written to {args.out} ({args.out.stat().st_size // 1024} KB), figures to {args.figures}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
