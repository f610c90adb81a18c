"""The bundled seeds: the counts PRODUCT.md promises, and names for the untitled papers."""

from collections import Counter

from jobs.parser import (
    KIND_ABSTRACT_ONLY,
    KIND_DEEP_READ,
    KIND_HUGGINGFACE,
    ParsedPaper,
)
from tests.parser.summary import parse_file, seed_files

EXPECTED_NAMES = {
    "AV-GRPO",
    "RLCDAlignBench",
    "X-Planner",
    "WanPE",
    "Hunyuan-A13B",
    "Qwen-Planner-Agent",
    "ENEAS",
    "EmbodiedSkills",
    "Enoki",
    "GAPO",
}


def all_papers() -> list[ParsedPaper]:
    return [paper for seed in seed_files() for paper in parse_file(seed).papers]


def test_seeds_hold_36_papers_of_three_kinds() -> None:
    papers = all_papers()
    assert len(papers) == 36
    assert Counter(paper.kind for paper in papers) == {
        KIND_HUGGINGFACE: 20,
        KIND_DEEP_READ: 12,
        KIND_ABSTRACT_ONLY: 4,
    }


def test_every_huggingface_entry_has_an_arxiv_id() -> None:
    entries = [paper for paper in all_papers() if paper.kind == KIND_HUGGINGFACE]
    assert all(paper.arxiv_id and paper.key == f"arxiv:{paper.arxiv_id}" for paper in entries)
    assert all(paper.title and paper.abstract_en and paper.llm_analysis for paper in entries)


def test_seeds_hold_133_claims_each_with_a_quote() -> None:
    claims = [(paper, claim) for paper in all_papers() for claim in paper.claims]
    assert len(claims) == 133
    assert all(claim.text_zh and claim.quote_en for _, claim in claims)
    assert all(paper.kind == KIND_DEEP_READ for paper, _ in claims)


def test_claims_are_numbered_from_one_in_every_deep_read() -> None:
    for paper in all_papers():
        assert [claim.number for claim in paper.claims] == list(range(1, len(paper.claims) + 1))


def test_deep_reads_have_every_section() -> None:
    for paper in all_papers():
        if paper.kind == KIND_DEEP_READ:
            sections = (
                paper.positioning,
                paper.background,
                paper.mechanism,
                paper.experiments,
                paper.novelty,
                paper.soundness,
                paper.significance,
                paper.limitations,
                paper.follow_ups,
            )
            assert all(sections), paper.line


def test_the_ten_named_deep_reads_get_their_names() -> None:
    names = {paper.name for paper in all_papers() if paper.kind == KIND_DEEP_READ}
    assert names - {None} == EXPECTED_NAMES


def test_untitled_papers_always_have_a_subtitle() -> None:
    for paper in all_papers():
        if paper.kind != KIND_HUGGINGFACE:
            assert paper.title is None
            assert paper.subtitle and len(paper.subtitle) <= 120


def test_keys_are_unique_and_positions_follow_the_file() -> None:
    papers = all_papers()
    assert len({paper.key for paper in papers}) == len(papers)
    for seed in seed_files():
        digest = parse_file(seed)
        assert [paper.position for paper in digest.papers] == list(range(1, len(digest.papers) + 1))
        assert [paper.line for paper in digest.papers] == sorted(
            paper.line for paper in digest.papers
        )
