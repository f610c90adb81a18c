"""A line with a long run of spaces between the parts a pattern looks for (a first line, a
review label, an analysis's question, a tag) is read in linear time: each pattern gives up on it
at once instead of trying every split of the run (which took minutes, and held up every
ingest behind the file)."""

import time

import pytest

from jobs.parser import DigestParseError, parse_digest
from tests.parser.summary import seed_files

RUN = " " * 100_000
DEEP_READ, HUGGINGFACE = (
    next(s.read_text(encoding="utf-8") for s in seed_files() if s.name.startswith(prefix))
    for prefix in ("004", "002")
)
# A whole parse of a seed takes milliseconds; a pattern that tried every split took minutes.
DEADLINE = 5.0


def _with_line(text: str, line: str, after: str) -> str:
    at = text.index(after) + len(after)
    return f"{text[:at]}\n\n{line}\n\n{text[at:]}"


CASES = {
    "a header with its date far away": f"HuggingFace Papers{RUN}x y z\n\n1. T\n",
    "a date line with text far after it": f"2026-09-09{RUN}x\n\n本文提出 X。\n",
    "a question with its colon far away": _with_line(HUGGINGFACE, f"Q{RUN}1", "摘要："),
    "a label heading with text far after it": _with_line(
        DEEP_READ, f"#{RUN}Novelty{RUN}x", "从审稿角度看"
    ),
    "a tag with its end far away": _with_line(DEEP_READ, f"<b{RUN}>" * 3, "从审稿角度看"),
    "a metadata table's row with its cell far away": _with_line(
        HUGGINGFACE, f"| Authors{RUN}x", "Published:"
    ),
    "a metadata label with its words far apart": _with_line(
        HUGGINGFACE, f"Hugging{RUN}Face{RUN}URL{RUN}x", "Published:"
    ),
    "a metadata table's label with its words far apart": _with_line(
        HUGGINGFACE, f"| Arxiv{RUN}ID{RUN}x", "Published:"
    ),
    "a date line run onto a line far after its sentence's end": (
        f"2026-09-09\n\n本文提出 X。\n\n1. 声明一。\n\n   The quote.\n\n跟进。{RUN}2026-09-10\n"
    ),
    "a claim of ellipses with no quote at its end": (
        "2026-01-01\n\n本文提出 X。\n\n1. 声明一。\n\n   The first quote of it.\n\n"
        f"2. 声明{'…a' * 50_000}中\n\nNovelty：新。\n"
    ),
    "a title with its date far away": f"论文精读{RUN}Sep{RUN}9, 2026\n\n本文提出 X。\n",
}


@pytest.mark.parametrize("text", CASES.values(), ids=CASES.keys())
def test_a_long_run_of_spaces_is_read_in_linear_time(text: str) -> None:
    started = time.perf_counter()
    try:
        digest = parse_digest(text)
    except DigestParseError as error:
        assert str(error).startswith("line ")
    else:
        assert digest.papers
    assert time.perf_counter() - started < DEADLINE


def test_digests_of_the_two_formats_in_turn_cost_a_bounded_number_of_passes() -> None:
    """Each digest of the other format run into a file is read as the rest of the file: a
    file alternating the two formats thousands of times is cut into a few parts, not one a
    turn (which would read the file as many times over, and recurse past Python's limit)."""
    turn = DEEP_READ.rstrip("\n") + "\n\n" + HUGGINGFACE.rstrip("\n") + "\n\n"
    text = turn * 40
    one = time.perf_counter()
    parse_digest(turn)
    once = time.perf_counter() - one
    started = time.perf_counter()
    digest = parse_digest(text)
    assert time.perf_counter() - started < max(DEADLINE, 40 * 6 * once)
    assert {"deep_read", "huggingface"} <= {paper.kind for paper in digest.papers}
