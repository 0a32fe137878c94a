"""The card reader (`crib bench --only vision`): how often it reads designs it was not trained on right, how
often it is wrong and sure, how long a 640x480 frame takes, and the memory it adds.

- held_out, kept_out: per design, the training's measure (companion/vision/train.py, kept in
  companion/vision/figures.json beside the model): held_out, the designs in folds, each fold's network trained
  on the others and read end to end on photographs synthesised from the fold's renders; kept_out, the shipped
  model on the design it never saw; `right` with no deck taught, `right_taught` after teaching the design from
  one photograph of each card, `wrong_sure` the share read wrong and marked sure; sure, the thresholds
  shipped, and calibrated, those the calibration found with what they gave;
- read_p50_ms, read_p99_ms: reading the sample frames (640x480 photographs of a design the shipped model never
  saw), here, in a fresh process; read_cpu_*: the CPU time of the same reads (what a loaded machine does not
  change); read_page_faults: the pages a read faults in (median; none once the allocator keeps what it freed);
- reader_mb: the resident memory loading OpenCV and the model and reading adds to a process;
- finding: per design rendered in the cache (companion/vision/render.py), on photographs synthesised from its
  renders (companion/vision/synth.py: a card whole in view, up to two neighbours, fingers, glare, every kind of
  table): found, the share of cards found with each corner within 5 % of the card's height of where it lies;
  false_cards, quadrilaterals found where no card lies (a pip, a picture, the table) per photograph;
  corner_error, the mean of the found cards' worst corner's distance, as a share of the card's height; and
  find_cpu_ms, the CPU time finding takes a frame (p50, p99). `python -m companion.bench.vision find N` prints
  it alone, N photographs a design.

`python -m companion.bench.vision taught N [DESIGN,...]` measures a taught deck (not part of `crib bench`: a
minute a design): each design taught (`learn`) from one careful photograph of each card, then N photographs of
each card (neighbours, fingers, glare) read; per design right, wrong_sure, sure and missed (no reading where the
card lies).
"""

from __future__ import annotations

import json
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

SAMPLES = Path(__file__).resolve().parent.parent / "vision" / "samples"


def _p99(samples: list[float]) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


def measure(rounds: int) -> dict[str, float]:
    """In this process: the reader loaded, each sample frame read `rounds` times; the times and the memory added."""
    import numpy as np  # the board has it loaded already

    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    import cv2

    from companion.vision import Recognizer

    recognizer = Recognizer.load()
    frames = [np.asarray(cv2.imread(str(path)), dtype=np.uint8) for path in sorted(SAMPLES.glob("*.jpg"))]
    recognizer.read(frames[0])  # the first read loads what reading needs
    times, cpu, faults = [], [], []
    for _ in range(rounds):
        for frame in frames:
            start, start_cpu = time.perf_counter(), time.process_time()
            start_faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
            recognizer.read(frame)
            times.append((time.perf_counter() - start) * 1000)
            cpu.append((time.process_time() - start_cpu) * 1000)
            faults.append(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - start_faults)
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {"p50": statistics.median(times), "p99": _p99(times), "cpu_p50": statistics.median(cpu),
            "cpu_p99": _p99(cpu), "reads": len(times), "page_faults": statistics.median(faults),
            "reader_mb": (after - before) / 1024}


def finding(photos: int, seed: int = 5) -> dict[str, Any]:
    """The finder on `photos` synthesised photographs of each design in the render cache (see the module's doc)."""
    import cv2
    import numpy as np

    from companion.vision.find import find_cards
    from companion.vision.index import CODES
    from companion.vision.synth import scene

    cv2.setNumThreads(1)
    designs: dict[str, dict[str, float]] = {}
    times: list[float] = []
    for number, (name, cards) in enumerate(_designs().items()):
        rng = np.random.default_rng(seed + number)
        found, false, errors = 0, 0, []
        for shown in range(photos):
            neighbours = [cards[code] for code in rng.choice(CODES, int(rng.integers(0, 3)))]
            frame, placed = scene(rng, [cards[CODES[shown % len(CODES)]], *neighbours])
            start = time.process_time()
            quads = find_cards(frame)
            times.append((time.process_time() - start) * 1000)
            height = float(np.linalg.norm(placed[0][0] - placed[0][3]))

            def error(quad: Any, card: Any, height: float = height) -> float:
                return min(float(np.abs(np.roll(quad, turn, axis=0) - card).max()) for turn in range(4)) / height

            best = min((error(quad, placed[0]) for quad in quads), default=1.0)
            if best <= 0.05:
                found += 1
                errors.append(best)
            false += sum(min(error(quad, card) for card in placed) > 0.05 for quad in quads)
        designs[name] = {"found": round(found / photos, 4), "false_cards": round(false / photos, 4),
                                "corner_error": round(float(np.mean(errors)) if errors else 1.0, 4)}
    shown_all = photos * max(1, len(designs))
    return {"photos_a_design": photos, "designs": designs,
            "found": round(sum(d["found"] for d in designs.values()) * photos / shown_all, 4),
            "false_cards": round(sum(d["false_cards"] for d in designs.values()) * photos / shown_all, 4),
            "find_cpu_p50_ms": round(statistics.median(times), 1) if times else None,
            "find_cpu_p99_ms": round(_p99(times), 1) if times else None}


def _designs(names: list[str] | None = None) -> dict[str, Any]:
    """The designs in the render cache (name -> each card's render, BGRA), or only those named."""
    import numpy as np
    from PIL import Image

    from companion.vision.index import CODES
    from companion.vision.render import cache_dir
    from companion.vision.synth import to_bgra

    found = {}
    for folder in sorted((cache_dir() / "renders").glob("*")):
        if (names is None or folder.name in names) and not (folder / "FAILED").exists() and all(
                (folder / f"{code}.png").is_file() for code in CODES):
            found[folder.name] = {code: to_bgra(np.asarray(Image.open(folder / f"{code}.png").convert("RGBA")))
                                  for code in CODES}
    return found


def taught(photos: int, names: list[str] | None = None, seed: int = 23) -> dict[str, dict[str, float]]:
    """A taught deck's readings per design (see the module's doc)."""
    import tempfile

    import cv2
    import numpy as np

    from companion.vision import Recognizer, learn
    from companion.vision.find import find_cards
    from companion.vision.index import CODES
    from companion.vision.synth import scene

    cv2.setNumThreads(1)
    figures = {}
    for number, (name, cards) in enumerate(_designs(names).items()):
        rng = np.random.default_rng(seed + number)
        with tempfile.TemporaryDirectory() as temp:
            taken = {}
            for code in CODES:
                frame, _ = scene(rng, [cards[code]], careful=True)
                while not find_cards(frame):  # taken again, as the teaching walk asks
                    frame, _ = scene(rng, [cards[code]], careful=True)
                taken[code] = Path(temp) / f"{code}.png"
                cv2.imwrite(str(taken[code]), frame)
            learn(taken, Path(temp) / "deck")
            recognizer = Recognizer.load(Path(temp) / "deck")
        right = wrong_sure = sure = missed = 0
        for code in CODES:
            for _ in range(photos):
                neighbours = [cards[other] for other in rng.choice(CODES, int(rng.integers(0, 2)))]
                frame, placed = scene(rng, [cards[code], *neighbours])
                (x0, y0), (x1, y1) = placed[0].min(axis=0), placed[0].max(axis=0)
                where = [r for r in recognizer.read(frame)
                         if abs(r.box[0] - x0) + abs(r.box[2] - x1) + abs(r.box[1] - y0) + abs(r.box[3] - y1)
                         < 0.2 * (x1 - x0 + y1 - y0)]
                if not where:
                    missed += 1
                    continue
                right += where[0].code == code
                sure += where[0].sure
                wrong_sure += where[0].sure and where[0].code != code
        shown = photos * len(CODES)
        figures[name] = {"photos": shown, "right": round(right / shown, 4), "wrong_sure": round(wrong_sure / shown, 4),
                         "sure": round(sure / shown, 4), "missed": round(missed / shown, 4)}
        print(f"{name:24} {figures[name]}", file=sys.stderr, flush=True)
    return figures


def run(quick: bool) -> dict[str, Any]:
    from companion.vision.train import FIGURES

    result = subprocess.run([sys.executable, "-m", "companion.bench.vision", str(2 if quick else 20)],
                            capture_output=True, text=True, check=True)
    timing = json.loads(result.stdout)
    trained = json.loads(FIGURES.read_text()) if FIGURES.is_file() else {}
    return {
        "held_out": trained.get("designs", {}),
        "kept_out": trained.get("kept_out", {}),
        "sure": {"untaught": trained.get("sure"), "taught": trained.get("sure_taught")},
        "calibrated": trained.get("calibrated", {}),
        "note": trained.get("note", ""),
        "read_p50_ms": round(timing["p50"], 1),
        "read_p99_ms": round(timing["p99"], 1),
        "read_cpu_p50_ms": round(timing["cpu_p50"], 1),
        "read_cpu_p99_ms": round(timing["cpu_p99"], 1),
        "reads": timing["reads"],
        "read_page_faults": timing["page_faults"],
        "reader_mb": round(timing["reader_mb"], 1),
        "finding": finding(10 if quick else 200),
    }


if __name__ == "__main__":
    if sys.argv[1] == "find":
        print(json.dumps(finding(int(sys.argv[2])), indent=1))
    elif sys.argv[1] == "taught":
        print(json.dumps(taught(int(sys.argv[2]), sys.argv[3].split(",") if len(sys.argv) > 3 else None), indent=1))
    else:
        print(json.dumps(measure(int(sys.argv[1]))))
