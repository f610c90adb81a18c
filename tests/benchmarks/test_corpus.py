"""The synthetic benchmark corpus, read back by the project's parser.

The normal test run skips tests/benchmarks; run this with
`.venv/bin/pytest tests/benchmarks/test_corpus.py`.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from jobs.parser import ParsedPaper, decode_digest, parse_digest
from tests.benchmarks.corpus import (
    ABSTRACT_ONLY,
    CLAIMS_PER_PAPER,
    DEEP_READ,
    HUGGINGFACE,
    Manifest,
    benchmark_queries,
    generate_corpus,
)

PAPERS = 300
PER_FILE = 60  # several files of each format


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Manifest]:
    outdir = tmp_path_factory.mktemp("corpus")
    return outdir, generate_corpus(outdir, PAPERS, papers_per_file=PER_FILE)


@pytest.fixture(scope="module")
def papers(corpus: tuple[Path, Manifest]) -> list[tuple[str, ParsedPaper]]:
    outdir, _ = corpus
    return [
        (path.name, paper)
        for path in sorted(outdir.glob("bench_*.txt"))
        for paper in parse_digest(decode_digest(path.read_bytes())).papers
    ]


def test_the_parser_finds_exactly_n_papers_in_the_seeds_mix(
    corpus: tuple[Path, Manifest], papers: list[tuple[str, ParsedPaper]]
) -> None:
    _, manifest = corpus
    kinds = Counter(paper.kind for _, paper in papers)
    assert len(papers) == PAPERS
    assert kinds == {HUGGINGFACE: 165, DEEP_READ: 105, ABSTRACT_ONLY: 30}
    assert kinds == manifest.papers_by_kind
    # Distinct keys: ingesting the corpus stores N papers, none merged as a duplicate.
    assert len({paper.key for _, paper in papers}) == PAPERS
    assert len(list(corpus[0].glob("bench_*.txt"))) == manifest.files == 6


def test_claims_come_from_deep_reads_each_with_a_quote(
    corpus: tuple[Path, Manifest], papers: list[tuple[str, ParsedPaper]]
) -> None:
    _, manifest = corpus
    claims = [claim for _, paper in papers for claim in paper.claims]
    assert len(claims) == manifest.claims
    assert abs(len(claims) / PAPERS - CLAIMS_PER_PAPER) < 1.0
    assert all(claim.text_zh and claim.quote_en for claim in claims)
    assert all(not paper.claims for _, paper in papers if paper.kind != DEEP_READ)
    numbered = [[c.number for c in paper.claims] for _, paper in papers if paper.kind == DEEP_READ]
    assert all(numbers == list(range(1, len(numbers) + 1)) for numbers in numbered)


def test_the_parser_derives_the_method_names_of_the_manifest(
    corpus: tuple[Path, Manifest], papers: list[tuple[str, ParsedPaper]]
) -> None:
    _, manifest = corpus
    deep = [(file, paper) for file, paper in papers if paper.kind == DEEP_READ]
    assert len(deep) == len(manifest.deep_read_names)
    wrong = [
        f"{file} #{paper.position}: parser {paper.name!r}, manifest {expected!r}"
        for (file, paper), expected in zip(deep, manifest.deep_read_names, strict=True)
        if paper.name != expected
    ]
    assert len(wrong) <= 0.1 * len(deep), "\n".join(wrong)
    abstract = [paper.name for _, paper in papers if paper.kind == ABSTRACT_ONLY]
    assert abstract == manifest.abstract_only_names
    entries = [paper.arxiv_id for _, paper in papers if paper.kind == HUGGINGFACE]
    assert entries == [re.sub(r"v[0-9]+$", "", written) for written in manifest.arxiv_ids]


def test_common_words_are_common_and_rare_words_rare(
    papers: list[tuple[str, ParsedPaper]],
) -> None:
    claims = [f"{c.text_zh}\n{c.quote_en}" for _, paper in papers for c in paper.claims]

    def share(pattern: str) -> float:
        return sum(1 for text in claims if re.search(pattern, text)) / len(claims)

    assert share(r"\bmodel\b") > 0.25
    assert share("模型") > 0.25
    assert 0.05 < share("显存") < 0.5
    assert share(r"\bcrystal\b") < 0.01  # the last word of the English vocabulary


def test_same_seed_and_size_give_the_same_bytes_in_any_number_of_processes(
    corpus: tuple[Path, Manifest], tmp_path: Path
) -> None:
    outdir, _ = corpus
    generate_corpus(tmp_path, PAPERS, papers_per_file=PER_FILE, jobs=2)
    first = {path.name: path.read_bytes() for path in outdir.iterdir()}
    again = {path.name: path.read_bytes() for path in tmp_path.iterdir()}
    assert first.keys() == again.keys()
    assert [name for name in first if first[name] != again[name]] == []
    assert json.loads(first["manifest.json"])["seed"] == 20260928


def test_another_seed_gives_another_corpus(tmp_path: Path) -> None:
    one = generate_corpus(tmp_path / "one", 40, seed=1)
    two = generate_corpus(tmp_path / "two", 40, seed=2)
    assert one.deep_read_names != two.deep_read_names
    assert (tmp_path / "one" / "bench_000000.txt").read_bytes() != (
        tmp_path / "two" / "bench_000000.txt"
    ).read_bytes()


def test_queries_name_papers_that_exist(corpus: tuple[Path, Manifest]) -> None:
    _, manifest = corpus
    queries = benchmark_queries(PAPERS, papers_per_file=PER_FILE)
    assert queries == benchmark_queries(PAPERS, papers_per_file=PER_FILE)
    assert len(queries.paper) + len(queries.claims) >= 200
    names = set(manifest.deep_read_names)
    ids = {re.sub(r"v[0-9]+$", "", written) for written in manifest.arxiv_ids}
    for kind, text in queries.paper:
        if kind == "name":
            assert text in names
        elif kind in {"arxiv_id", "arxiv_id_version", "arxiv_url"}:
            found = re.search(r"[0-9]{4}\.[0-9]{5}", text)
            assert found and found.group() in ids
    kinds = {kind for kind, _ in queries.claims}
    assert {"common_en", "common_zh", "number", "rare_en", "rare_zh", "mixed", "none"} <= kinds
