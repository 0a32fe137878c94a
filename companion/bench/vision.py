"""The card reader (`crib bench --only vision`): how often it reads designs it was not trained on right, how
often it is wrong and sure, how long a 640x480 frame takes, and the memory it adds.

- held_out: per design, the training's measure (companion/vision/train.py, kept in companion/vision/figures.json
  beside the model): the designs in folds, each fold's network trained on the others and read end to end on
  photographs synthesised from the fold's renders; `right` with no deck taught, `right_taught` after teaching
  the design from one photograph of each card, `wrong_sure` the share read wrong and marked sure;
- read_p50_ms, read_p99_ms: reading the sample frames (640x480 photographs of a design the shipped model never
  saw), here, in a fresh process; read_cpu_*: the CPU time of the same reads (what a loaded machine does not
  change);
- reader_mb: the resident memory loading OpenCV and the model and reading adds to a process.
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
    times, cpu = [], []
    for _ in range(rounds):
        for frame in frames:
            start, start_cpu = time.perf_counter(), time.process_time()
            recognizer.read(frame)
            times.append((time.perf_counter() - start) * 1000)
            cpu.append((time.process_time() - start_cpu) * 1000)
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {"p50": statistics.median(times), "p99": _p99(times), "cpu_p50": statistics.median(cpu),
            "cpu_p99": _p99(cpu), "reads": len(times), "reader_mb": (after - before) / 1024}


def run(quick: bool) -> dict[str, Any]:
    from companion.vision.train import FIGURES

    result = subprocess.run([sys.executable, "-m", "companion.bench.vision", str(2 if quick else 20)],
                            capture_output=True, text=True, check=True)
    timing = json.loads(result.stdout)
    trained = json.loads(FIGURES.read_text()) if FIGURES.is_file() else {}
    return {
        "held_out": trained.get("designs", {}),
        "held_out_all": trained.get("all", {}),
        "sure_from": {"untaught": trained.get("sure"), "taught": trained.get("sure_taught")},
        "read_p50_ms": round(timing["p50"], 1),
        "read_p99_ms": round(timing["p99"], 1),
        "read_cpu_p50_ms": round(timing["cpu_p50"], 1),
        "read_cpu_p99_ms": round(timing["cpu_p99"], 1),
        "reads": timing["reads"],
        "reader_mb": round(timing["reader_mb"], 1),
    }


if __name__ == "__main__":
    print(json.dumps(measure(int(sys.argv[1]))))
