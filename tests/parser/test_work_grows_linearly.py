"""A file is read in work proportional to its size, whatever its paragraphs repeat: eight
times the paragraphs cost at most about eight times the work. A step that went through a
paper's claims again for each of its claims made a file of 50,000 quotes take a quarter of
an hour (0.7 MB, far under the size cap), held up every ingest behind it and a core with it.

Work is counted as the Python instructions a parse runs, the same on any machine and under
any load; a step done again for each paragraph over all the others shows as a ratio near
64, a linear one near 8. Work done in C (a search through the text) is not among those
instructions: where it was done for each word, the characters scanned are counted."""

import re
import sys
from collections.abc import Callable
from types import FrameType
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jobs.ingest import parse_file
from jobs.parser import deep_read, naming
from jobs.parser.text import Paragraph
from jobs.selection import Skipped
from tests.parser.summary import seed_files

TIMES = 8
# Measured: 7.7-8.2 times on every shape below and on 300 drawn runs; the steps that went
# through a paper again for each of its paragraphs, 47-53 times.
MOST_GROWTH = 12


def instructions(text: str) -> int:
    """The Python instructions `parse_file` runs on `text`, read as a file's bytes."""
    count = 0

    def trace(frame: FrameType, event: str, _arg: Any) -> Callable[..., Any]:
        nonlocal count
        frame.f_trace_opcodes = True
        count += event == "opcode"
        return trace

    data = text.encode()
    parse_file(data)  # caches filled (tables, word forms) before the count
    before = sys.gettrace()
    sys.settrace(trace)
    try:
        parse_file(data)
    finally:
        sys.settrace(before)
    return count


def growth(file: Callable[[int], str], repeats: int = 50) -> float:
    return instructions(file(TIMES * repeats)) / instructions(file(repeats))


def _sections(paragraph: Callable[[int], str], n: int) -> str:
    return "\n\n".join(map(paragraph, range(n)))


def _deep_read(paragraphs: Callable[[int], str]) -> Callable[[int], str]:
    return lambda n: f"2026-09-09\n\n{_sections(paragraphs, n)}\n"


SHAPES: dict[str, Callable[[int], str]] = {
    "claims all numbered alike": _deep_read(lambda i: f'5. 声明{i}。\n\n   "Quote {i}."'),
    "claims without quotes numbered alike": _deep_read(lambda i: f"3. 声明{i}，别无引文。"),
    "quotes with no claim": _deep_read(lambda i: f'      "q{i}"'),
    "bare numbers alike with their quotes": _deep_read(lambda i: f"5.\n\n   Quote {i} here."),
    "claims numbered on": _deep_read(lambda i: f"{i + 1}. 声明{i}。\n\n   Quote {i} here."),
    "numbered again from 1": _deep_read(lambda i: f"{i % 3 + 1}. 声明{i}。\n\n   Quote {i}."),
    "deep reads one after another": _deep_read(
        lambda i: (
            f"本文提出 M{i}（Model {i}），一个方法。\n\n1. 声明{i}。\n\n   Quote {i}.\n\n"
            f"Novelty：新{i}。 Soundness：稳。 Significance：大。"
        )
    ),
    "entries of a HuggingFace list": lambda n: (
        "HuggingFace Papers 2026-10-04\n\n"
        + "".join(f"{i + 1}. Title {i}\n\nAbstract:Text {i}. We show {i}.\n\n" for i in range(n))
    ),
    "entries all numbered alike": lambda n: (
        "HuggingFace Papers 2026-10-04\n\n"
        + "".join(f"1. Title {i}\n\nAbstract:Text {i}.\n\n" for i in range(n))
    ),
}


@pytest.mark.parametrize("file", SHAPES.values(), ids=SHAPES.keys())
def test_each_structure_many_times_over_is_read_in_linear_work(
    file: Callable[[int], str],
) -> None:
    assert growth(file) <= MOST_GROWTH


def _one_deep_read(
    between: Callable[[int], str], review: str = "Novelty：新。"
) -> Callable[[int], str]:
    """One deep read with `between(i)` paragraphs before its claims, or after its review."""
    head = "2026-09-09\n\n本文提出 X（Ex），一个方法。\n\n"
    claim = '1. 声明一。\n\n   "The first quote."\n\n'
    if review:
        return lambda n: f"{head}{_sections(between, n)}\n\n{claim}{review}\n"
    return lambda n: f"{head}{claim}Novelty：新。\n\n{_sections(between, n)}\n"


RUN_ON = {
    "tables under a section": _one_deep_read(lambda i: f"| a{i} | b |"),
    "formulas under a section": _one_deep_read(lambda i: f"$$x_{i}$$"),
    "a review going on label after label": _one_deep_read(lambda i: f"Soundness：稳{i}。", ""),
}


@pytest.mark.parametrize("file", RUN_ON.values(), ids=RUN_ON.keys())
def test_paragraphs_run_into_one_are_copied_in_linear_work(
    file: Callable[[int], str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Tables and formulas join the section before them, a review's labels the review:
    joined by copying the lines so far at each (in C, unseen by the instruction count),
    thousands of them cost their number squared (64,000 lines: 2.2 s; the size cap, hours).
    Counted here: the lines put into paragraphs."""
    copied = 0

    class Counted(Paragraph):
        def __new__(cls, line: int, lines: tuple[str, ...]) -> Paragraph:  # type: ignore[misc]
            nonlocal copied
            copied += len(lines)
            return Paragraph(line, lines)

    monkeypatch.setattr(deep_read, "Paragraph", Counted)

    def lines_copied(repeats: int) -> int:
        nonlocal copied
        copied = 0
        assert not isinstance(parse_file(file(repeats).encode()), str)
        return copied

    assert lines_copied(TIMES * 400) <= MOST_GROWTH * lines_copied(400)


SEED_PARAGRAPHS = [
    paragraph
    for seed in seed_files()
    for paragraph in re.split(r"\n\s*\n", seed.read_text(encoding="utf-8"))
    if paragraph.strip()
]
PIECES = [
    "1. 声明一。",
    '      "An indented quote."',
    "   中文缩进",
    "5.",
    "五、声明。",
    "- item",
    "Novelty：新。 Soundness：稳。 Significance：大。",
    "Limitations: x",
    "仅依据摘要，无法可靠判断方法 soundness 与实验充分性，请以原文为准。",
    "本文提出 ABC（Alpha Beta C），一个方法。",
    "| a | b |",
    "$$x$$",
    "# 标题",
    "Abstract: text.",
    "2026-09-09",
]
HEADS = ["2026-09-09\n\n", "HuggingFace Papers 2026-10-04\n\n"]


def _varied(paragraph: str, repeat: int, how: str) -> str:
    """The paragraph told apart from its other copies (copies written twice are left out)
    by its first number or, when it has none, by a word at the end of its first line."""
    if how == "number" and re.search(r"\d+", paragraph):
        return re.sub(r"\d+", str(repeat + 1), paragraph, count=1)
    first, _, rest = paragraph.partition("\n")
    return f"{first} v{repeat}" + (f"\n{rest}" if rest else "")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    head=st.sampled_from(HEADS),
    motif=st.lists(
        st.sampled_from(SEED_PARAGRAPHS) | st.sampled_from(PIECES), min_size=1, max_size=4
    ),
    how=st.sampled_from(["number", "word"]),
    between=st.sampled_from(["\n", "\n\n", "\n\n\n"]),
)
def test_any_run_of_paragraphs_many_times_over_is_read_in_linear_work(
    head: str, motif: list[str], how: str, between: str
) -> None:
    def file(repeats: int) -> str:
        copies = (_varied(p, r, how) for r in range(repeats) for p in motif)
        return head + between.join(copies)

    assert growth(file, repeats=40) <= MOST_GROWTH


def names_first(words: int) -> str:
    """A deep read whose first paragraph is nothing but words that look like names."""
    first = "本文提出 " + " ".join(f"Model{i}Net" for i in range(words)) + "，一个方法。"
    review = "Novelty：新。 Soundness：稳。 Significance：大。"
    return f"2026-09-09\n\n{first}\n\n1. 声明一。\n\n   The quote here.\n\n{review}\n"


def test_a_first_paragraph_of_endless_names_is_scanned_a_bounded_number_of_times(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Naming a paper counts each word that looks like a name through its text, in C: work
    the instruction count above does not see. A first paragraph of thousands of such words
    was counted through whole (0.44 MB: 5 s, the size cap: hours); the paper is still named
    by the word it introduces first, and the text read to name it stays bounded."""
    scanned = 0
    mentions = naming._mentions

    def counted(text: str, token: str, *, variants: bool = True) -> int:
        nonlocal scanned
        scanned += len(text)
        return mentions(text, token, variants=variants)

    monkeypatch.setattr(naming, "_mentions", counted)

    def scanned_for(words: int) -> int:
        nonlocal scanned
        scanned = 0
        parsed = parse_file(names_first(words).encode())
        assert not isinstance(parsed, str | Skipped)
        assert parsed.papers[0].fields["name"] == "Model0Net"
        return scanned

    assert scanned_for(40_000) <= 1.2 * scanned_for(20_000)
