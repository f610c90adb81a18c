"""The locks agree with pyproject.toml, and the environment the tests run in is the lock.

`make lock` writes requirements/dev.lock (runtime, test and build dependencies) and
requirements/runtime.lock (what the image installs). A dependency added to or removed from
pyproject.toml without `make lock`, or a range that no longer admits the pinned version,
fails here with one line naming the package.
"""

from __future__ import annotations

import importlib.metadata
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[2]
DEV_LOCK = ROOT / "requirements" / "dev.lock"
RUNTIME_LOCK = ROOT / "requirements" / "runtime.lock"
FROM_PYPROJECT = "paperbot (pyproject.toml)"  # uv's note on a direct dependency
ENTRY = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)\s*(?:;\s*([^\\]*?))?\s*\\?$")


@dataclass
class Pin:
    version: Version
    marker: str | None
    hashes: int = 0
    via: list[str] = field(default_factory=list)


def read_lock(text: str) -> dict[str, list[Pin]]:
    """Package name -> its pins (a universal lock may pin one name per platform)."""
    pins: dict[str, list[Pin]] = {}
    current: Pin | None = None
    for line in text.splitlines():
        stripped = line.strip()
        entry = ENTRY.match(line)
        if entry:
            current = Pin(Version(entry.group(2)), entry.group(3) or None)
            pins.setdefault(canonicalize_name(entry.group(1)), []).append(current)
        elif current and stripped.startswith("--hash=sha256:"):
            current.hashes += 1
        elif current and stripped.startswith("#") and stripped != "# via":
            current.via.append(stripped.removeprefix("#").strip().removeprefix("via").strip())
    return pins


def declared(pyproject: dict[str, Any], *, dev: bool) -> tuple[list[Requirement], set[str]]:
    """pyproject's requirements (runtime, plus [dev] if asked) and its build requirements."""
    project = pyproject["project"]
    lines = list(project["dependencies"])
    if dev:
        lines += project["optional-dependencies"]["dev"]
    build = [Requirement(r) for r in pyproject["build-system"]["requires"]]
    return [Requirement(r) for r in lines] + build, {canonicalize_name(r.name) for r in build}


def disagreements(pyproject: dict[str, Any], lock_text: str, *, dev: bool) -> list[str]:
    """Every way the lock and pyproject.toml disagree, one short phrase each."""
    pins = read_lock(lock_text)
    requirements, build = declared(pyproject, dev=dev)
    problems = []
    wanted = set()
    for requirement in requirements:
        name = canonicalize_name(requirement.name)
        wanted.add(name)
        if name not in pins:
            problems.append(f"{requirement.name} is not in the lock")
            continue
        for pin in pins[name]:
            if not requirement.specifier.contains(pin.version, prereleases=True):
                problems.append(f"{name}=={pin.version} is outside {requirement}")
    for locked, found in pins.items():
        for pin in found:
            direct = FROM_PYPROJECT in pin.via or (not pin.via and locked in build)
            if direct and locked not in wanted:
                problems.append(f"{locked} is locked but no longer in pyproject.toml")
            if not pin.via and locked not in build:
                problems.append(f"{locked} is locked for no dependency")
            if pin.hashes == 0:
                problems.append(f"{locked} has no hash")
    return problems


def pyproject() -> dict[str, Any]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def assert_agree(lock: Path, *, dev: bool) -> None:
    problems = disagreements(pyproject(), lock.read_text(), dev=dev)
    if problems:  # one line in CI's summary, no traceback
        pytest.fail(
            f"{lock.relative_to(ROOT)} does not match pyproject.toml: {'; '.join(problems)} "
            "(run `make lock`)",
            pytrace=False,
        )


def test_the_dev_lock_pins_every_dependency_within_its_range() -> None:
    assert_agree(DEV_LOCK, dev=True)


def test_the_runtime_lock_pins_every_runtime_dependency_as_the_dev_lock_does() -> None:
    assert_agree(RUNTIME_LOCK, dev=False)
    dev = read_lock(DEV_LOCK.read_text())
    runtime = read_lock(RUNTIME_LOCK.read_text())
    differ = sorted(
        name
        for name, pins in runtime.items()
        if {p.version for p in pins} != {p.version for p in dev.get(name, [])}
    )
    assert not differ, f"runtime.lock and dev.lock pin different versions of {differ}"
    assert "pytest" not in runtime  # the image gets no test tools


def test_the_environment_running_the_tests_is_the_lock() -> None:
    """`make install` installs from the lock, so what runs here is what the lock says."""
    off = []
    for name, pins in read_lock(DEV_LOCK.read_text()).items():
        try:
            installed = Version(importlib.metadata.version(name))
        except importlib.metadata.PackageNotFoundError:
            continue  # a pin for another platform (colorama on Windows)
        if installed not in {p.version for p in pins}:
            off.append(f"{name} {installed}")
    if off:
        pytest.fail(
            f"installed versions differ from requirements/dev.lock: {off} (make install)",
            pytrace=False,
        )


def test_the_locks_say_how_to_refresh_them() -> None:
    for lock in (DEV_LOCK, RUNTIME_LOCK):
        assert "make lock" in lock.read_text().split("\n", 3)[1]


# --- what a lock that does not match the code looks like ------------------------------


def edited(change: str) -> tuple[dict[str, Any], str]:
    project, lock = pyproject(), DEV_LOCK.read_text()
    deps = project["project"]["dependencies"]
    if change == "added to pyproject":
        deps.append("nosuchpackage>=1")
    elif change == "removed from pyproject":
        deps[:] = [d for d in deps if not d.startswith("rapidfuzz")]
    elif change == "range moved past the pin":
        deps[:] = [("rapidfuzz>=99" if d.startswith("rapidfuzz") else d) for d in deps]
    elif change == "hash removed":
        lock = re.sub(
            r"(?m)^(rapidfuzz==\S+) \\\n(\s+--hash=\S+ \\\n)*\s+--hash=\S+\n", r"\1\n", lock
        )
    return project, lock


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ("added to pyproject", "nosuchpackage is not in the lock"),
        ("removed from pyproject", "rapidfuzz is locked but no longer in pyproject.toml"),
        ("range moved past the pin", "is outside rapidfuzz>=99"),
        ("hash removed", "rapidfuzz has no hash"),
    ],
)
def test_a_lock_that_does_not_match_is_named_in_one_line(change: str, message: str) -> None:
    project, lock = edited(change)
    before = disagreements(pyproject(), DEV_LOCK.read_text(), dev=True)
    problems = [p for p in disagreements(project, lock, dev=True) if p not in before]
    assert any(message in problem for problem in problems), problems
    assert all("\n" not in problem for problem in problems)
