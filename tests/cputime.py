"""`python -m pytest -p tests.cputime ...`: the processor time each test took, its child processes' included (a
browser test's Chromium, a `crib` it runs, espeak-ng), which `--durations` (wall time) cannot tell from waiting. At
the end the 25 costliest tests and the run's total. As root on cgroup v1 (this machine), each process of the run
(each xdist worker) counts in a cpuacct cgroup of its own, which its children join, those still running (the
session's Chromium) included; elsewhere the process's own time and that of the children it has waited for.
It measures the suite, not the board: `crib bench` does that."""

from __future__ import annotations

import contextlib
import os
import resource
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CPUACCT = Path("/sys/fs/cgroup/cpuacct")
SHOWN = 25
KEY = "cpu_seconds"


def _own_group() -> Path | None:
    """A cpuacct cgroup under this process's, holding this process (and the children it starts from now on)."""
    with contextlib.suppress(OSError, ValueError):
        for line in Path("/proc/self/cgroup").read_text(encoding="utf-8").splitlines():
            _, controllers, path = line.split(":", 2)
            if "cpuacct" in controllers.split(","):
                group = CPUACCT / path.lstrip("/") / f"pytest-{os.getpid()}"
                group.mkdir()
                (group / "cgroup.procs").write_text(str(os.getpid()))
                return group
    return None


class CpuTime:
    def __init__(self) -> None:
        self.group = _own_group()
        self.spent: dict[str, float] = {}
        self.started = 0.0

    def now(self) -> float:
        if self.group is not None:
            return int((self.group / "cpuacct.usage").read_text()) / 1e9
        own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime

    def pytest_runtest_logstart(self) -> None:
        self.started = self.now()

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(self, call: pytest.CallInfo[None]) -> Iterator[None]:
        """The teardown's report carries the test's time (from an xdist worker to the run's summary)."""
        report = (yield).get_result()  # type: ignore[attr-defined]
        if call.when == "teardown":
            report.user_properties.append((KEY, self.now() - self.started))

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.when == "teardown":
            self.spent[report.nodeid] = sum(value for key, value in report.user_properties if key == KEY)

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if not self.spent:
            return
        how = "child processes' in a cgroup" if self.group is not None else "only waited-for children's"
        terminalreporter.write_sep("=", f"the {SHOWN} costliest tests in processor time ({how})")
        for nodeid, seconds in sorted(self.spent.items(), key=lambda item: -item[1])[:SHOWN]:
            terminalreporter.write_line(f"{seconds:6.2f}s  {nodeid}")
        terminalreporter.write_line(f"{sum(self.spent.values()):6.1f}s  in {len(self.spent)} tests")

    def pytest_unconfigure(self) -> None:
        if self.group is not None:  # back to the parent group, so that this one (empty once Chromium is closed) goes
            with contextlib.suppress(OSError):
                (self.group.parent / "cgroup.procs").write_text(str(os.getpid()))
                self.group.rmdir()


def pytest_configure(config: pytest.Config) -> None:
    config.pluginmanager.register(CpuTime(), "cputime")
