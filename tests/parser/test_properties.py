"""Whatever it is fed, the parser returns a result or raises DigestParseError, never
anything else; and what it returns holds together."""

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from jobs.parser import (
    FORMAT_DEEP_READ,
    KIND_HUGGINGFACE,
    DigestParseError,
    ParsedDigest,
    decode_digest,
    parse_digest,
)
from jobs.parser.text import (
    has_cjk,
    is_cjk,
    lines_starting,
    lost_in_mangling,
    unmangled,
    unmangled_lines,
)
from tests.parser.summary import seed_files

SEED_LINES = [seed.read_text(encoding="utf-8").split("\n") for seed in seed_files()]
# Lines that make the parsers take their structural branches.
FRAGMENTS = sorted(
    {line for lines in SEED_LINES for line in lines[:40]}
    | {
        "",
        "   ",
        "2026-01-01",
        "HuggingFace Papers 2026-01-01",
        "1. 声明一。",
        "2. 声明二。",
        "   An indented quote.",
        "\tA tab-indented quote.",
        "Novelty：新。 Soundness：稳。 Significance：大。",
        "Novelty: only novelty",
        "仅依据摘要，无法可靠判断方法 soundness 与实验充分性，请以原文为准。",
        "本文提出 FooNet-7B（Foo Network for Bar），一个方法。FooNet 是新的。",
        "We introduce ΨNet, a model.",
        "Abstract:An abstract.",
        "中文摘要",
        "摘要：中文。",
        "LLM Analysis",
        "12",
        "、continued",
        "\\*\\*bold\\*\\*",
        "Authors: A,B",
        "Arxiv ID: 2609.35259v2",
        "PDF URL: https://arxiv.org/pdf/2609.35259v3.pdf",
        "Published: not a date",
        "Updated: 2026-10-04",
        # Slips and layouts the parser reads past (numbering, review labels, markdown).
        "5) 声明五。",
        "（3）声明三。",
        "**4.** 声明四。",
        "- Novelty：新。",
        "Soundness：稳。",
        "**Significance**：大。",
        "## 评审",
        "---",
        "1) A Title",
        "**2. Another Title**",
        "Wrapped-",
        "2026-01-02\u200b",
    }
)
MUTATIONS = st.lists(
    st.tuples(
        st.sampled_from(["delete", "duplicate", "swap", "insert", "truncate", "indent"]),
        st.integers(min_value=0),
        st.integers(min_value=0),
        st.text(max_size=30),
    ),
    max_size=8,
)
JOINED = "another digest begins here"
ARXIV_ID = re.compile(r"[0-9]{4}\.[0-9]{4,5}|[a-z][a-z.A-Z-]*/[0-9]{7}")


ONE_LINE = 400  # characters of a reason or a warning, whatever the file holds


def parse_or_refuse(text: str) -> ParsedDigest | None:
    try:
        digest = parse_digest(text)
    except DigestParseError as error:
        assert 0 < len(error.message) <= ONE_LINE
        assert error.line is None or error.line >= 1
        return None
    assert all(len(warning.message) <= ONE_LINE for warning in digest.warnings)
    check_consistent(digest)
    return digest


def check_consistent(digest: ParsedDigest) -> None:
    assert [paper.position for paper in digest.papers] == list(range(1, len(digest.papers) + 1))
    # Papers are of the digest's format, up to a digest of the other format run into it.
    joined = min((w.line for w in digest.warnings if w.message.startswith(JOINED)), default=None)
    for paper in digest.papers:
        if joined is None or paper.line < joined:
            assert (paper.kind == KIND_HUGGINGFACE) == (digest.format != FORMAT_DEEP_READ)
        assert paper.line >= 1
        if paper.arxiv_id is not None:
            assert ARXIV_ID.fullmatch(paper.arxiv_id)
            assert paper.key == f"arxiv:{paper.arxiv_id}"
        else:
            assert re.fullmatch(r"text:[0-9a-f]{20}", paper.key)
        numbers = [claim.number for claim in paper.claims]
        assert numbers == sorted(set(numbers))  # a faulty claim may leave a gap, a warning
        assert all(claim.quote_en for claim in paper.claims)
        # A claim whose statement is lost keeps its quote: never without a warning.
        assert digest.warnings or all(claim.text_zh for claim in paper.claims)
        for moment in (paper.published_at, paper.updated_at):
            assert moment is None or moment.tzinfo is not None


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_random_text(text: str) -> None:
    parse_or_refuse(text)


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(["2026-01-01", "HuggingFace Papers 2026-01-01"]),
    st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=20)), max_size=40),
)
def test_random_lines_in_a_known_format(header: str, lines: list[str]) -> None:
    parse_or_refuse("\n".join([header, *lines]))


@settings(max_examples=100, deadline=None)
@given(
    st.sampled_from(["2026-01-01", "2026/01/01", "01.02.2026", "HuggingFace Papers 2026-01-01"]),
    st.text(st.characters(blacklist_categories=["Cs", "Zl", "Zp", "Cc"]), min_size=80),
)
def test_a_first_line_of_any_length_gets_a_reason_of_one_line(head: str, rest: str) -> None:
    """A file flattened onto its first line (its newlines lost on the way) is quoted in
    part: the reason stays one line."""
    parse_or_refuse(f"{head} {rest}\n\n1. 声明。\n\n   A quote.\n")


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(range(len(SEED_LINES))), MUTATIONS)
def test_mutated_seeds(seed: int, mutations: list[tuple[str, int, int, str]]) -> None:
    lines = list(SEED_LINES[seed])
    for operation, first, second, text in mutations:
        if not lines:
            break
        i, j = first % len(lines), second % len(lines)
        if operation == "delete":
            del lines[i]
        elif operation == "duplicate":
            lines.insert(i, lines[i])
        elif operation == "swap":
            lines[i], lines[j] = lines[j], lines[i]
        elif operation == "insert":
            lines.insert(i, text)
        elif operation == "truncate":
            lines[i] = lines[i][: second % (len(lines[i]) + 1)]
            del lines[i + 1 :]
        else:
            lines[i] = "   " + lines[i]
    parse_or_refuse("\n".join(lines))


@settings(max_examples=300, deadline=None)
@given(st.binary())
def test_random_bytes(data: bytes) -> None:
    try:
        text = decode_digest(data)
    except DigestParseError as error:
        assert error.message
        return
    assert text.strip()
    parse_or_refuse(text)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.text(alphabet=" \t\u3000#*hHx0", max_size=6), max_size=12),
    st.integers(0, 14),
    st.lists(st.text(alphabet="#*hH0", min_size=1, max_size=2), min_size=1, max_size=3),
)
def test_lines_starting_are_the_lines_a_test_of_each_finds(
    lines: list[str], start: int, starts: list[str]
) -> None:
    # The whole-file scans for headers look only at these lines.
    wanted = [i for i in range(start, len(lines)) if lines[i].strip().startswith(tuple(starts))]
    assert list(lines_starting(lines, start, tuple(starts))) == wanted


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from("本文提出显存延迟模型推理的基准 .,?:1aZ\n"), max_size=80))
def test_chinese_misread_as_windows_1252_is_mended_whole_or_not_at_all(text: str) -> None:
    """Chinese that a tool read as Windows-1252 and saved again is read back as it was, or
    not mended at all: never into other text, never when bytes were lost (what
    Windows-1252 lacks, written as `?`), and bytes are never said to be lost when none were."""
    misread = text.encode().decode("cp1252", errors="replace")
    lost = "\ufffd" in misread
    mangled = misread.replace("\ufffd", "?")
    try:
        mended = unmangled(mangled)
    except DigestParseError:
        mended = None  # refused: too much of it lost to read the rest
    assert mended in (None, text)
    assert not (lost and mended)
    assert lost or not lost_in_mangling(mangled)
    if not has_cjk(text):
        assert mended is None and not lost_in_mangling(mangled)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.text(alphabet=st.sampled_from("本文提出显存延迟 .,:1aZ"), max_size=30), st.booleans()
        ),
        min_size=1,
        max_size=12,
    )
)
def test_lines_misread_beside_real_chinese_read_back_as_they_were(
    lines: list[tuple[str, bool]],
) -> None:
    """Lines misread as Latin-1 among lines as written: once one of them held Chinese,
    every one reads back as it was; the lines as written never change."""
    original = "\n".join(line for line, _ in lines)
    mangled = "\n".join(
        line.encode().decode("latin-1") if misread else line for line, misread in lines
    )
    read, mended = unmangled_lines(mangled)
    if any(misread and has_cjk(line) for line, misread in lines):
        assert read == original
    else:
        assert read == mangled and not mended
    assert all(misread for index, (_, misread) in enumerate(lines) if index + 1 in mended)


@settings(max_examples=300, deadline=None)
@given(
    st.text(
        alphabet=st.sampled_from("本文a Z1\n\t\r\x01\x02\x07\x0e\x1b\x7f\x85\u2028é"), min_size=1
    ),
    st.sampled_from(["utf-8", "utf-8-sig", "utf-16"]),
)
def test_a_text_is_refused_as_binary_by_its_share_of_control_characters(
    text: str, encoding: str
) -> None:
    """Counted over the bytes for UTF-8 and over the text otherwise: the same verdict."""
    controls = len(re.findall(r"[\x01-\x08\x0e-\x1f\x7f]", text))
    try:
        decoded = decode_digest(text.encode(encoding))
    except DigestParseError as error:
        assert "binary" in error.message or not text.strip(), error.message
        assert controls > len(text) * 0.1 or not text.strip()
        return
    assert decoded == text
    assert controls <= len(text) * 0.1


@given(st.text())
def test_a_text_has_cjk_when_one_of_its_characters_is(text: str) -> None:
    assert has_cjk(text) == any(map(is_cjk, text))
