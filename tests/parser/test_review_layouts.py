"""A review laid out another way (each label on a paragraph or a line of its own, as list
items, in bold) is the same review of the same paper: nothing moves into the next one.
Dressed in ways the format does not use (brackets, headings, dashes, both languages), it is
still read, with a warning; a label that cannot be read is a warning, and no text is lost."""

import re
from collections.abc import Callable

import pytest

from jobs.parser import ParsedPaper, parse_digest
from tests.parser.test_boundaries import DEEP_READ_SEEDS, assert_same_papers, papers

_LATER_LABEL = re.compile(r"\s*(Soundness|Significance)：")
LAYOUTS: dict[str, Callable[[str], str]] = {
    "paragraphs": lambda text: _LATER_LABEL.sub(r"\n\n\1：", text),
    "lines": lambda text: _LATER_LABEL.sub(r"\n\1：", text),
    "list items": lambda text: _LATER_LABEL.sub(
        r"\n- \1：", text.replace("\nNovelty：", "\n- Novelty：")
    ),
    "bold labels": lambda text: re.sub(r"(Novelty|Soundness|Significance)：", r"**\1**：", text),
    "bold with colon": lambda text: re.sub(
        r"(Novelty|Soundness|Significance)：", r"**\1：**", text
    ),
}
_CHINESE = {"Novelty": "新颖性", "Soundness": "可靠性", "Significance": "重要性"}
_LABEL = re.compile(r"(Novelty|Soundness|Significance)：")
# Dressings the format does not use: each review is read, with one warning on its line.
DRESSED: dict[str, Callable[[str], str]] = {
    "lenticular brackets": lambda text: _LABEL.sub(r"【\1】", text),
    "square brackets": lambda text: _LABEL.sub(r"[\1] ", text),
    "dashes": lambda text: _LABEL.sub(r"\1 - ", text),
    "em dashes": lambda text: _LABEL.sub(r"\1——", text),
    "both languages": lambda text: _LABEL.sub(
        lambda label: f"{label[1]}（{_CHINESE[label[1]]}）：", text
    ),
    "Chinese first": lambda text: _LABEL.sub(
        lambda label: f"{_CHINESE[label[1]]} ({label[1]})：", text
    ),
    "heading lines": lambda text: _LATER_LABEL.sub(r"\n### \1\n", text).replace(
        "\nNovelty：", "\n### Novelty\n"
    ),
    "heading paragraphs": lambda text: _LATER_LABEL.sub(r"\n\n## \1\n\n", text).replace(
        "\nNovelty：", "\n## Novelty\n\n"
    ),
    "bold lines": lambda text: _LATER_LABEL.sub(r"\n**\1**\n", text).replace(
        "\nNovelty：", "\n**Novelty**\n"
    ),
    "a numbered list": lambda text: re.sub(
        r"(?m)^Novelty：(.*?) Soundness：(.*?) Significance：",
        r"1. Novelty：\1\n2. Soundness：\2\n3. Significance：",
        text,
    ),
}


_OPENS_REVIEW = re.compile(r"(?:\d+\.\s*)?\W*(?:Novelty|新颖性\s*[（(])")


def _review(paper: ParsedPaper) -> tuple[str | None, str | None, str | None]:
    return paper.novelty, paper.soundness, paper.significance


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("seed", range(len(DEEP_READ_SEEDS)))
def test_a_review_laid_out_otherwise_is_the_same_review(seed: int, layout: str) -> None:
    text = DEEP_READ_SEEDS[seed]
    original, changed = papers(text), papers(LAYOUTS[layout](text))

    assert_same_papers(changed, original)
    for key, paper in original.items():
        assert _review(changed[key]) == _review(paper)


@pytest.mark.parametrize("dressing", DRESSED)
@pytest.mark.parametrize("seed", range(len(DEEP_READ_SEEDS)))
def test_a_review_dressed_otherwise_is_read_with_a_warning_on_its_line(
    seed: int, dressing: str
) -> None:
    text = DEEP_READ_SEEDS[seed]
    changed = DRESSED[dressing](text)
    original, digest = papers(text), parse_digest(changed)
    read = {paper.key: paper for paper in digest.papers}

    assert_same_papers(read, original)
    for key, paper in original.items():
        assert _review(read[key]) == _review(paper)
    lines = changed.splitlines()
    reviews = [i + 1 for i, line in enumerate(lines) if _OPENS_REVIEW.match(line)]
    assert [warning.line for warning in digest.warnings] == reviews
    assert all("the review should start with 'Novelty：'" in str(w) for w in digest.warnings)


@pytest.mark.parametrize("label", ["", "Novelty. ", "Novelty 新颖性 "])
def test_a_review_whose_first_label_is_unread_is_known_by_its_later_ones(label: str) -> None:
    """`Novelty：` dropped or written so that it cannot be read: the paragraph's later labels
    (`Soundness：`, `Significance：`) show it is the review. It stays the review (what went
    before its first label read is the novelty), with a warning; it was the limitations."""
    text = DEEP_READ_SEEDS[0]
    first = text.index("\nNovelty：") + 1
    changed = text[:first] + label + text[first + len("Novelty：") :]
    original, digest = papers(text), parse_digest(changed)
    read = {paper.key: paper for paper in digest.papers}

    assert read.keys() == original.keys()
    paper = next(p for p in digest.papers if p.kind == "deep_read")  # the first review's
    before = original[paper.key]
    if not label:
        assert_same_papers(read, original)
    assert (paper.soundness, paper.significance) == (before.soundness, before.significance)
    assert (paper.novelty or "").endswith(before.novelty or "-")
    assert paper.limitations == before.limitations
    line = text[:first].count("\n") + 1
    assert [str(w) for w in digest.warnings] == [
        f"line {line}: the review should start with 'Novelty：'; its other labels (Soundness：, "
        "Significance：) show it is the review: read as the review, its opening as the novelty"
    ]


def _moved_review(text: str, paragraphs_after: int) -> tuple[str, int]:
    """Each review moved after the `paragraphs_after` paragraphs that follow it (its
    limitations, its follow-ups), and how many reviews moved."""
    paragraphs = text.split("\n\n")
    moved = 0
    index = 0
    while index < len(paragraphs):
        if paragraphs[index].startswith("Novelty："):
            end = index + 1 + paragraphs_after
            paragraphs[index:end] = [*paragraphs[index + 1 : end], paragraphs[index]]
            moved += 1
            index = end
        index += 1
    return "\n\n".join(paragraphs), moved


@pytest.mark.parametrize("paragraphs_after", [1, 2], ids=["limitations", "and follow-ups"])
@pytest.mark.parametrize("seed", range(len(DEEP_READ_SEEDS)))
def test_a_review_below_the_limitations_or_follow_ups_is_still_its_papers(
    seed: int, paragraphs_after: int
) -> None:
    """An editor moves a paper's limitations (or its follow-ups too) above its review: the
    same papers, each with its review and the moved paragraphs in its tail, one warning a
    review; the paragraphs before the review made a paper of their own, holding the review."""
    text = DEEP_READ_SEEDS[seed]
    changed, moved = _moved_review(text, paragraphs_after)
    assert moved > 0

    digest = parse_digest(changed)
    assert_same_papers(papers(changed), papers(text))
    for paper in digest.papers:
        original = papers(text)[paper.key]
        assert (_review(paper), paper.limitations, paper.follow_ups) == (
            _review(original),
            original.limitations,
            original.follow_ups,
        )
    warned = [w for w in digest.warnings if "the review comes after" in str(w)]
    assert len(warned) == moved


def test_a_review_after_the_next_papers_opening_is_that_papers() -> None:
    """A paper that lost its review and follow-ups, then a paper of which only the opening
    paragraph came before its review (its claims lost): the review is the second paper's,
    which keeps its name; it is not the first one's review moved below its limitations."""
    text = (
        "2026-01-01\n\n本文提出 FooNet。\n\n背景。\n\n机制。\n\n实验。\n\n"
        "1. 声明一。\n\n   First.\n\n局限：只在一个数据集上验证。\n\n"
        "BarNet 是一篇关于检索增强的论文。\n\n"
        "Novelty：新。 Soundness：稳。 Significance：大。\n\n局限二。\n\n后续二。\n"
    )
    digest = parse_digest(text)

    assert [(p.name, p.novelty) for p in digest.papers] == [("FooNet", None), ("BarNet", "新。")]
    assert not any("the review comes after" in w.message for w in digest.warnings)
