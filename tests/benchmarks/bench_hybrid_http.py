"""Benchmark: `/paper` and `/claims` over signed HTTP through `paperbot serve`, hybrid on.

    python -m tests.benchmarks.bench_hybrid_http [--papers 10000] [--stores sqlite postgresql]
        [--embedder SPEC] [--postgres-url URL] [--workdir DIR] [--write]

For each store it ingests the synthetic corpus (tests/benchmarks/corpus.py) with
`paperbot ingest`, which embeds it (`--embedder`, by default the scale stand-in: real
model for queries, pseudo-random vectors of its shape for passages; see
scale_embedder.py). A first `serve` builds the index of search by meaning and saves it
(timed until the saved files appear); the second, timed from its start, loads the saved
index and warms before it serves. The corpus's query mix (the one bench_search times in
process) is then sent one command at a time, the first right after start, over signed
HTTP as Slack sends it (the machinery of bench_worst.py); a command's time runs from
sending it to its answer. The server's resident memory is read from /proc after the mix.
`--write` puts the table into RESULTS.md between the `hybrid-http` markers.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import statistics
import sys
import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp

from tests.benchmarks.bench_search import percentile
from tests.benchmarks.bench_worst import Responses, Store, command, ingest, serve
from tests.benchmarks.corpus import benchmark_queries, ensure_corpus
from tests.benchmarks.results import RESULTS, write_section
from tests.fake_slack import FakeSlack
from tests.postgres import PostgresServer, deployed_settings

ROOT = Path(__file__).resolve().parents[2]
SECTION = "hybrid-http"  # RESULTS.md keeps it between <!-- hybrid-http --> markers
SCALE_EMBEDDER = "tests.benchmarks.scale_embedder:make"
TARGET_MS = {10_000: 50.0, 100_000: 100.0}


@dataclass
class Run:
    store: str
    papers: int
    ingest_s: float = 0.0
    build_s: float = 0.0  # first start: until the index is built and saved
    ready_s: float = 0.0  # second start: until /healthz answers (saved index loaded, warm)
    first_ms: float = 0.0  # the first command after that start
    first_answer: str = ""
    latencies: dict[str, list[float]] = field(default_factory=dict)
    timed: list[tuple[float, str]] = field(default_factory=list)  # (ms, command), all of them
    rss_mb: float = 0.0
    index_mb: float = 0.0  # the saved index files


def wait_for_files(directory: Path) -> None:
    while not list(directory.glob("*.json")):
        time.sleep(1)


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


async def bench_store(
    run: Run, url: str, corpus: Path, workdir: Path, embedder: str, *, ingested: bool = False
) -> None:
    index_dir = workdir / f"index-{run.store.lower()}-{run.papers}"
    extra = {
        "PAPERBOT_EMBEDDER": embedder,
        "PAPERBOT_INDEX_DIR": str(index_dir),
        "PAPERBOT_LOG_LEVEL": "INFO",
        "PYTHONPATH": str(ROOT),
    }
    started = time.perf_counter()
    if not ingested:
        # A new store: an index saved for an earlier one would be taken for its own below
        # (wait_for_files), and the runs measured while the new one is built.
        shutil.rmtree(index_dir, ignore_errors=True)
        await asyncio.to_thread(ingest, url, corpus, workdir, extra)
    run.ingest_s = time.perf_counter() - started
    print(f"{run.store}: ingest and embedding {run.ingest_s:.0f} s", file=sys.stderr)
    store = Store(run.store, url)
    responses = Responses()
    runner = await responses.start()
    async with FakeSlack() as slack:
        started = time.perf_counter()
        child, _ = await serve(store, slack, workdir, extra)
        await asyncio.to_thread(wait_for_files, index_dir)  # built in the background, saved
        run.build_s = time.perf_counter() - started
        child.terminate()
        child.wait(60)
        print(f"{run.store}: index built and saved in {run.build_s:.0f} s", file=sys.stderr)
        run.index_mb = sum(p.stat().st_size for p in index_dir.glob("*.usearch")) / 1024**2

        started = time.perf_counter()
        child, base = await serve(store, slack, workdir, extra)
        run.ready_s = time.perf_counter() - started
        queries = benchmark_queries(run.papers)
        lines = [("/paper", f"/paper {q}") for _, q in queries.paper]
        lines += [("/claims", f"/claims {q}") for _, q in queries.claims]
        # The two kinds interleaved, in the same order every run (str hashes vary by process).
        lines.sort(key=lambda pair: zlib.crc32(pair[1].encode()))
        try:
            async with aiohttp.ClientSession() as http:
                first = "/claims model"
                status, took, run.first_answer = await command(http, base, responses, first)
                run.first_ms = took * 1000
                for kind, line in lines:
                    status, took, _ = await command(http, base, responses, line)
                    if status == 200:
                        run.latencies.setdefault(kind, []).append(took * 1000)
                        run.timed.append((took * 1000, line))
            run.rss_mb = rss_mb(child.pid)
            for took, line in sorted(run.timed, reverse=True)[:8]:  # where the tail comes from
                print(f"{run.store}: {took:7.1f} ms  {line}", file=sys.stderr)
        finally:
            child.terminate()
            child.wait(60)
            await runner.cleanup()


def table(runs: list[Run], embedder: str) -> str:
    lines = [
        "### Hybrid search over signed HTTP (item 6 of issue 13)",
        "",
        "Reproduce: `python -m tests.benchmarks.bench_hybrid_http --papers N --write`. "
        "`paperbot serve` with search by meaning on; the corpus's query mix "
        "(bench_search's), one command at a time over signed HTTP, each timed from sending "
        "it to its answer, query embedding included; the first command right after a "
        "restart that loaded the saved index. Embedder: "
        + (
            "the scale stand-in (queries through multilingual-e5-small on one thread, as "
            "`serve` runs it; passages as pseudo-random unit vectors of its 384 dimensions, "
            "every search by meaning returning its full 100 nearest: "
            "tests/benchmarks/scale_embedder.py)."
            if embedder == SCALE_EMBEDDER
            else f"`{embedder}`."
        ),
        "",
        "| store | papers | command | queries | p50 | p99 | max | target p99 |",
        "|---|---:|---|---:|---:|---:|---:|---|",
    ]
    for run in runs:
        target = TARGET_MS.get(run.papers)
        for kind in ("/paper", "/claims"):
            values = run.latencies.get(kind, [])
            if not values:
                continue
            p99 = percentile(values, 99)
            verdict = (
                ""
                if target is None
                else (f"{target:.0f} ms: {'met' if p99 <= target else 'MISSED'}")
            )
            lines.append(
                f"| {run.store} | {run.papers:,} | {kind} | {len(values)} | "
                f"{statistics.median(values):.1f} ms | {p99:.1f} ms | {max(values):.1f} ms | "
                f"{verdict} |"
            )
    lines += [
        "",
        "| store | papers | ingest + embed | first start: index built and saved | restart: "
        "until serving (saved index loaded, warmed) | first command after it | saved index "
        "| server memory (RSS) |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for run in runs:
        ingested = f"{run.ingest_s:.0f} s" if run.ingest_s > 1 else "(earlier run)"
        lines.append(
            f"| {run.store} | {run.papers:,} | {ingested} | {run.build_s:.0f} s | "
            f"{run.ready_s:.1f} s | {run.first_ms:.0f} ms | {run.index_mb:.0f} MB | "
            f"{run.rss_mb:.0f} MB |"
        )
    return "\n".join(lines)


async def main_async(args: argparse.Namespace) -> list[Run]:
    corpus = ensure_corpus(args.workdir, args.papers)
    runs = []
    if "sqlite" in args.stores:
        database = args.workdir / f"hybrid-{args.papers}.db"  # kept: ingested once
        runs.append(Run("SQLite", args.papers))
        await bench_store(
            runs[-1],
            f"sqlite+aiosqlite:///{database}",
            corpus,
            args.workdir,
            args.embedder,
            ingested=database.exists(),
        )
    if args.postgres_url:  # a PostgreSQL store ingested and embedded before
        runs.append(Run("PostgreSQL", args.papers))
        await bench_store(
            runs[-1], args.postgres_url, corpus, args.workdir, args.embedder, ingested=True
        )
    elif "postgresql" in args.stores:
        server = PostgresServer(deployed_settings())
        try:
            url = server.start()
            runs.append(Run("PostgreSQL", args.papers))
            await bench_store(runs[-1], url, corpus, args.workdir, args.embedder)
        finally:
            server.stop()
    return runs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--papers", type=int, default=10_000)
    parser.add_argument("--stores", nargs="+", default=["sqlite", "postgresql"])
    parser.add_argument("--embedder", default=SCALE_EMBEDDER)
    parser.add_argument("--postgres-url", help="an ingested PostgreSQL store to use instead")
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/paperbot-bench"))
    parser.add_argument("--write", action="store_true", help=f"write {RESULTS.name}")
    args = parser.parse_args()
    args.workdir.mkdir(parents=True, exist_ok=True)
    body = table(asyncio.run(main_async(args)), args.embedder)
    print(body)
    if args.write:
        write_section(SECTION, body)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
