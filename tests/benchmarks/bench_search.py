"""Benchmark: ingest rate, `/paper` and `/claims` latency, beside grep and a LIKE scan.

    python -m tests.benchmarks.bench_search [--papers 10000 100000] [--workdir DIR] [--write]

For each size it generates (or reuses) a synthetic corpus (tests/benchmarks/corpus.py),
ingests it into a fresh SQLite file with `paperbot ingest --no-embed` in a child process
(wall time, peak memory), ingests it again unchanged, then times the domain calls behind
`/paper` and `/claims` in this process (lexical search) over the corpus's query mix, and
the same claim queries as `grep -F -r` over the files and as a `LIKE '%…%'` scan of the
claims table. `--write` puts the tables into tests/benchmarks/RESULTS.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import sqlite3
import statistics
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from sqlalchemy import text
from sqlalchemy.engine import make_url

from storage import db
from storage.search import lookup_paper, parse_claim_search, search_claims
from tests.benchmarks.corpus import benchmark_queries, generate_corpus

RESULTS = Path(__file__).with_name("RESULTS.md")
# Where what follows this benchmark's own section begins: the ingest rounds written by
# hand after its first run, and the other benchmarks' sections.
OTHERS = "<!-- ingest-rounds -->"
TARGET_P99_MS = 50.0
TARGET_INGEST_PER_S = 1000.0
SCAN_SAMPLE = 40  # grep and LIKE scan every file or row: a sample of the claim queries


@dataclass
class Size:
    papers: int
    claims: int = 0
    corpus_mb: float = 0.0
    database_mb: float = 0.0
    ingest_s: float = 0.0
    ingest_peak_mb: float = 0.0
    reingest_s: float = 0.0
    latencies: dict[str, list[float]] = field(default_factory=dict)  # what -> ms each


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def run_child(args: list[str], env: dict[str, str]) -> tuple[float, float, str]:
    """Wall seconds, peak resident MB and stdout of a child process."""
    started = time.perf_counter()
    child = subprocess.Popen(args, env=env, stdout=subprocess.PIPE, text=True)
    out = child.stdout.read() if child.stdout else ""
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode not in (0, 1):
        raise SystemExit(f"{args[:3]} failed with {child.returncode}")
    return time.perf_counter() - started, usage.ru_maxrss / 1024, out


async def timed(calls: Sequence[Callable[[], Awaitable[object]]]) -> list[float]:
    latencies = []
    for call in calls:
        started = time.perf_counter()
        await call()
        latencies.append((time.perf_counter() - started) * 1000)
    return latencies


async def measure_queries(size: Size, database: Path, corpus: Path) -> None:
    queries = benchmark_queries(size.papers)
    url = make_url(f"sqlite+aiosqlite:///{database}")
    async with db.open_engine(url) as engine, db.session_factory(engine)() as session:
        paper_calls = [partial(lookup_paper, session, q) for _, q in queries.paper]
        claim_calls = [partial(search_claims, session, q) for _, q in queries.claims]
        await timed([*paper_calls, *claim_calls])  # warm the page cache once
        size.latencies["/paper"] = await timed(paper_calls)
        size.latencies["/claims"] = await timed(claim_calls)
        size.latencies["both"] = size.latencies["/paper"] + size.latencies["/claims"]

        words = [parse_claim_search(q).words for _, q in queries.claims]
        sample = [w for w in words if w][:: max(1, len(words) // SCAN_SAMPLE)][:SCAN_SAMPLE]

        async def like(word: str) -> None:
            await session.execute(
                text(
                    "SELECT id FROM claims WHERE text_zh LIKE :p OR quote_en LIKE :p"
                    " ORDER BY id DESC LIMIT 11"
                ),
                {"p": f"%{word}%"},
            )

        size.latencies["LIKE scan"] = await timed([partial(like, w) for w in sample])
        size.latencies["/claims (same sample)"] = await timed(
            [partial(search_claims, session, w) for w in sample]
        )
    size.latencies["grep -F -r"] = await timed([partial(grep, w, corpus) for w in sample])


async def grep(word: str, corpus: Path) -> None:
    child = await asyncio.create_subprocess_exec(
        "grep", "-F", "-r", "-l", "--", word, str(corpus), stdout=subprocess.DEVNULL
    )
    await child.wait()


def bench(papers: int, workdir: Path) -> Size:
    size = Size(papers)
    corpus = workdir / f"corpus-{papers}"
    manifest = corpus / "manifest.json"
    if not manifest.exists() or json.loads(manifest.read_text())["papers"] != papers:
        print(f"generating {papers:,} papers into {corpus}", file=sys.stderr)
        generate_corpus(corpus, papers, jobs=os.cpu_count() or 1)
    files = sorted(str(p) for p in corpus.glob("bench_*.txt"))
    size.claims = json.loads(manifest.read_text())["claims"]
    size.corpus_mb = sum(os.path.getsize(f) for f in files) / 1e6

    database = workdir / f"bench-{papers}.db"
    for leftover in workdir.glob(f"bench-{papers}.db*"):
        leftover.unlink()
    # Files just generated are not "still being written": no settling wait.
    env = os.environ | {
        "PAPERBOT_DATABASE_URL": f"sqlite+aiosqlite:///{database}",
        "PAPERBOT_SETTLE_SECONDS": "0",
    }
    # Loading: parse, store, lexical index (embedding for search by meaning is timed apart,
    # in bench_dense and bench_hybrid_http).
    command = [sys.executable, "-m", "bot.cli", "ingest", "--json", "--no-embed", *files]
    print(f"ingesting {papers:,} papers", file=sys.stderr)
    size.ingest_s, size.ingest_peak_mb, out = run_child(command, env)
    summary = json.loads(out)
    # Every paper stored (the 100,000-paper corpus repeats one, which updates its first copy).
    assert sum(summary["papers"].values()) == papers and not summary["errors"], summary
    size.reingest_s, _, _ = run_child(command, env)
    with sqlite3.connect(database) as connection:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    size.database_mb = database.stat().st_size / 1e6
    print("timing queries", file=sys.stderr)
    asyncio.run(measure_queries(size, database, corpus))
    return size


def machine() -> str:
    cpu = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        ),
        platform.processor(),
    )
    memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    return (
        f"{os.cpu_count()} cores ({cpu}), {memory:.0f} GiB, {platform.system()} "
        f"{platform.release()}, Python {platform.python_version()}, "
        f"SQLite {sqlite3.sqlite_version}"
    )


def report(sizes: list[Size]) -> str:
    lines = [
        "| papers | claims | corpus | database | ingest | papers/s | peak memory "
        "| re-ingest unchanged |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for s in sizes:
        lines.append(
            f"| {s.papers:,} | {s.claims:,} | {s.corpus_mb:,.0f} MB | {s.database_mb:,.0f} MB "
            f"| {s.ingest_s:,.1f} s | {s.papers / s.ingest_s:,.0f} | {s.ingest_peak_mb:,.0f} MB "
            f"| {s.reingest_s:,.2f} s |"
        )
    lines += ["", "| papers | what | queries | p50 | p99 | max |", "|---:|---|---:|---:|---:|---:|"]
    for s in sizes:
        for what, values in s.latencies.items():
            lines.append(
                f"| {s.papers:,} | {what} | {len(values)} | {percentile(values, 50):.1f} ms "
                f"| {percentile(values, 99):.1f} ms | {max(values):.1f} ms |"
            )
    lines.append("")
    for s in sizes:
        ours = s.latencies["/claims (same sample)"]
        for other in ("grep -F -r", "LIKE scan"):
            theirs = s.latencies[other]
            lines.append(
                f"- {s.papers:,} papers, {other} ÷ `/claims` on the same queries: "
                f"{statistics.mean(theirs) / statistics.mean(ours):,.1f}× in the mean, "
                f"{percentile(theirs, 99) / percentile(ours, 99):,.1f}× at the 99th percentile."
            )
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--papers", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/paperbot-bench"))
    parser.add_argument("--write", action="store_true", help=f"write {RESULTS.name}")
    args = parser.parse_args()
    args.workdir.mkdir(parents=True, exist_ok=True)
    sizes = [bench(n, args.workdir) for n in args.papers]
    tables = report(sizes)
    print(tables)
    if args.write:
        command = "python -m tests.benchmarks.bench_search --papers " + " ".join(
            str(n) for n in args.papers
        )
        # What follows (from the marker on) is kept as it is.
        old = RESULTS.read_text(encoding="utf-8")
        others = old[old.index(OTHERS) :] if OTHERS in old else ""
        text = document(machine(), command, tables, sizes).rstrip() + "\n\n" + others
        RESULTS.write_text(text, encoding="utf-8")
    return 0


def verdicts(sizes: list[Size]) -> str:
    lines = []
    for s in sizes:
        p99 = {what: percentile(s.latencies[what], 99) for what in ("/paper", "/claims")}
        rate = s.papers / s.ingest_s
        met = all(v < TARGET_P99_MS for v in p99.values())
        lines.append(
            f"- {s.papers:,} papers: p99 `/paper` {p99['/paper']:.1f} ms, `/claims` "
            f"{p99['/claims']:.1f} ms ({'under' if met else 'OVER'} {TARGET_P99_MS:.0f} ms); "
            f"ingest {rate:,.0f} papers/s "
            + (
                "(target met)."
                if rate >= TARGET_INGEST_PER_S
                else f"(target MISSED: {TARGET_INGEST_PER_S / rate:.1f}× short)."
            )
        )
    return "\n".join(lines)


def document(machine: str, command: str, tables: str, sizes: list[Size]) -> str:
    return f"""# Benchmark results

Machine: {machine}.

Reproduce: `make bench` (runs `{command} --write`).

Targets (PRODUCT.md): `/paper` and `/claims` under {TARGET_P99_MS:.0f} ms at the 99th
percentile in process at 100,000 papers on SQLite; ingest at least
{TARGET_INGEST_PER_S:,.0f} papers a second; re-ingesting an unchanged corpus only checks
hashes.

{verdicts(sizes)}

{tables}

Latencies are the domain calls the Slack handlers make (`storage.search.lookup_paper` and
`search_claims`, first page), in process, after one warm-up pass, over the corpus's query
mix (`tests.benchmarks.corpus.benchmark_queries`: names, arXiv IDs and URLs, titles, common,
mid-frequency and rare English and Chinese words, numbers, mixed and filtered queries,
queries that match nothing). grep and the LIKE scan run on a sample of the claim queries;
`/claims (same sample)` times our search on exactly that sample for the ratios.

"""


if __name__ == "__main__":
    sys.exit(main())
