"""Parse processes are sized by the cores this process may use: its affinity, and the CPU
quota of its control groups (cgroup v2 and v1, as laid out on a host and in a container)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from jobs.cpus import usable_cpus

CORES = len(os.sched_getaffinity(0))


def lay_out(root: Path, files: dict[str, str], membership: str) -> Path:
    root.mkdir(parents=True)
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text + "\n")
    (root / "membership").write_text(membership)
    return root / "membership"


def cpus(tmp_path: Path, files: dict[str, str], membership: str) -> int:
    return usable_cpus(tmp_path / "fs", lay_out(tmp_path / "fs", files, membership))


@pytest.mark.skipif(CORES < 2, reason="a quota below the cores needs two cores")
@pytest.mark.parametrize(
    ("cpu_max", "expected"),
    [("100000 100000", 1), ("50000 100000", 1), ("150000 100000", 2), ("max 100000", CORES)],
)
def test_a_cgroup_v2_quota_limits_the_count(tmp_path: Path, cpu_max: str, expected: int) -> None:
    """A container's own group (its namespace: the path is `/`)."""
    assert cpus(tmp_path, {"cpu.max": cpu_max}, "0::/\n") == min(expected, CORES)


@pytest.mark.skipif(CORES < 2, reason="a quota below the cores needs two cores")
def test_the_tightest_quota_of_a_group_and_those_above_it_counts(tmp_path: Path) -> None:
    """On a host: systemd's `CPUQuota=` on the unit, or a limit on the slice above it."""
    unit = "system.slice/paperbot.service"
    on_the_unit = {f"{unit}/cpu.max": "100000 100000", "system.slice/cpu.max": "max 100000"}
    on_the_slice = {f"{unit}/cpu.max": "max 100000", "system.slice/cpu.max": "80000 100000"}
    assert cpus(tmp_path / "a", on_the_unit, f"0::/{unit}\n") == 1
    assert cpus(tmp_path / "b", on_the_slice, f"0::/{unit}\n") == 1
    assert cpus(tmp_path / "c", on_the_slice, "0::/user.slice\n") == CORES  # not under it


@pytest.mark.skipif(CORES < 2, reason="a quota below the cores needs two cores")
def test_a_cgroup_v1_quota_limits_the_count_and_minus_one_is_none(tmp_path: Path) -> None:
    membership = "4:memory:/docker/abc\n3:cpu,cpuacct:/docker/abc\n0::/\n"
    limited = {"cpu/cpu.cfs_quota_us": "100000", "cpu/cpu.cfs_period_us": "100000"}
    unlimited = {"cpu/cpu.cfs_quota_us": "-1", "cpu/cpu.cfs_period_us": "100000"}
    # Inside the container: its group is the root, though the path names it as the host does.
    assert cpus(tmp_path / "a", limited, membership) == 1
    assert cpus(tmp_path / "b", unlimited, membership) == CORES


def test_no_control_groups_or_unreadable_ones_leave_the_cores(tmp_path: Path) -> None:
    assert usable_cpus(tmp_path / "none", tmp_path / "no-such-file") == CORES
    assert cpus(tmp_path / "a", {"cpu.max": "garbage"}, "0::/\n") == CORES
    assert cpus(tmp_path / "b", {}, "not a cgroup line\n") == CORES


def test_this_process_gets_at_least_one() -> None:
    assert 1 <= usable_cpus() <= CORES
