"""Whole files a pipeline mangled or doubled: UTF-8 that a tool read as Windows-1252 (or
Latin-1) and saved again is read as the UTF-8 it was, HTML entities an exporter wrote as
their characters, a paper written twice in one file is read once, and a first line that
writes the date or the header otherwise (in another form, in a title) is read, and a title
before it, HTML tags and soft hyphens left out; each with a warning (soft hyphens aside:
invisible)."""

import codecs
import html
import re
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from jobs.ingest import parse_file
from jobs.parser import DigestParseError, parse_digest
from jobs.parser.deep_read import NOTE
from jobs.parser.text import decode_digest, unmangled
from tests.digests import Entry, huggingface_digest
from tests.parser.summary import seed_files
from tests.parser.test_boundaries import assert_same_papers, papers

MOJIBAKE = (
    "line 1: the file's text is UTF-8 that was read as Windows-1252 (or Latin-1) and saved "
    "again: read as the UTF-8 it was"
)


def _as_windows_tools_read(error: UnicodeError) -> tuple[str, int]:
    # Windows-1252 leaves 0x81, 0x8D, 0x8F, 0x90 and 0x9D undefined; Windows keeps them as
    # the C1 characters of the same numbers.
    assert isinstance(error, UnicodeDecodeError)
    return "".join(map(chr, error.object[error.start : error.end])), error.end


codecs.register_error("test-c1", _as_windows_tools_read)


@pytest.mark.parametrize("seed", seed_files(), ids=lambda path: path.name)
@pytest.mark.parametrize("misread", ["cp1252", "latin-1"])
def test_utf8_misread_as_a_western_encoding_is_read_as_it_was(seed: Path, misread: str) -> None:
    text = seed.read_text(encoding="utf-8")
    mangled = text.encode("utf-8").decode(misread, errors="test-c1")
    assert mangled != text

    digest, original = parse_digest(mangled), parse_digest(text)

    assert digest.papers == original.papers
    assert [str(w) for w in digest.warnings] == [MOJIBAKE, *map(str, original.warnings)]


@pytest.mark.parametrize("seed", seed_files(), ids=lambda path: path.name)
def test_utf8_misread_by_two_tools_in_a_row_is_read_as_it_was(seed: Path) -> None:
    """Two tools in a row that each read UTF-8 as Windows-1252 and saved it again: both
    layers are undone, with the one warning."""
    text = seed.read_text(encoding="utf-8")
    once = text.encode("utf-8").decode("cp1252", errors="test-c1")
    twice = once.encode("utf-8").decode("cp1252", errors="test-c1")

    digest, original = parse_digest(twice), parse_digest(text)

    assert digest.papers == original.papers
    assert [str(w) for w in digest.warnings] == [MOJIBAKE, *map(str, original.warnings)]


def test_a_claim_pasted_from_a_garbled_view_among_real_chinese_is_mended() -> None:
    """One claim's statement pasted from a view that read UTF-8 as Windows-1252, in a file
    otherwise Chinese as written: that line is read as the UTF-8 it was, with a warning."""
    seed = seed_files()[0]
    lines = seed.read_text(encoding="utf-8").split("\n")
    at = next(i for i, line in enumerate(lines) if line.startswith("1. "))
    lines[at] = lines[at].encode("utf-8").decode("cp1252", errors="test-c1")
    original = parse_digest(seed.read_text(encoding="utf-8"))

    digest = parse_digest("\n".join(lines))

    assert digest.papers == original.papers
    assert str(digest.warnings[0]) == (
        f"line {at + 1}: the text of lines {at + 1} is UTF-8 that was read as Windows-1252 "
        "(or Latin-1) and saved again: read as the UTF-8 it was"
    )


def test_a_claim_pasted_from_a_garbled_view_that_lost_bytes_warns_on_its_line() -> None:
    """The same paste by a tool that dropped the bytes Windows-1252 lacks: the line cannot
    be read back, and it stays as it is (the rest of the file loads), with a warning on its
    line, where it was stored in silence."""
    seed = seed_files()[0]
    lines = seed.read_text(encoding="utf-8").split("\n")
    ats = [i for i, line in enumerate(lines) if re.match(r"[0-9]+\. ", line)][:3]
    for at in ats:
        lines[at] = lines[at].encode("utf-8").decode("cp1252", errors="ignore")
    assert all(lines[at].encode("cp1252").decode("utf-8", "replace").count("\ufffd") for at in ats)

    digest = parse_digest("\n".join(lines))

    assert len(digest.papers) == len(parse_digest(seed.read_text(encoding="utf-8")).papers)
    assert [w.line for w in digest.warnings if "losing bytes on the way" in w.message] == [
        at + 1 for at in ats
    ]


LISTS = [seed for seed in seed_files() if "中文摘要" in seed.read_text(encoding="utf-8")]


@pytest.mark.parametrize("seed", LISTS, ids=lambda path: path.name)
def test_chinese_fields_fetched_as_latin1_into_a_chinese_template_are_mended(seed: Path) -> None:
    """A pipeline that fetched its Chinese as Latin-1 and wrote it after labels of its own
    (`摘要：`, `中文摘要`, as written): every run of mojibake between real Chinese is read
    back, and the digest reads as the original does."""
    text = seed.read_text(encoding="utf-8")
    labels = re.compile("(摘要：|中文摘要|数据来源：|Q: )")
    mangled = "\n".join(
        "".join(
            piece if labels.fullmatch(piece) else piece.encode().decode("latin-1")
            for piece in labels.split(line)
        )
        for line in text.split("\n")
    )
    assert mangled != text

    digest, original = parse_digest(mangled), parse_digest(text)

    assert digest.papers == original.papers
    assert "read as the UTF-8 it was" in str(digest.warnings[0])


@pytest.mark.parametrize("misread", ["cp1252", "latin-1"])
def test_a_byte_order_mark_misread_with_the_rest_is_no_text(misread: str) -> None:
    """A file saved with a byte order mark (as Windows Notepad writes UTF-8), then misread:
    the mark becomes `ï»¿` before the date line, and is dropped with the mending."""
    seed = seed_files()[0]
    text = seed.read_text(encoding="utf-8")
    mangled = ("\ufeff" + text).encode("utf-8").decode(misread, errors="test-c1")
    assert mangled.startswith("ï»¿")

    assert parse_digest(mangled).papers == parse_digest(text).papers


def test_a_digest_with_a_mark_mangled_losing_bytes_is_refused_not_skipped() -> None:
    """With its byte order mark garbled too, its first line reads as no date: still a
    mangled digest, refused with the reason (a failure), not skipped as no digest."""
    seed = seed_files()[0]
    text = "\ufeff" + seed.read_text(encoding="utf-8")
    mangled = text.encode("utf-8").decode("cp1252", errors="replace")

    refused = parse_file(mangled.encode("utf-8"))

    assert isinstance(refused, str)
    assert "a tool read as Windows-1252 and saved again" in refused


def test_a_bad_date_line_keeps_its_reason_beside_a_garbled_fragment() -> None:
    """A deep-read digest refused for its date line says so, though a garbled fragment
    (Chinese misread, bytes lost) is all the Chinese it holds: delivering the original
    would not help."""
    garbled = "数据集".encode().decode("cp1252", errors="replace").replace("\ufffd", "?")
    text = f"2026-02-30\n\nWe release LongBench-Zh ({garbled}), long Chinese documents.\n"

    with pytest.raises(DigestParseError) as refused:
        parse_digest(text)

    assert str(refused.value) == "line 1: '2026-02-30' is not a valid date"


@pytest.mark.parametrize(
    "text",
    [
        "A résumé of the café's façade — “naïve” — costs 5 € (½ off, ±2%).",
        "Ã© is how é looks misread; â€œquotedâ€\x9d too.",  # mojibake of Latin, not of CJK
        "ä¸­ but also 中文 already",  # CJK as written: nothing to mend
    ],
)
def test_western_text_is_never_taken_for_mangled_utf8(text: str) -> None:
    """Only a mending that yields CJK is taken: accents, typographic quotes, even mojibake
    of Latin letters are read as written."""
    assert unmangled(text) is None
    assert unmangled("æœ¬æ–‡æ\x8f\x90å‡º") == "本文提出"


@pytest.mark.parametrize("seed", seed_files(), ids=lambda path: path.name)
def test_a_file_written_twice_over_is_read_once(seed: Path) -> None:
    text = seed.read_text(encoding="utf-8")
    head, body = text.split("\n", 1)
    doubled = f"{head}\n{body.rstrip()}\n\n{body}"  # the body again, without its date line

    digest, original = parse_digest(doubled), parse_digest(text)

    assert [p.key for p in digest.papers] == [p.key for p in original.papers]
    assert digest.papers == original.papers
    again = [w for w in digest.warnings if "appears again" in w.message]
    assert len(again) == len(original.papers)
    first_lines = {p.line for p in original.papers}
    assert all(
        int(w.message.split("first at line ")[1].split(")")[0]) in first_lines for w in again
    )


DATE_LINES = [
    "{y}/{m:02}/{d:02}", "{y}.{m}.{d}", "{y}-{m}-{d}", "{y} / {m} / {d}", "{y}年{m}月{d}日",
    "{y}-{m:02}-{d:02} (Mon)", "{y}-{m:02}-{d:02}，星期一", "# {y}-{m:02}-{d:02}",
    "**{y}-{m:02}-{d:02}**", "{y}{m:02}{d:02}", "{y}_{m:02}_{d:02}",
    # The year last, day first or month first (the seeds' days are over 12, or the month).
    "{d:02}/{m:02}/{y}", "{d}.{m}.{y}", "{m:02}/{d:02}/{y}",
    # A title with the date in it, the date in English.
    "论文精读 {y}-{m:02}-{d:02}", "# 论文精读（{y}年{m}月{d}日）", "{y}-{m:02}-{d:02} 论文精读",
    "Deep reads, {month} {d}, {y}", "{mon} {d}, {y}", "{d} {month} {y}", "Mon, {d} {mon} {y}",
]  # fmt: skip
HEADERS = [
    "HuggingFace Papers {y}/{m:02}/{d:02}", "HuggingFace Papers {y}年{m}月{d}日",
    "HuggingFace Papers {y}{m:02}{d:02}",
    "HuggingFace Daily Papers {y}-{m:02}-{d:02}", "# HuggingFace Papers {y}-{m:02}-{d:02}",
    "**HuggingFace Papers** {y}-{m:02}-{d:02}", "Huggingface papers: {y}-{m:02}-{d:02}",
    "HuggingFace Papers — {y}-{m:02}-{d:02} (Mon)",
    "Hugging Face Daily Papers — {month} {d}, {y}", "HF Papers {y}-{m:02}-{d:02}",
    "Daily Papers ({d} {mon} {y})",
]  # fmt: skip
FIRST_LINES = [
    (seed, written)
    for seed in seed_files()
    for written in (HEADERS if seed.read_text().startswith("HuggingFace") else DATE_LINES)
]


@pytest.mark.parametrize(("seed", "written"), FIRST_LINES)
def test_a_first_line_written_otherwise_is_read_with_a_warning(seed: Path, written: str) -> None:
    text = seed.read_text(encoding="utf-8")
    original = parse_digest(text)
    day = original.digest_date
    names = {"month": f"{day:%B}", "mon": f"{day:%b}"}
    first = written.format(y=day.year, m=day.month, d=day.day, **names)
    huggingface = original.format == "huggingface"
    expected = f"'HuggingFace Papers {day}'" if huggingface else "the date as YYYY-MM-DD"
    read_as = f"HuggingFace Papers {day}" if huggingface else f"{day}"

    digest = parse_digest(f"{first}\n{text.split(chr(10), 1)[1]}")

    assert (digest.format, digest.digest_date, digest.papers) == (
        original.format,
        day,
        original.papers,
    )
    assert [str(w) for w in digest.warnings] == [
        f"line 1: the first line should be {expected}, found '{first}'; read as {read_as}",
        *map(str, original.warnings),
    ]


@pytest.mark.parametrize("seed", seed_files(), ids=lambda path: path.name)
def test_html_entities_an_exporter_wrote_are_read_as_their_characters(seed: Path) -> None:
    text = seed.read_text(encoding="utf-8")
    # Named and numeric entities, a line break among them: every line keeps its number.
    escaped = html.escape(text).replace("，", "&#xff0c;", 3).replace("：", "&#65306;", 3)
    escaped = escaped.replace("\n\n", "&#10;\n\n", 1)
    original, digest = parse_digest(text), parse_digest(escaped)

    assert digest.papers == original.papers
    line = escaped.count("\n", 0, escaped.index("&")) + 1
    assert [str(w) for w in digest.warnings] == sorted(
        [
            f"line {line}: the file's text holds HTML entities (`&quot;`, `&amp;`) from here "
            "on: read as the characters they stand for",
            *map(str, original.warnings),
        ],
        key=lambda warning: int(warning.split(":")[0].split()[1]),
    )


TAGGINGS: dict[str, Callable[[str], str]] = {
    "every line a <p>": lambda text: re.sub(r"(?m)^(\s*)(\S.*)$", r"\1<p>\2</p>", text),
    "<br> ending paragraphs": lambda text: text.replace("\n\n", "<br/>\n\n"),
    "labels in <b>": lambda text: re.sub(
        r"(Novelty|Soundness|Significance|Abstract|Authors)([:：])", r"<b>\1</b>\2", text
    ),
    "<span> and <em> inside words": lambda text: text.replace("tion", "t<EM>io</EM>n").replace(
        "模型", '<span class="x">模</span>型'
    ),
}


@pytest.mark.parametrize("seed", seed_files(), ids=lambda path: path.name)
@pytest.mark.parametrize("tagging", TAGGINGS)
def test_html_tags_an_exporter_wrote_are_left_out(seed: Path, tagging: str) -> None:
    text = seed.read_text(encoding="utf-8")
    tagged = TAGGINGS[tagging](text)
    original, digest = parse_digest(text), parse_digest(tagged)

    assert digest.papers == original.papers
    first_tag = re.search(r"<(?:p|br|b|EM|span)\b", tagged)  # the seeds hold `<` as text
    assert first_tag is not None
    line = tagged.count("\n", 0, first_tag.start()) + 1
    assert [str(w) for w in digest.warnings] == sorted(
        [
            f"line {line}: the file's text holds HTML tags (`<br>`, `<p>`, `<b>`) from here on: "
            "left out",
            *map(str, original.warnings),
        ],
        key=lambda warning: int(warning.split(":")[0].split()[1]),
    )


def test_angle_brackets_in_text_are_text() -> None:
    """A quote about reasoning tokens keeps them; an escaped tag is the text it stands for."""
    text = next(s.read_text(encoding="utf-8") for s in seed_files() if "   " in s.read_text())
    written = text.replace("\n   ", "\n   <think> tokens &lt;br&gt; p<0.05 ", 1)

    digest = parse_digest(written)

    quotes = [c.quote_en for paper in digest.papers for c in paper.claims]
    assert any(q.startswith("<think> tokens <br> p<0.05 ") for q in quotes)
    assert "HTML tags" not in " ".join(map(str, digest.warnings))


@pytest.mark.parametrize("seed", seed_files(), ids=lambda path: path.name)
def test_soft_hyphens_from_web_text_are_left_out(seed: Path) -> None:
    text = seed.read_text(encoding="utf-8")
    softened = re.sub(r"([a-z]{3})([a-z]{3})", "\\1\u00ad\\2", text)

    assert softened != text
    assert parse_digest(softened) == parse_digest(text)


DEEP_READ_SEEDS = [seed for seed in seed_files() if not seed.name.startswith("002")]


@pytest.mark.parametrize("seed", DEEP_READ_SEEDS, ids=lambda path: path.name)
@pytest.mark.parametrize(
    "label",
    ["Evidence: ", "**Evidence:** ", "原文：", "【证据】", "EN: ", "原文引用：", "出处："],
)
def test_a_quote_its_template_labelled_is_read_without_the_label(seed: Path, label: str) -> None:
    text = seed.read_text(encoding="utf-8")
    labelled, quotes = re.subn(r"(?<=\n\n)   (?=[A-Za-z])", "   " + label, text)
    original, digest = parse_digest(text), parse_digest(labelled)

    assert digest.papers == original.papers
    warned = [w for w in digest.warnings if "starts with a label" in w.message]
    assert len(warned) == quotes > 0
    assert all(w.message.endswith(f"('{label.strip()}'); read without it") for w in warned)
    assert [w for w in digest.warnings if w not in warned] == list(original.warnings)


@pytest.mark.parametrize("seed", DEEP_READ_SEEDS, ids=lambda path: path.name)
@pytest.mark.parametrize(
    ("dressed", "layout"),
    [(r"   - \1", "a list item"), (r"   *\1*", "italics"), (r"   _\1_", "underscores")],
)
def test_a_quote_set_as_markdown_is_read_without_its_marks(
    seed: Path, dressed: str, layout: str
) -> None:
    """A quote set as a list's item under its claim, or in italics, as a Markdown export
    writes it: the quote without the marks (it is verbatim, and the first keys its
    paper), one warning a quote."""
    text = seed.read_text(encoding="utf-8")
    # (A quote holding `*` or `_` itself is left as it is: its marks cannot be told apart.)
    changed, quotes = re.subn(r"(?<=\n\n)   ([A-Za-z][^\n*_]*)$", dressed, text, flags=re.M)
    original, digest = parse_digest(text), parse_digest(changed)

    assert digest.papers == original.papers, layout
    warned = [w for w in digest.warnings if "is set as Markdown" in w.message]
    assert len(warned) == quotes > 0
    assert [w for w in digest.warnings if w not in warned] == list(original.warnings)


@pytest.mark.parametrize(
    "row", ["English: 44.0 / 75.3 | Chinese: 41.2 / 73.9", "EN: 24.8 | ZH: 22.1 | JA: 19.0"]
)
def test_a_quote_that_is_a_table_row_keeps_its_first_column(row: str) -> None:
    """`English: 44.0 | Chinese: 41.2`: a row of labelled columns, quoted verbatim; its
    first column's name is data, not a label a template put before the quote."""
    seed = DEEP_READ_SEEDS[0].read_text(encoding="utf-8")
    first_quote = re.search(r"(?<=\n\n)   ([A-Za-z].*)", seed)
    assert first_quote is not None
    digest = parse_digest(seed.replace(first_quote[1], row, 1))

    assert row in [claim.quote_en for paper in digest.papers for claim in paper.claims]
    assert not any("starts with a label" in w.message for w in digest.warnings)


@pytest.mark.parametrize("seed", DEEP_READ_SEEDS, ids=lambda path: path.name)
@pytest.mark.parametrize("quotes", ["a line each", "a sentence a line"])
def test_a_plain_text_export_without_blank_lines_or_indentation_reads_every_paper(
    seed: Path, quotes: str
) -> None:
    """What "save as plain text" from a word processor gives: a paragraph a line, no blank
    lines between them, no spaces before the quotes. Most lines end a sentence; the quotes
    (verbatim extracts) and table rows some of them hold need not. A quote pasted from a
    PDF may keep its line breaks: a sentence a line, all of them its quote."""
    text = seed.read_text(encoding="utf-8")
    lines = text.split("\n")
    if quotes == "a sentence a line":  # a quote (indented) broken after each sentence
        lines = [
            piece
            for line in lines
            for piece in (
                re.split(r"(?<=[a-z0-9%][.]) (?=[A-Z])", line) if line.startswith("   ") else [line]
            )
        ]
        assert len(lines) > text.count("\n") + 5
    pasted = "\n".join(lines)
    exported = re.sub(r"\n\n+", "\n", re.sub(r"(?m)^ +", "", pasted))
    original, digest = parse_digest(text), parse_digest(exported)

    assert [replace(paper, line=0) for paper in digest.papers] == [
        replace(paper, line=0) for paper in original.papers
    ]
    claims = sum(len(paper.claims) for paper in original.papers)
    indented = [w for w in digest.warnings if "should be indented" in w.message]
    assert len(indented) == claims


@pytest.mark.parametrize("seed", DEEP_READ_SEEDS, ids=lambda path: path.name)
@pytest.mark.parametrize(
    "title", ["**{n}. {name}**", "论文{n}：{name}", "Paper {n}: {name}", "【{n}】{name}", "{name}"]
)
def test_a_title_over_each_deep_read_is_left_out_and_moves_no_section(
    seed: Path, title: str
) -> None:
    """A line naming the paper before its positioning (a digest's own heading, not markdown)
    belongs to no paper: between two deep reads it was taken for the first one's tail."""
    text = seed.read_text(encoding="utf-8")
    original = parse_digest(text)
    titled = text
    deep_reads = [paper for paper in original.papers if paper.positioning]
    for n, paper in enumerate(deep_reads, 1):
        assert paper.positioning is not None
        at = titled.index(paper.positioning[:20])
        titled = titled[:at] + title.format(n=n, name=paper.name) + "\n\n" + titled[at:]

    digest = parse_digest(titled)

    assert [replace(p, line=0) for p in digest.papers] == [
        replace(p, line=0) for p in original.papers
    ]
    left_out = [w for w in digest.warnings if "belongs to no paper" in w.message]
    assert len(left_out) == len(deep_reads)


# Where a line ends when each sentence, and each list item after a colon, has its own.
SENTENCE_OR_LIST_ITEM = re.compile(
    r"(?<=[。！？])(?=\S)|(?<=[.!?])\s+(?=[A-Z])|(?<=：)(?=\(?[a-h1-9][)）]|[一二三四五六]、)"
)


@pytest.mark.parametrize("seed", DEEP_READ_SEEDS, ids=lambda path: path.name)
def test_a_digest_written_a_sentence_a_line_keeps_its_paragraphs(seed: Path) -> None:
    """Semantic line breaks: each sentence on its own line, blank lines between the
    paragraphs, a list's lead-in ending in a colon. The blank lines say where paragraphs
    end: its lines are not paragraphs, as a plain-text export's are."""
    text = seed.read_text(encoding="utf-8")
    lines = []
    for line in text.split("\n"):
        body = line.lstrip()
        indent = line[: len(line) - len(body)]
        parts = SENTENCE_OR_LIST_ITEM.split(body)
        lines += [indent + part.strip() for part in parts if part.strip()] or [line]
    written = "\n".join(lines)
    assert written.count("\n") > 1.5 * text.count("\n")

    assert_same_papers(papers(written), papers(text))


def test_a_short_last_follow_up_naming_the_next_paper_is_no_title() -> None:
    """A title is the name and little else; a follow-up mentioning the next paper's name
    says more, and stays the paper's."""
    text = (DEEP_READ_SEEDS[0]).read_text(encoding="utf-8")
    digest = parse_digest(text)
    index, following = next(
        (i, paper) for i, paper in enumerate(digest.papers[1:], 1) if paper.positioning
    )
    before = digest.papers[index - 1]
    assert before.follow_ups and following.positioning and following.name
    short = f"跟进方向：把这一验证用于 {following.name} 等方法的输出核查"
    edited = text.replace(before.follow_ups, short)

    again = parse_digest(edited)

    assert again.papers[index - 1].follow_ups == short
    assert [p.name for p in again.papers] == [p.name for p in digest.papers]


@pytest.mark.parametrize("pointer", ["See also: {name}", "另见：{name}"])
def test_a_pointer_to_the_next_paper_at_the_end_of_a_tail_is_no_title(pointer: str) -> None:
    """`See also: X` after a paper's follow-ups names the next paper but numbers none: the
    paper's text, not a title over the next."""
    text = (DEEP_READ_SEEDS[0]).read_text(encoding="utf-8")
    digest = parse_digest(text)
    index = next(i for i, paper in enumerate(digest.papers[1:], 1) if paper.positioning)
    before, following = digest.papers[index - 1], digest.papers[index]
    assert before.follow_ups and following.name
    line = pointer.format(name=following.name)
    edited = text.replace(before.follow_ups, f"{before.follow_ups}\n\n{line}")

    again = parse_digest(edited)

    assert (again.papers[index - 1].follow_ups or "").endswith(line)
    assert not [w for w in again.warnings if "belongs to no paper" in w.message]


@pytest.mark.parametrize("seed", seed_files(), ids=lambda path: path.name)
def test_a_few_bytes_that_are_not_utf8_lose_only_their_characters(seed: Path) -> None:
    """A Windows-1252 quotation mark pasted into UTF-8, and a character cut in two."""
    data = seed.read_bytes()
    at = data.index(b" the ", data.index(b"\n\n"))
    damaged = data[:at] + b" \x93the\x94 " + data[at + 5 :]
    cut = damaged.index("。".encode()) + 1
    damaged = damaged[:cut] + "。".encode()[:2] + damaged[cut:]
    original, digest = parse_digest(data.decode()), parse_digest(decode_digest(damaged))

    assert [(p.key, len(p.claims)) for p in digest.papers] == [
        (p.key, len(p.claims)) for p in original.papers
    ]
    assert "\ufffdthe\ufffd" in repr(digest.papers)
    line = min(damaged.count(b"\n", 0, at), damaged.count(b"\n", 0, cut)) + 1
    assert [str(w) for w in digest.warnings] == sorted(
        [
            f"line {line}: the file's text holds characters lost in encoding from here on "
            "(bytes that are not UTF-8, read as '\ufffd')",
            *map(str, original.warnings),
        ],
        key=lambda warning: int(warning.split(":")[0].split()[1]),
    )


def test_a_control_heavy_file_with_stray_bytes_is_still_refused_as_binary() -> None:
    with pytest.raises(DigestParseError, match="binary"):
        decode_digest(b"2026-01-01\n" + b"\x01\x02\x03 " * 200 + b"\x93x\x94")


def test_a_dated_line_over_no_paper_keeps_its_old_error() -> None:
    with pytest.raises(DigestParseError, match="'2026-09-28 meeting' is not a date"):
        parse_digest("2026-09-28 meeting\n\nWe met and read a paper.\n")


def test_a_file_mostly_not_utf8_is_still_refused() -> None:
    text = next(s.read_text(encoding="utf-8") for s in seed_files())
    with pytest.raises(DigestParseError, match=r"not valid UTF-8.*reads as GBK"):
        decode_digest(text.encode("gbk", errors="ignore"))


@pytest.mark.parametrize(
    ("codec", "name", "text"),
    [
        ("big5", "Big5", "2026-09-28\n\n本文提出一種方法。這是繁體的深度閱讀。\n"),
        ("gb18030", "GB18030", "2026-09-28\n\n本文提出𠀀方法，用于深度阅读。\n"),
    ],
)
def test_a_file_in_another_chinese_encoding_is_refused_with_its_name(
    codec: str, name: str, text: str
) -> None:
    with pytest.raises(DigestParseError, match=rf"not valid UTF-8.*reads as {name}: save it"):
        decode_digest(text.encode(codec))


TRADITIONAL_NOTE = "僅依據摘要，無法可靠判斷方法 soundness 與實驗充分性，請以原文為準。"
ENGLISH_NOTES = [
    "(Abstract only; soundness and experimental adequacy cannot be judged reliably - see the "
    "original paper.)",
    "Based on the abstract alone: the method's soundness cannot be judged; refer to the paper.",
    "**Abstract-only review.** Please consult the original for details.",
]


@pytest.mark.parametrize("seed", DEEP_READ_SEEDS, ids=lambda path: path.name)
@pytest.mark.parametrize(
    "dressed", ["（{}）", "**{}**", "*{}*", "注：{}", TRADITIONAL_NOTE, *ENGLISH_NOTES]
)
def test_an_abstracts_note_dressed_in_traditional_script_or_in_english_is_its_note(
    seed: Path, dressed: str
) -> None:
    text = seed.read_text(encoding="utf-8")
    written = text.replace(NOTE, dressed.format(NOTE))
    assert written != text

    assert parse_digest(written).papers == parse_digest(text).papers
    assert parse_digest(written).warnings == parse_digest(text).warnings


@pytest.mark.parametrize("seed", DEEP_READ_SEEDS, ids=lambda path: path.name)
def test_a_note_run_onto_its_abstracts_line_is_still_its_note(seed: Path) -> None:
    text = seed.read_text(encoding="utf-8")
    joined, notes = re.subn(rf"\n\n(?={NOTE})", " ", text)
    assert notes > 0
    original, digest = parse_digest(text), parse_digest(joined)

    assert [replace(p, line=0) for p in digest.papers] == [
        replace(p, line=0) for p in original.papers
    ]
    warned = [w for w in digest.warnings if "the note is on the abstract's line" in w.message]
    assert len(warned) == notes
    assert all(joined.split("\n")[w.line - 1].endswith(NOTE) for w in warned)


def test_text_with_an_ampersand_but_no_entity_is_read_as_written() -> None:
    text = next(s.read_text(encoding="utf-8") for s in seed_files())
    written = text.replace("本文", "R&D 与 AT&T；本文", 1)

    digest = parse_digest(written)

    assert "R&D 与 AT&T；本文" in (digest.papers[0].positioning or "")
    assert digest.warnings == parse_digest(text).warnings


@pytest.mark.parametrize("seed", seed_files(), ids=lambda path: path.name)
@pytest.mark.parametrize(
    "before",
    [
        *["# 每日论文精读", "## Daily digest\n\n---", "```text", "***", "每日论文精读"],
        *["Daily digest", "# 论文精读 2026-01-01", "HuggingFace daily digest, January 1, 2026"],
    ],
)
def test_a_title_before_the_first_line_is_left_out_with_a_warning(seed: Path, before: str) -> None:
    text = seed.read_text(encoding="utf-8")
    original, digest = parse_digest(text), parse_digest(f"{before}\n{text}")

    assert (digest.format, digest.digest_date) == (original.format, original.digest_date)
    assert [paper.key for paper in digest.papers] == [paper.key for paper in original.papers]
    assert [p.claims for p in digest.papers] == [p.claims for p in original.papers]
    shift = before.count("\n") + 1
    assert [str(w) for w in digest.warnings] == [
        "line 1: text before the digest's first line (a title, a heading, a rule): left out",
        *(str(replace(w, line=w.line + shift)) for w in original.warnings),
    ]


@pytest.mark.parametrize("seed", seed_files(), ids=lambda path: path.name)
@pytest.mark.parametrize("lost", ["?", "\ufffd", ""])
def test_utf8_misread_with_its_undefined_bytes_lost_is_refused(seed: Path, lost: str) -> None:
    """A tool that writes what Windows-1252 lacks as `?` or `�` (or drops it) loses about
    one Chinese character in seven: such a file is refused with the reason, not loaded
    with garbled or missing Chinese."""
    text = seed.read_text(encoding="utf-8")
    mangled = text.encode("utf-8").decode("cp1252", errors="replace").replace("\ufffd", lost)

    with pytest.raises(DigestParseError) as refused:
        parse_digest(mangled)

    assert str(refused.value) == (
        "line 1: the file's text is UTF-8 that a tool read as Windows-1252 and saved again, "
        "losing the bytes that encoding lacks, so its Chinese cannot be read back whole: "
        "deliver the original file"
    )


def test_a_mangled_fragment_in_english_text_is_read_as_it_is() -> None:
    """A Chinese name pasted, garbled, into an English list (`?` for the bytes Windows-1252
    lacks) is a fragment, not a mangled file: the list loads, the fragment as it is."""
    garbled = "数据集：中文长文本推理基准".encode().decode("cp1252", errors="replace")
    garbled = garbled.replace("\ufffd", "?")
    text = (
        "HuggingFace Papers 2026-10-04\n\n1. LongBench-Zh: A Long-Context Benchmark\n\n"
        f"Abstract:We release LongBench-Zh ({garbled}), long documents for reasoning.\n\n"
        "Authors: José Hernández, Zoë Müller\nArxiv ID: 2610.09999\n"
    )
    digest = parse_digest(text)
    assert [paper.arxiv_id for paper in digest.papers] == ["2610.09999"]
    assert (digest.papers[0].abstract_en or "").startswith("We release LongBench-Zh (æ•°æ?®")


@pytest.mark.parametrize("entries", [1, 2])
@pytest.mark.parametrize("lost", ["?", "\ufffd"])
def test_a_mangled_digest_too_short_to_refuse_for_it_is_refused_for_it(
    entries: int, lost: str
) -> None:
    """A digest of one or two abstract-only entries, mangled losing bytes: each note is one
    line, too few to refuse a file for its mojibake alone. It cannot be read (its notes
    are garbled), and the reason given is the mangling, not a missing note."""
    abstracts = [
        "Large Language Models owe much of their success to next-token prediction.",
        "A reasoning model can improve from its own on-policy experience.",
    ]
    text = "2026-09-09\n\n" + "".join(f"{a}\n\n{NOTE}\n\n" for a in abstracts[:entries])
    parse_digest(text)  # read as delivered, the digest loads
    mangled = text.encode("utf-8").decode("cp1252", errors="replace").replace("\ufffd", lost)

    with pytest.raises(DigestParseError) as refused:
        parse_digest(mangled)

    assert "a tool read as Windows-1252 and saved again" in str(refused.value)


def test_a_list_of_one_entry_mangled_losing_bytes_is_refused() -> None:
    """One entry without an analysis: its Chinese abstract is one line, its label another,
    too few lines to refuse a file for, yet a line that was Chinese is no fragment pasted
    into English. Refused, not loaded with the garbled abstract read as English."""
    abstract = (
        "我们提出一种流式视频交互模型，统一感知、记忆与主动响应，在多个基准上取得领先结果，"
        "并显著降低了响应延迟。"
    )
    text = huggingface_digest("2026-10-05", [Entry("2610.00007", "OneStreamer", chinese=abstract)])
    for other_chinese in (
        "数据来源：HuggingFace Papers\n",
        "LLM Analysis\n\nQ: 这篇论文试图解决什么问题？A: 提高准确率。\n",
    ):
        text = text.replace(other_chinese, "")
    parse_digest(text)  # read as delivered, the list loads
    mangled = text.encode("utf-8").decode("cp1252", errors="replace")

    with pytest.raises(DigestParseError) as refused:
        parse_digest(mangled)

    assert "a tool read as Windows-1252 and saved again" in str(refused.value)


def test_a_list_with_a_garbled_fragment_keeps_its_own_reason_to_be_refused() -> None:
    """A HuggingFace list needs no Chinese: one that cannot be read for another reason
    (its header has no date) says so, though a garbled Chinese name sits in it."""
    garbled = "数据集：中文长文本推理基准".encode().decode("cp1252", errors="replace")
    text = (
        "HuggingFace Papers\n\n1. LongBench-Zh: A Long-Context Benchmark\n\n"
        f"Abstract:We release LongBench-Zh ({garbled.replace(chr(0xFFFD), '?')}).\n\n"
        "Arxiv ID: 2610.09999\n"
    )
    with pytest.raises(DigestParseError) as refused:
        parse_digest(text)

    assert str(refused.value) == (
        "line 1: HuggingFace header has no date: expected 'HuggingFace Papers YYYY-MM-DD'"
    )


@pytest.mark.parametrize("seed", seed_files(), ids=lambda path: path.name)
def test_utf8_misread_as_gbk_and_saved_again_is_refused(seed: Path) -> None:
    """The commonest mix-up of Chinese encodings: UTF-8 opened as GBK (what it cannot read
    written as `�`) and saved again as UTF-8. Valid UTF-8, but wrong Chinese throughout and
    thousands of characters lost: refused with the reason, not loaded as garbage."""
    mangled = seed.read_bytes().decode("gbk", errors="replace")

    with pytest.raises(DigestParseError) as refused:
        parse_digest(decode_digest(mangled.encode("utf-8")))

    assert "characters lost in encoding" in str(refused.value)
    assert "deliver the original file" in str(refused.value)
