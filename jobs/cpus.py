"""How many cores this process may use, which is how many parse processes an ingest starts.
`os.cpu_count()` counts the host's: a container allowed one CPU on a 32-core host would
start 32, each holding a parsed file, where its memory limit is sized for one or two."""

from __future__ import annotations

import math
import os
from pathlib import Path

CGROUPS = Path("/sys/fs/cgroup")


def usable_cpus(cgroups: Path = CGROUPS, membership: Path = Path("/proc/self/cgroup")) -> int:
    """The cores this process may run on (its affinity: `taskset`, cpusets), fewer when a
    control group's CPU quota allows less (a container's `--cpus`, a Kubernetes CPU limit,
    systemd's `CPUQuota=`): a quota of 1.5 CPUs is 2 processes."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    try:
        quotas = _quotas(cgroups, membership.read_text())
    except (OSError, ValueError):  # no control groups here, or none that can be read
        quotas = []
    return max(1, min([cores or 1, *quotas]))


def _quotas(cgroups: Path, membership: str) -> list[int]:
    """The CPU quota of each control group this process is in, and of those above it, in
    whole CPUs rounded up: cgroup v2's `cpu.max` ("max 100000" or "150000 100000"), v1's
    `cpu.cfs_quota_us` over `cpu.cfs_period_us` (-1: none)."""
    limits = []  # (quota, period) as written
    for line in membership.splitlines():
        _, controllers, group = line.split(":", 2)
        if controllers == "":  # v2: one hierarchy, every controller
            for folder in _folder_and_above(cgroups, group):
                quota, _, period = _read(folder / "cpu.max").partition(" ")
                limits.append((quota, period))
        elif "cpu" in controllers.split(","):
            for folder in _folder_and_above(cgroups / "cpu", group):
                quota, period = (_read(folder / f"cpu.cfs_{n}_us") for n in ("quota", "period"))
                limits.append((quota, period))
    return [
        math.ceil(int(quota) / int(period))
        for quota, period in limits
        if quota not in ("", "max") and int(quota) > 0
    ]


def _folder_and_above(root: Path, group: str) -> list[Path]:
    """The group's folder and those above it, up to the root, that exist. Inside a
    container the root may be the container's own group while the path still names it as
    the host sees it: the root alone is found then."""
    parts = [part for part in group.split("/") if part]
    folders = [root.joinpath(*parts[:depth]) for depth in range(len(parts), -1, -1)]
    return [folder for folder in folders if folder.is_dir()]


def _read(path: Path) -> str:
    try:
        return path.read_text().strip()
    except OSError:
        return ""
