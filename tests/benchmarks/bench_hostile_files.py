"""How long `paperbot ingest --check` takes on files built to make a parser work hard: each
structure of a digest repeated thousands of times (claims numbered alike, quotes with no
claim, entries numbered alike, tables under a section, a review going on label after label,
…; the shapes of tests/parser/test_work_grows_linearly.py), and a first paragraph of
thousands of words that look like names.
A linear parser reads eight times the paragraphs in about eight times the time.

Reproduce: `python -m tests.benchmarks.bench_hostile_files --write` (add `--before
PATH/TO/OLD/paperbot` for the side by side). Each check runs in a child process, as an
operator runs it, and is stopped after `--timeout` seconds."""

from __future__ import annotations

import argparse
import os
import subprocess
import time
from pathlib import Path

from tests.benchmarks.bench_ingest import PAPERBOT
from tests.benchmarks.results import write_section
from tests.parser.test_work_grows_linearly import RUN_ON, SHAPES, names_first

SIZES = (4_000, 32_000)  # paragraphs (or entries, or words) of each shape


FILES = {**SHAPES, **RUN_ON, "a first paragraph of words like names": names_first}


def timed_check(paperbot: str, path: Path, timeout: float) -> float | None:
    """Seconds `ingest --check` took on `path`, or None when stopped at `timeout`."""
    env = {**os.environ, "PAPERBOT_SETTLE_SECONDS": "0"}
    started = time.perf_counter()
    try:
        subprocess.run(
            [paperbot, "ingest", "--check", "--json", str(path)],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        return None
    return time.perf_counter() - started


def _seconds(value: float | None, timeout: float) -> str:
    return f"over {timeout:.0f}" if value is None else f"{value:.2f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/paperbot-hostile"))
    parser.add_argument("--before", help="another paperbot executable to measure first")
    parser.add_argument("--timeout", type=float, default=300.0)
    parser.add_argument("--write", action="store_true", help="write RESULTS.md")
    args = parser.parse_args()
    args.workdir.mkdir(parents=True, exist_ok=True)
    codes = [("before", args.before)] if args.before else []
    codes.append(("this", PAPERBOT))
    head = " | ".join(f"{code} s" for code, _ in codes)
    lines = [
        f"| shape | paragraphs | MB | {head} |",
        "|---|---:|---:|" + "---:|" * len(codes),
    ]
    for name, shape in FILES.items():
        for size in SIZES:
            path = args.workdir / f"{name.replace(' ', '-')}-{size}.txt"
            path.write_text(shape(size), encoding="utf-8")
            taken = [timed_check(paperbot, path, args.timeout) for _, paperbot in codes]
            cells = " | ".join(_seconds(t, args.timeout) for t in taken)
            lines.append(f"| {name} | {size:,} | {path.stat().st_size / 1e6:.1f} | {cells} |")
            print(lines[-1], flush=True)
    table = "\n".join(lines)
    if args.write:
        write_section("hostile-files", table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
