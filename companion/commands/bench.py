"""`crib bench`: speed figures as one JSON object, from every module in `companion.bench`."""

from __future__ import annotations

import argparse
import compileall
import importlib
import inspect
import json
import os
import pkgutil
import sys
import time
from collections.abc import Callable
from typing import Any

import companion
from companion import bench
from companion.commands import CommandError
from companion.i18n import _


def benchmarks() -> dict[str, Callable[..., object]]:
    """Every module in companion.bench that defines `run(quick: bool) -> dict`, by module name."""
    found: dict[str, Callable[..., object]] = {}
    for info in sorted(pkgutil.iter_modules(bench.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{bench.__name__}.{info.name}")
        if callable(getattr(module, "run", None)):
            found[info.name] = module.run
    return found


def as_installed() -> None:
    """The package's bytecode written, as pip leaves an installed board: the starts measured (`crib`, the daemon to
    READY) would otherwise compile every module they import from source, a quarter of the daemon's start here,
    whenever bytecode is not written (PYTHONDONTWRITEBYTECODE, a read-only checkout)."""
    compileall.compile_dir(os.path.dirname(companion.__file__), quiet=2)


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "bench", help=_("measure speed and strength, printed as JSON"),
        description=_("Run every benchmark in companion/bench and print one JSON object of figures, one key per "
        "benchmark. --quick makes each one short (a smoke test of the figures, not the figures themselves)."),
    )
    parser.add_argument("--quick", action="store_true", help=_("short runs"))
    parser.add_argument("--only", metavar="NAME", action="append", help=_("run only this benchmark (repeatable)"))
    parser.add_argument("--cpu-share", type=float, default=0.125, metavar="SHARE",
                        help=_("the pi benchmark's CPU quota, a share of one core (default: 0.125, a Pi Zero 2 W's "
                               "speed here; it needs root)"))
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    found = benchmarks()
    names = args.only or [name for name in found if name != "pi" or os.geteuid() == 0]  # pi makes a cgroup: root
    unknown = [n for n in names if n not in found]
    if unknown:
        raise CommandError(_("no benchmark {name!r}: choose from {names}").format(name=unknown[0],
                                                                                  names=", ".join(found)))
    as_installed()
    figures: dict[str, object] = {"quick": args.quick}  # each benchmark's figures under its name
    for name in names:
        print(f"bench {name} ...", file=sys.stderr, flush=True)
        start = time.perf_counter()
        takes_share = "cpu_share" in inspect.signature(found[name]).parameters
        figures[name] = found[name](args.quick, **({"cpu_share": args.cpu_share} if takes_share else {}))
        print(f"bench {name}: {time.perf_counter() - start:.1f} s", file=sys.stderr, flush=True)
    print(json.dumps(figures, indent=1))
    return 0
