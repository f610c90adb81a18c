"""The bundled seeds: the counts PRODUCT.md promises, and names for the untitled papers."""

from collections import Counter
from collections.abc import Callable

import pytest

from jobs.parser import (
    KIND_ABSTRACT_ONLY,
    KIND_DEEP_READ,
    KIND_HUGGINGFACE,
    ParsedPaper,
    parse_digest,
)
from jobs.parser.naming import fallback_name
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


def test_every_deep_read_gets_a_name() -> None:
    names = {paper.name for paper in all_papers() if paper.kind == KIND_DEEP_READ}
    # The two that introduce no method are named by the acronym or the quoted term
    # their positioning defines.
    assert names == EXPECTED_NAMES | {"CFM", "自主数学发现"}


def test_untitled_papers_always_have_a_subtitle_and_a_name_or_title() -> None:
    for paper in all_papers():
        if paper.kind != KIND_HUGGINGFACE:
            assert paper.subtitle and len(paper.subtitle) <= 120
            assert (paper.name is None) != (paper.title is None)
            assert paper.title is None or len(paper.title) <= 80


def test_an_abstract_without_a_name_is_titled_by_its_first_sentence() -> None:
    titles = {paper.title for paper in all_papers() if paper.kind == KIND_ABSTRACT_ONLY}
    assert titles == {
        None,
        "Reinforcement learning has become a central component of large language model…",
        "Audio-video diffusion models rely on cross-modal attention to coordinate text…",
    }


@pytest.mark.parametrize(
    ("positioning", "name"),
    [
        ("本文系统介绍“因果基础模型”（Causal Foundation Models, CFMs）这一范式。CFM 很快。", "CFM"),
        ("本文研究图检索增强生成（GraphRAG）在长文档上的表现。", "GraphRAG"),
        ("本文定位于“自主数学发现”这一新问题：现有系统解决固定目标。", "自主数学发现"),
        ("本文是一篇关于长上下文评测的综述，覆盖多个基准。", "关于长上下文评测的综述"),
    ],
)
def test_a_deep_read_that_introduces_no_method_is_named_from_its_text(
    positioning: str, name: str
) -> None:
    assert fallback_name(positioning, positioning) == name


def test_keys_are_unique_and_positions_follow_the_file() -> None:
    papers = all_papers()
    assert len({paper.key for paper in papers}) == len(papers)
    for seed in seed_files():
        digest = parse_file(seed)
        assert [paper.position for paper in digest.papers] == list(range(1, len(digest.papers) + 1))
        assert [paper.line for paper in digest.papers] == sorted(
            paper.line for paper in digest.papers
        )


@pytest.mark.parametrize("hyphen", ["\u2010", "\u2011", "\u2012", "\u2013", "\u2212", "\ufe63"])
def test_a_name_copied_with_another_hyphen_is_the_same_name(hyphen: str) -> None:
    """`AV‐GRPO` as a copy from a PDF or LaTeX writes it: not `GRPO`, the method it
    improves on, but the name the file gives it with `-`, and so its addresses."""
    seed = next(seed for seed in seed_files() if seed.name.startswith("000"))
    text = seed.read_text(encoding="utf-8")
    assert "AV-GRPO" in text

    names = [
        paper.name for paper in parse_digest(text.replace("AV-GRPO", f"AV{hyphen}GRPO")).papers
    ]

    assert names == [paper.name for paper in parse_file(seed).papers]
    assert "AV-GRPO" in names


COPIED_WITH_INVISIBLES: dict[str, Callable[[str], str]] = {
    "isolates (a web page's <bdi>)": lambda name: f"\u2068{name}\u2069",
    "an embedding": lambda name: f"\u202a{name}\u202c",
    "an override": lambda name: f"\u202d{name}\u202c",
    "a non-joiner inside": lambda name: f"{name[:2]}\u200c{name[2:]}",
    "a joiner inside": lambda name: f"{name[:2]}\u200d{name[2:]}",
}


@pytest.mark.parametrize("copy", COPIED_WITH_INVISIBLES.values(), ids=COPIED_WITH_INVISIBLES)
@pytest.mark.parametrize("name", ["AV-GRPO", "X-Planner", "Hunyuan-A13B"])
def test_a_name_copied_with_invisible_characters_is_the_same_name(
    copy: Callable[[str], str], name: str
) -> None:
    """Direction controls and joiners a copy from a web page or an office document leaves
    around or inside a name: the same names (not `提出 X-Planner`, or the paper named by its
    title), and so the same addresses."""
    seed = next(seed for seed in seed_files() if seed.name.startswith("000"))
    text = seed.read_text(encoding="utf-8")
    assert name in text

    names = [paper.name for paper in parse_digest(text.replace(name, copy(name))).papers]

    assert names == [paper.name for paper in parse_file(seed).papers]


def test_a_name_typed_full_width_where_it_is_introduced_is_the_same_name() -> None:
    """`ＧＡＰＯ 是…`, `本文提出 ＥＮＥＡＳ（…）` (a Chinese input method left in full-width mode
    for the first mention): the papers keep the names, and so their addresses."""
    deep_reads = next(seed for seed in seed_files() if seed.name.startswith("004"))
    text = deep_reads.read_text(encoding="utf-8")
    wide = str.maketrans({c: chr(ord(c) + 0xFEE0) for c in "GAPOENS"})
    for opening in ("GAPO 是一篇", "本文提出 ENEAS（"):
        assert text.count(opening) == 1
        text = text.replace(opening, opening.translate(wide))

    names = [paper.name for paper in parse_digest(text).papers]

    assert names == [paper.name for paper in parse_file(deep_reads).papers]
    assert {"GAPO", "ENEAS"} <= set(names)


def test_a_name_cue_written_without_its_de_names_the_paper_the_same() -> None:
    """`AV-GRPO 核心主张是` for `AV-GRPO 的核心主张是`: Chinese often leaves the 的 out."""
    seed = next(seed for seed in seed_files() if seed.name.startswith("000"))
    text = seed.read_text(encoding="utf-8")
    assert text.count("AV-GRPO 的核心主张是") == 1

    names = [
        p.name
        for p in parse_digest(text.replace("AV-GRPO 的核心主张是", "AV-GRPO 核心主张是")).papers
    ]

    assert names == [paper.name for paper in parse_file(seed).papers]
    assert "AV-GRPO" in names
