"""Benchmark: ingest rate (parse, store, lexical index) on SQLite and PostgreSQL.

Generates the synthetic corpus (tests/benchmarks/corpus.py), then for each store loads it
into a fresh database with `paperbot ingest --json` in a child process (wall time, peak
memory), and loads it again unchanged (a hash check per file). `--before PAPERBOT` runs the
same with another installed `paperbot` (an older checkout's) first, for a side by side.
`--write` puts the table into tests/benchmarks/RESULTS.md between the `ingest-rate`
markers. The machine's load average is printed beside each run: on a shared machine the
rate follows it.

Reproduce: `python -m tests.benchmarks.bench_ingest --papers 10000 --write`.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from tests.benchmarks.corpus import generate_corpus
from tests.postgres import PostgresServer

RESULTS = Path(__file__).with_name("RESULTS.md")
START, END = "<!-- ingest-rate -->", "<!-- /ingest-rate -->"
TARGET = 1_000  # papers a second (PRODUCT.md)
PAPERBOT = shutil.which("paperbot", path=str(Path(sys.executable).parent)) or "paperbot"


@dataclass
class Run:
    code: str  # which paperbot: "this" or "before"
    store: str
    papers: int
    seconds: float
    peak_mb: float
    reingest_s: float
    load: float  # 1-minute load average when the run ended
    cpu_s: float  # user + system seconds of the ingest process (its parse processes not counted)

    @property
    def rate(self) -> float:
        return self.papers / self.seconds


def run_child(args: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float, str, float]:
    """Wall seconds, peak resident MB, stdout and CPU seconds of a child process (with
    the children it waited for: `paperbot ingest`'s parse processes, which it forks)."""
    started = time.perf_counter()
    child = subprocess.Popen(args, env=env, cwd=cwd, stdout=subprocess.PIPE, text=True)
    out = child.stdout.read() if child.stdout else ""
    _, status, usage = os.wait4(child.pid, 0)
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        raise SystemExit(f"{args[:3]} failed with {os.waitstatus_to_exitcode(status)}")
    cpu = usage.ru_utime + usage.ru_stime
    return time.perf_counter() - started, usage.ru_maxrss / 1024, out, cpu


def load(paperbot: str, code: str, store: str, url: str, corpus: Path, workdir: Path) -> Run:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PAPERBOT_", "SLACK_"))}
    env |= {"PAPERBOT_DATABASE_URL": url, "PAPERBOT_SETTLE_SECONDS": "0"}
    files = sorted(str(p) for p in corpus.glob("bench_*.txt"))
    command = [paperbot, "ingest", "--json", "--no-embed", *files]
    print(f"{code} on {store}: ingesting {corpus}", file=sys.stderr)
    subprocess.run(
        [paperbot, "db", "upgrade"], env=env, cwd=workdir, check=True, capture_output=True
    )
    seconds, peak, out, cpu = run_child(command, env, workdir)
    summary = json.loads(out)
    if summary["errors"]:
        raise SystemExit(f"ingest failed: {summary['errors'][:2]}")
    papers = summary["papers"]["new"] + summary["papers"]["updated"]
    reingest, _, _, _ = run_child(command, env, workdir)
    run = Run(code, store, papers, seconds, peak, reingest, os.getloadavg()[0], cpu)
    print(
        f"  {papers:,} papers in {seconds:.1f} s: {run.rate:,.0f}/s; CPU {cpu:.1f} s; "
        f"load {run.load:.1f}",
        file=sys.stderr,
    )
    return run


def measure(paperbot: str, code: str, stores: list[str], corpus: Path, workdir: Path) -> list[Run]:
    runs = []
    if "sqlite" in stores:
        database = workdir / f"ingest-{code}.db"
        for stale in workdir.glob(f"ingest-{code}.db*"):
            stale.unlink()
        runs.append(
            load(paperbot, code, "SQLite", f"sqlite+aiosqlite:///{database}", corpus, workdir)
        )
    if "postgresql" in stores:
        server = PostgresServer()
        try:
            runs.append(load(paperbot, code, "PostgreSQL", server.start(), corpus, workdir))
        finally:
            server.stop()
    return runs


def report(runs: list[Run], corpus_mb: float, claims: int) -> str:
    papers = runs[0].papers
    lines = [
        START,
        "## Ingest rate",
        "",
        "Reproduce: `python -m tests.benchmarks.bench_ingest --papers "
        f"{papers} --write` (add `--before PATH/TO/OLD/paperbot` for the side by side).",
        "",
        f"Loading {papers:,} synthetic papers ({claims:,} claims, {corpus_mb:,.0f} MB in "
        "files of 200) into a fresh database with `paperbot ingest --no-embed` (parse, store, "
        "lexical index), then again unchanged. Target: 1,000 papers/s on this 2-core machine. "
        "CPU is the user and system time of the `paperbot` process and of the parse "
        "processes it forks (an older paperbot started them from a fork server, and their "
        "CPU was not counted: the writer's share alone). The "
        "load average is the machine's when the run ended (other work shared it when above "
        "2, and the rates fell with it).",
        "",
        "| code | store | seconds | papers/s | target | CPU s | CPU ms/paper | peak memory "
        "| re-ingest unchanged | load |",
        "|---|---|---:|---:|---|---:|---:|---:|---:|---:|",
    ]
    for r in runs:
        verdict = "met" if r.rate >= TARGET else f"MISSED ({TARGET / r.rate:.1f}× short)"
        lines.append(
            f"| {r.code} | {r.store} | {r.seconds:,.1f} | {r.rate:,.0f} | {verdict} "
            f"| {r.cpu_s:,.1f} | {1000 * r.cpu_s / r.papers:.2f} | {r.peak_mb:,.0f} MB "
            f"| {r.reingest_s:,.2f} s | {r.load:.1f} |"
        )
    lines.append(END)
    return "\n".join(lines)


def write(section: str) -> None:
    text = RESULTS.read_text()
    if START in text:
        text = text[: text.index(START)] + section + text[text.index(END) + len(END) :]
    else:
        text = text.rstrip() + "\n\n" + section + "\n"
    RESULTS.write_text(text)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--papers", type=int, default=10_000)
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/paperbot-bench"))
    parser.add_argument("--stores", nargs="+", default=["sqlite", "postgresql"])
    parser.add_argument("--before", help="another paperbot executable to measure first")
    parser.add_argument("--write", action="store_true", help=f"write {RESULTS.name}")
    args = parser.parse_args()
    args.workdir.mkdir(parents=True, exist_ok=True)
    corpus = args.workdir / f"corpus-{args.papers}"
    manifest_path = corpus / "manifest.json"
    if not manifest_path.exists() or json.loads(manifest_path.read_text())["papers"] != args.papers:
        generate_corpus(corpus, args.papers, jobs=os.cpu_count() or 1)
    manifest = json.loads(manifest_path.read_text())
    runs = []
    if args.before:
        runs += measure(args.before, "before", args.stores, corpus, args.workdir)
    runs += measure(PAPERBOT, "this", args.stores, corpus, args.workdir)
    section = report(runs, manifest["bytes"] / 1e6, manifest["claims"])
    print(section)
    if args.write:
        write(section)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
