"""Benchmark: "Did you mean" at scale: building the vocabulary, correcting a word, and a
mistyped `/paper` and `/claims` from start to answer, on an ingested synthetic corpus.

    python -m tests.benchmarks.bench_suggestions --database URL --papers N [--write]

The database holds `tests/benchmarks/corpus.py`'s corpus of N papers (ingest it first).
Timed: reading the store's words and building the vocabulary; then, for typos of the
corpus's own words (a swap, a missing, an extra and a wrong letter in names, common and
rare words) and for words nothing is close to, the correction alone (what runs in a
thread) and the whole reply (the search that finds nothing, the correction, the searches
checking it, rendering); and the correction on a vocabulary padded to its bound.
`--write` puts the table into tests/benchmarks/RESULTS.md.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import string
import sys
import time
from collections.abc import Awaitable, Sequence

from sqlalchemy.engine import make_url

from bot import replies
from storage import db, fulltext
from storage.search import lookup_paper
from storage.search_text import parse_query
from storage.suggestions import (
    MAX_VOCABULARY,
    Suggester,
    Vocabulary,
    build_vocabulary,
    load_vocabulary,
)
from tests.benchmarks.corpus import EN_NOUNS, benchmark_queries, method_name, rare_word
from tests.benchmarks.results import write_section

ROUNDS = 5


def typos(word: str, rng: random.Random) -> list[str]:
    """A swap, a missing, an extra and a wrong letter, away from the first letter."""
    i = rng.randrange(1, len(word) - 1)
    letter = rng.choice(string.ascii_lowercase)
    return [
        word[:i] + word[i + 1] + word[i] + word[i + 2 :],
        word[:i] + word[i + 1 :],
        word[:i] + letter + word[i:],
        word[:i] + letter + word[i + 1 :],
    ]


def mix(papers: int) -> dict[str, list[str]]:
    rng = random.Random(20261203)
    names = [method_name(rng.randrange(papers)).split("-")[0] for _ in range(10)]
    rare = [rare_word(rng.randrange(1000)) for _ in range(10)]
    return {
        "name typo (/paper)": [t for name in names for t in typos(name, rng)],
        "common word typo (/claims)": [t for w in EN_NOUNS[:10] for t in typos(w, rng)],
        "rare word typo (/claims)": [t for w in rare for t in typos(w, rng)],
        "nothing close (/claims)": ["quizzaciously", "zzyzx flibbertigibbet", "xqjvkw"] * 4,
        "three typos in one search (/claims)": [
            " ".join(typos(a, rng)[0] for a in rng.sample(EN_NOUNS[:40], 3)) for _ in range(20)
        ],
    }


def percentile(samples: Sequence[float], share: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def row(label: str, samples: Sequence[float]) -> str:
    ms = [s * 1000 for s in samples]
    return (
        f"| {label} | {len(ms)} | {statistics.median(ms):.1f} ms | "
        f"{percentile(ms, 0.99):.1f} ms | {max(ms):.1f} ms |"
    )


async def timed(work: Awaitable[object]) -> float:
    started = time.perf_counter()
    await work
    return time.perf_counter() - started


def padded(vocabulary: Vocabulary) -> Vocabulary:
    """The vocabulary filled up to its bound with made-up words of natural lengths."""
    rng = random.Random(7)
    filler: list[tuple[str, int]] = []
    while len(filler) < MAX_VOCABULARY - len(vocabulary):
        size = max(3, min(30, int(rng.gauss(8, 3))))
        filler.append(("".join(rng.choice(string.ascii_lowercase) for _ in range(size)), 1))
    return build_vocabulary([], [*vocabulary.counts.items(), *filler])


async def run(url: str, papers: int) -> list[str]:
    lines = [
        f"{papers:,} papers, SQLite, in process; typos of the corpus's own words "
        f"({ROUNDS} rounds of each).",
        "",
        "| what | n | p50 | p99 | max |",
        "|---|---|---|---|---|",
    ]
    async with db.open_engine(make_url(url)) as engine:
        sessions = db.session_factory(engine)
        started = time.perf_counter()
        async with sessions() as session:
            vocabulary = await load_vocabulary(session)
        built = time.perf_counter() - started
        suggester = Suggester()
        await suggester.refresh(sessions)
        groups = mix(papers)
        for label, typed in groups.items():
            names_first = "/paper" in label
            alone = []
            for _ in range(ROUNDS):
                for text in typed:
                    started = time.perf_counter()
                    vocabulary.corrections(text, names_first=names_first)
                    alone.append(time.perf_counter() - started)
            lines.append(row(f"correction alone: {label}", alone))
        big = padded(vocabulary)
        alone = []
        for _ in range(ROUNDS):
            for text in [t for typed in groups.values() for t in typed]:
                started = time.perf_counter()
                big.corrections(text)
                alone.append(time.perf_counter() - started)
        lines.append(row(f"correction alone, vocabulary padded to {len(big):,} words", alone))
        for label, typed in groups.items():
            reply = replies.paper if "/paper" in label else replies.claims
            whole = [
                await timed(reply(sessions, text, 1, suggester))
                for _ in range(ROUNDS)
                for text in typed
            ]
            lines.append(row(f"whole reply: {label}", whole))
        queries = benchmark_queries(papers)
        sample = [text for kind, text in queries.claims if kind.startswith("common")][:10]
        found = [await timed(replies.claims(sessions, text, 1, suggester)) for text in sample]
        lines.append(row("whole reply: common words, nothing to correct (/claims)", found))
        # What finding papers through their claims and counting them all adds to /paper.
        words = [text for kind, text in queries.paper if kind in ("words", "title_words")]
        async with sessions() as session:
            own = [
                await timed(fulltext.match_papers(session, parse_query(t), limit=10, window=1000))
                for t in words
            ]
            through = [
                await timed(fulltext.papers_by_claims(session, parse_query(t), window=1000))
                for t in words
            ]
            whole_paper = [await timed(lookup_paper(session, t)) for t in words]
        lines.append(row("/paper words: own text, first 10 (as before)", own))
        lines.append(row("/paper words: papers through their claims", through))
        lines.append(row("/paper words: the whole lookup, counted and paged", whole_paper))
    load = os.getloadavg()[0]
    lines += [
        "",
        f"Vocabulary: {len(vocabulary):,} words, read and built in {built:.1f} s "
        f"(at start and after an ingest, in the background). Load average at the end: "
        f"{load:.1f} on {os.cpu_count()} cores (other work shared the machine when above it).",
    ]
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--database", required=True, help="URL of the ingested corpus")
    parser.add_argument("--papers", type=int, required=True, help="the corpus's size")
    parser.add_argument("--write", action="store_true", help="update RESULTS.md")
    args = parser.parse_args(argv)
    lines = asyncio.run(run(args.database, args.papers))
    print("\n".join(lines))
    if args.write:
        write_section("suggestions", "\n".join(["## Did you mean", "", *lines]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
