"""`crib bench --only pi`: the CPU quota it measures the board in holds a process to its share of one core, and
what it cannot do (a share out of range, no root) it says."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from companion.base.usage import CommandError
from companion.bench import pi


def test_a_share_out_of_range_or_no_root_is_refused_with_what_to_do(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(CommandError, match=r"--cpu-share must be between 0.001 and 1 \(a share of one core; got 2"):
        pi.CpuQuota(2)
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    with pytest.raises(CommandError, match=r"crib bench --only pi makes a cgroup with a CPU quota: run it as root"):
        pi.CpuQuota(0.125)


@pytest.mark.skipif(os.geteuid() != 0, reason="a cgroup with a CPU quota needs root")
def test_a_process_in_the_quota_gets_its_share_of_one_core_evenly() -> None:
    with pi.CpuQuota(0.25) as quota:
        assert quota.period_us == 4000  # the quota handed out every 4 ms, not once per 100 ms
        got = subprocess.run([*quota.prefix, sys.executable, "-c", "from companion.bench.pi import busy_share; "
                              "import os; print(busy_share(0.5), os.sched_getaffinity(0))"],
                             capture_output=True, text=True, check=True).stdout.split(" ", 1)
        assert float(got[0]) < 0.3  # a busy loop gets no more than its share (less, on a loaded machine)
        assert got[1].strip() == str({quota.cpu})
        assert quota.path.exists()
    assert not quota.path.exists()  # the group goes with the run


def test_crib_bench_says_what_is_wrong_with_the_share_and_changes_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import main

    assert main(["bench", "--only", "pi", "--cpu-share", "0"]) == 2
    assert "--cpu-share must be between 0.001 and 1" in capsys.readouterr().err
