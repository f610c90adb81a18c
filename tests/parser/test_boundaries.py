"""Deep-read boundaries come from the structure, not from blank lines: extra or missing
blank lines, leading spaces, split paragraphs, markdown headings or rules between
paragraphs and quotes set as markdown blockquotes never change which papers a file holds,
their keys, their claims, or which paper a paragraph belongs to."""

import itertools
import re
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from jobs.parser import KIND_DEEP_READ, ParsedDigest, ParsedPaper, deep_read, parse_digest
from tests.parser.summary import seed_files

DEEP_READ_SEEDS = [
    text
    for seed in seed_files()
    if not (text := seed.read_text(encoding="utf-8")).startswith("HuggingFace")
]
_PROSE_SECTIONS = (
    "positioning",
    "background",
    "mechanism",
    "experiments",
    "limitations",
    "follow_ups",
)
_SENTENCE_END = re.compile(r"(?<=[。；])")
_CHINESE_PROSE = re.compile(r"[\u4e00-\u9fff]")
_NUMBERED = re.compile(r"[0-9]{1,3}[.．]\s")

# Markdown a pipeline may leave between paragraphs.
HEADINGS = [
    "## 评审",
    "# AV-GRPO",
    "---",
    "### 局限性与后续方向",
    "***",
    "#",
    "```",
    "```text",
    "~~~",
]
# How a markdown export may set a quote apart instead of indenting it.
BLOCKQUOTES = ["> ", "> > ", ">\t", "  > "]
_QUOTE_LINE = re.compile(r" {3,}[^\s\u4e00-\u9fff]")  # an indented English line
# How an exporter may dress the review's labels (`Novelty：`), on the review's line or on
# a line of their own: each read as the label.
LABEL_DRESSINGS = ["【{}】", "[{}] ", "{} - ", "{}——", "**{}**：", "\n**{}**\n", "\n### {}\n"]
_REVIEW_LABEL = re.compile(r"\s*(Novelty|Soundness|Significance)：")

EDITS = st.lists(
    st.tuples(
        st.sampled_from(
            [
                "blank lines",
                "no blank line",
                "leading spaces",
                "split",
                "heading",
                "blockquote",
                "dressed labels",
            ]
        ),
        st.integers(min_value=0),
        st.integers(min_value=1, max_value=6),
    ),
    max_size=12,
)


def papers(text: str) -> dict[str, ParsedPaper]:
    digest: ParsedDigest = parse_digest(text)
    return {paper.key: paper for paper in digest.papers}


def text_of(paper: ParsedPaper) -> str:
    """Every prose section of a deep read in order, blank lines and spaces ignored."""
    joined = "".join(getattr(paper, name) or "" for name in _PROSE_SECTIONS)
    return "".join(joined.split())


def is_prose(line: str) -> bool:
    """A Chinese paragraph of a deep read: not a claim, a quote, the review or the note."""
    return (
        bool(_CHINESE_PROSE.search(line))
        and not line.startswith((" ", "Novelty", "仅依据摘要"))
        and not _NUMBERED.match(line)
    )


def edited(text: str, edits: list[tuple[str, int, int]]) -> str:
    lines = text.split("\n")
    for operation, where, size in edits:
        index = where % len(lines)
        line = lines[index]
        if operation == "blank lines":
            lines[index:index] = [""] * size
        elif operation == "no blank line" and not line.strip() and 0 < index < len(lines) - 1:
            del lines[index]  # two paragraphs run together
        elif operation == "heading" and not line.strip():  # between two paragraphs
            lines[index:index] = ["", HEADINGS[size % len(HEADINGS)]]
        elif operation == "blockquote" and _QUOTE_LINE.match(line):
            # The whole quote, as a markdown export writes it: `> ` (or `>`) on every line.
            end = index
            while end < len(lines) and _QUOTE_LINE.match(lines[end]):
                end += 1
            mark = BLOCKQUOTES[size % len(BLOCKQUOTES)]
            lines[index:end] = [mark + piece.strip() for piece in lines[index:end]]
        elif operation == "dressed labels" and _REVIEW_LABEL.match(line):
            dressing = LABEL_DRESSINGS[size % len(LABEL_DRESSINGS)].format(r"\1")
            lines[index] = _REVIEW_LABEL.sub(dressing, line)
        elif operation == "leading spaces" and line.strip() and not line.startswith(" "):
            if line in HEADINGS or line.startswith(">"):  # three would make it a quote's line
                size = min(size, 2)
            lines[index] = " " * size + line  # a claim, a paragraph or the review, not a quote
        elif operation == "split" and is_prose(line):
            pieces = [piece for piece in _SENTENCE_END.split(line) if piece]
            if len(pieces) > 1:
                cut = 1 + where % (len(pieces) - 1)
                # The second half keeps a space at times, as a hand-split paragraph does.
                gap = "\n\n" + " " * (size % 2)
                lines[index] = "".join(pieces[:cut]) + gap + "".join(pieces[cut:])
    return "\n".join(lines)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(range(len(DEEP_READ_SEEDS))), EDITS)
def test_blank_lines_missing_or_added_spaces_and_split_paragraphs_change_no_paper(
    seed: int, edits: list[tuple[str, int, int]]
) -> None:
    original = papers(DEEP_READ_SEEDS[seed])
    changed = papers(edited(DEEP_READ_SEEDS[seed], edits))

    assert_same_papers(changed, original)


@pytest.mark.parametrize("seed", range(len(DEEP_READ_SEEDS)))
def test_a_file_without_any_blank_line_holds_the_same_papers(seed: int) -> None:
    text = DEEP_READ_SEEDS[seed]
    run_together = "\n".join(line for line in text.split("\n") if line.strip())

    original, changed = papers(text), papers(run_together)

    assert_same_papers(changed, original)
    assert {key: paper.name for key, paper in changed.items()} == {
        key: paper.name for key, paper in original.items()
    }


def assert_same_papers(changed: dict[str, ParsedPaper], original: dict[str, ParsedPaper]) -> None:
    assert changed.keys() == original.keys()
    for key, paper in original.items():
        assert changed[key].kind == paper.kind
        assert changed[key].claims == paper.claims
        if paper.kind == KIND_DEEP_READ:
            assert text_of(changed[key]) == text_of(paper), paper.name
        else:
            assert changed[key].abstract_en == paper.abstract_en


def test_a_split_limitations_paragraph_stays_with_its_paper() -> None:
    text = next(t for t in DEEP_READ_SEEDS if "非实时。 从审稿角度看" in t)
    split = papers(text.replace("非实时。 从审稿角度看", "非实时。\n\n 从审稿角度看"))
    by_name = {paper.name: paper for paper in split.values()}

    assert len(split) == len(papers(text))
    assert "从审稿角度看" in (by_name["ENEAS"].limitations or "")
    assert (by_name["ENEAS"].follow_ups or "").startswith("论文给出的未来方向")
    assert (by_name["EmbodiedSkills"].positioning or "").startswith("本文的定位不是")


def test_a_split_tail_at_the_end_of_the_file_is_the_last_paper_s() -> None:
    text = (
        "2026-01-01\n\n本文提出 FooNet。\n\n1. 声明一。\n\n   The quote.\n\n"
        "Novelty：新。 Soundness：稳。 Significance：大。\n\n局限。\n\n跟进。\n\n多出来的一段。\n"
    )
    (paper,) = papers(text).values()
    assert (paper.limitations, paper.follow_ups) == ("局限。", "跟进。\n\n多出来的一段。")


def _cut_inside_a_paper_s_text() -> list[tuple[str, str, int, int]]:
    """Each seed cut inside the text of one of its deep reads (after 1 to 4 of its
    paragraphs, before its claims): (seed, cut text, line where that paper opens, papers
    kept whole), for every deep read that a deep read with a review comes before."""
    cuts = []
    for seed in DEEP_READ_SEEDS:
        digest = parse_digest(seed)
        lines = seed.split("\n")
        for before, paper in itertools.pairwise(digest.papers):
            if before.kind != KIND_DEEP_READ or paper.kind != KIND_DEEP_READ or not before.novelty:
                continue
            start = paper.line - 1
            claims = next(i for i in range(start, len(lines)) if _NUMBERED.match(lines[i]))
            ends = [i for i in range(start, claims) if not lines[i].strip()]  # paragraph ends
            for kept in ends[:4]:
                cuts.append((seed, "\n".join(lines[:kept]), paper.line, len(digest.papers)))
    return cuts


def test_a_file_cut_inside_a_paper_s_text_leaves_that_text_out_of_the_paper_before() -> None:
    """A file cut short inside a paper's text, before its claims (a transfer broken, a copy
    caught while written): the papers before it are read as in the whole file, the paper
    before it not given the cut one's text for its follow-ups, and the cut is warned on
    the line where that text opens."""
    cuts = _cut_inside_a_paper_s_text()
    assert len(cuts) >= 12
    for seed, text, opens, _ in cuts:
        whole = parse_digest(seed).papers
        digest = parse_digest(text)
        kept = digest.papers
        assert [p.key for p in kept] == [p.key for p in whole[: len(kept)]]
        assert kept[-1] == whole[len(kept) - 1], f"cut before line {opens}"
        warned = [
            w.line for w in digest.warnings if "a paper cut short before its claims" in w.message
        ]
        assert warned == [opens]


@pytest.mark.parametrize(
    "paragraph",
    [
        "本文的实验代码与训练配置尚未公开，复现仍有困难。",
        "This paper's checkpoints are not released.",
    ],
)
def test_a_third_follow_up_at_the_end_is_the_last_paper_s_without_a_warning(paragraph: str) -> None:
    seed = next(t for t in DEEP_READ_SEEDS if parse_digest(t).papers[-1].kind == KIND_DEEP_READ)
    digest = parse_digest(seed.rstrip("\n") + "\n\n" + paragraph + "\n")
    assert (digest.papers[-1].follow_ups or "").endswith(paragraph)
    assert digest.warnings == parse_digest(seed).warnings


@pytest.mark.parametrize("between", ["\n\n", ""], ids=["apart", "first without a newline"])
@pytest.mark.parametrize("huggingface_first", [True, False], ids=["list first", "deep reads first"])
def test_digests_of_both_formats_run_together_hold_both_files_papers(
    huggingface_first: bool, between: str
) -> None:
    """A HuggingFace list and a deep-read digest in one file: each part is read in its own
    format (neither the deep reads taken for the list's footer, nor the list's entries for
    deep reads), the papers dated by the first, with a warning where the second begins.
    Joined by `cat` after a file that ends without a newline, the second's first line runs
    onto the first's last: the deep reads were lost, or the list read as deep reads."""
    listing = next(
        seed.read_text(encoding="utf-8")
        for seed in seed_files()
        if seed.read_text(encoding="utf-8").startswith("HuggingFace")
    )
    first, second = (
        (listing, DEEP_READ_SEEDS[0]) if huggingface_first else (DEEP_READ_SEEDS[0], listing)
    )
    text = first.rstrip("\n") + between + second
    joined = parse_digest(text)
    line = first.rstrip("\n").count("\n") + 1 + between.count("\n")

    assert [p.key for p in joined.papers] == [*papers(first), *papers(second)]
    assert [p.kind for p in joined.papers] == [
        p.kind for p in (*parse_digest(first).papers, *parse_digest(second).papers)
    ]
    lines = text.split("\n")
    assert all(lines[p.line - 1].strip() for p in joined.papers)  # each paper's own line
    [warning] = [w for w in joined.warnings if "another digest begins here" in w.message]
    assert warning.line == line and lines[line - 1].endswith(second.split("\n", 1)[0])


def test_a_list_deep_reads_and_another_list_in_one_file_hold_all_three_files_papers() -> None:
    """Three digests in turn, the second a deep-read digest: its papers were lost, read as
    the first list's footer, because the list's entries went on after it."""
    listing = next(t for t in (s.read_text(encoding="utf-8") for s in seed_files()) if t[0] == "H")
    later = listing.replace(listing.split("\n", 1)[0], "HuggingFace Papers 2026-12-01")
    text = "\n".join([listing, DEEP_READ_SEEDS[0], later])

    assert {p.key for p in parse_digest(text).papers} == {
        *papers(listing),
        *papers(DEEP_READ_SEEDS[0]),
    }


def test_a_date_in_a_list_or_a_list_header_in_a_deep_read_is_no_other_digest() -> None:
    """A date on its own line inside a HuggingFace entry, or a list's header quoted inside
    a deep read, is text: the file is one digest, read as before."""
    listing = next(t for t in map(read, seed_files()) if t.startswith("HuggingFace"))
    entries = listing.split("\nAbstract:")
    dated = "\nAbstract:".join([*entries[:5], "\n2026-09-30\n" + entries[5], *entries[6:]])
    assert [p.key for p in parse_digest(dated).papers] == list(papers(listing))

    deep = DEEP_READ_SEEDS[0]
    quoted = deep.replace("\n\n", "\n\nHuggingFace Papers 2026-10-04\n\n", 3)
    assert list(papers(quoted)) == list(papers(deep))


def read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


@pytest.mark.parametrize("trailing", ["", " \t"], ids=["bare", "trailing spaces"])
@pytest.mark.parametrize("order", [0, 1], ids=["note last", "follow-ups last"])
def test_a_date_line_run_onto_the_last_line_of_the_digest_before_is_a_boundary_too(
    order: int, trailing: str
) -> None:
    """`cat` of a digest that ends without a newline runs the next date line onto its last
    line (`…请以原文为准。2026-09-09`): read as with a newline between, the warning on the
    line the second digest begins on."""
    first, second = DEEP_READ_SEEDS[order], DEEP_READ_SEEDS[1 - order]
    first = first.rstrip("\n") + trailing

    glued, apart = parse_digest(first + second), parse_digest(f"{first}\n{second}")

    assert [replace(p, line=0) for p in glued.papers] == [replace(p, line=0) for p in apart.papers]
    assert len(glued.papers) == len(parse_digest(first).papers) + len(parse_digest(second).papers)
    date, second_date = first.split("\n", 1)[0], second.split("\n", 1)[0]
    assert [str(warning) for warning in glued.warnings] == [
        f"line {first.count(chr(10)) + 1}: another digest begins here ({second_date}): this "
        f"file holds more than one digest, and its papers are all dated {date}"
    ]


@pytest.mark.parametrize(
    "end",
    ["截至 2026-09-09", "跟进。2026/09/09", "跟进。2026-13-45", "版本 1.2026-09-09。"],
    ids=["no sentence end", "not YYYY-MM-DD", "no such date", "not at the end"],
)
def test_a_date_at_the_end_of_a_line_that_is_no_date_line_run_on_is_text(end: str) -> None:
    text = (
        "2026-01-01\n\n本文提出 FooNet。\n\n1. 声明一。\n\n   The quote.\n\n"
        f"Novelty：新。 Soundness：稳。 Significance：大。\n\n局限。\n\n{end}\n"
    )
    digest = parse_digest(text)

    (paper,) = digest.papers
    assert (paper.follow_ups, digest.warnings) == (end, ())


def test_a_quote_set_as_a_markdown_blockquote_is_the_claims_quote() -> None:
    text = (
        "2026-01-01\n\n本文提出 FooNet。\n\n>50 个基准上均有提升。\n\n1. 声明一。\n"
        "> Accuracy rises on every benchmark,\n> from 80% to\n>    > 0.9 on average.\n\n"
        "2. 声明二。\n\n>> Second quote.\n\nNovelty：新。\n"
    )
    digest = parse_digest(text)

    (paper,) = digest.papers
    assert [(c.number, c.quote_en) for c in paper.claims] == [
        (1, "Accuracy rises on every benchmark, from 80% to > 0.9 on average."),
        (2, "Second quote."),
    ]
    assert paper.experiments == ">50 个基准上均有提升。"
    assert digest.warnings == ()


NOTE_PARAGRAPH = "\n\n仅依据摘要，无法可靠判断方法 soundness 与实验充分性，请以原文为准。"
LOST_NOTES = [
    (seed, at)
    for seed, text in enumerate(DEEP_READ_SEEDS)
    for at in range(text.count(NOTE_PARAGRAPH))
]


@pytest.mark.parametrize(("seed", "note"), LOST_NOTES)
def test_an_abstract_whose_note_was_lost_is_still_its_own_entry(seed: int, note: int) -> None:
    """Without its note, an abstract-only entry's English abstract would join the deep read
    before or after it; it is read as the entry it is, with a warning on its line."""
    text = DEEP_READ_SEEDS[seed]
    pieces = text.split(NOTE_PARAGRAPH)
    before, after = NOTE_PARAGRAPH.join(pieces[: note + 1]), NOTE_PARAGRAPH.join(pieces[note + 1 :])
    lost = before + after
    abstract_line = before.count("\n") + 1  # the abstract is the last line before its note

    assert_same_papers(papers(lost), papers(text))
    (warning,) = parse_digest(lost).warnings
    assert warning.message.startswith("abstract has no note after it")
    assert warning.line == abstract_line


@pytest.mark.parametrize("seed", range(len(DEEP_READ_SEEDS)))
def test_abstracts_whose_notes_were_all_lost_are_still_their_own_entries(seed: int) -> None:
    """Every note of a file lost, two abstracts in a row among them (a file's first two
    entries): each whole abstract is still its own entry, each with a warning on its line
    (two in a row were left out as text before the first deep read)."""
    text = DEEP_READ_SEEDS[seed]
    lost = text.replace(NOTE_PARAGRAPH, "")

    assert_same_papers(papers(lost), papers(text))
    warned = [w for w in parse_digest(lost).warnings if w.message.startswith("abstract has no")]
    assert len(warned) == text.count(NOTE_PARAGRAPH) > 0


@pytest.mark.parametrize("seed", range(len(DEEP_READ_SEEDS)))
@pytest.mark.parametrize("opening", ["今日精读：共 8 篇论文，以下为详细评述。", "Daily digest."])
def test_a_digests_opening_line_belongs_to_no_paper(seed: int, opening: str) -> None:
    text = DEEP_READ_SEEDS[seed]
    date, rest = text.split("\n", 1)
    opened = f"{date}\n\n{opening}\n{rest}"

    assert_same_papers(papers(opened), papers(text))
    assert {p.key: p.name for p in parse_digest(opened).papers} == {
        p.key: p.name for p in parse_digest(text).papers
    }
    (warning,) = parse_digest(opened).warnings
    assert (warning.line, warning.message.endswith("left out")) == (3, True)


Replacement = str | Callable[[re.Match[str]], str]
LAYOUTS: dict[str, tuple[re.Pattern[str], Replacement]] = {
    # A claim's number on a line of its own, its text on the next.
    "number on its own line": (re.compile(r"^(\d+)\. ", re.MULTILINE), r"\1.\n"),
    # The quote on the claim's line, after its statement (a joined export).
    "quote on the claim's line": (re.compile(r"^(\d+\. .*)\n\n {3,}(.*)$", re.MULTILINE), r"\1 \2"),
    # ... after a dash or a label, or in full-width brackets.
    "quote on the claim's line after a dash": (
        re.compile(r"^(\d+\. .*)\n\n {3,}(.*)$", re.MULTILINE),
        r"\1 —— \2",
    ),
    "quote on the claim's line after a label": (
        re.compile(r"^(\d+\. .*)\n\n {3,}(.*)$", re.MULTILINE),
        r"\1 原文：\2",
    ),
    "quote on the claim's line in brackets": (
        re.compile(r"^(\d+\. .*)\n\n {3,}(.*)$", re.MULTILINE),
        r"\1（\2）",
    ),
    # Review labels in another case.
    "review labels in lower case": (
        re.compile(r"(Novelty|Soundness|Significance)："),
        lambda m: m[1].lower() + "：",
    ),
    "review labels in upper case": (
        re.compile(r"(Novelty|Soundness|Significance)："),
        lambda m: m[1].upper() + "：",
    ),
}


@pytest.mark.parametrize("seed", range(len(DEEP_READ_SEEDS)))
@pytest.mark.parametrize("layout", LAYOUTS)
def test_claims_and_reviews_laid_out_otherwise_are_read_the_same(seed: int, layout: str) -> None:
    text = DEEP_READ_SEEDS[seed]
    pattern, replacement = LAYOUTS[layout]
    changed = pattern.sub(replacement, text)
    assert changed != text

    assert_same_papers(papers(changed), papers(text))
    reviews = {
        key: (p.novelty, p.soundness, p.significance, p.limitations, p.follow_ups)
        for key, p in papers(text).items()
    }
    assert {
        key: (p.novelty, p.soundness, p.significance, p.limitations, p.follow_ups)
        for key, p in papers(changed).items()
    } == reviews
    assert all("left out" not in w.message for w in parse_digest(changed).warnings)


_STATEMENT = re.compile(r"^\d+\. .*，.*$", re.MULTILINE)  # a claim with a comma to split at
_QUOTE = re.compile(r"^ {3,}\S.*?\. \S.*$", re.MULTILINE)  # a quote of two sentences or more
SPLITS = st.lists(st.tuples(st.booleans(), st.integers(min_value=0)), min_size=1, max_size=6)


def claims_as_read(text: str) -> dict[str, list[tuple[int, str, str]]]:
    """Each paper's claims, spaces aside (a blank line may join two pieces with one)."""
    return {
        key: [(c.number, "".join(c.text_zh.split()), c.quote_en) for c in paper.claims]
        for key, paper in papers(text).items()
    }


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(range(len(DEEP_READ_SEEDS))), SPLITS)
def test_a_claim_split_by_a_blank_line_stays_whole(
    seed: int, splits: list[tuple[bool, int]]
) -> None:
    """A blank line inside a claim's statement, or inside its quote with the rest of the
    quote unindented, neither loses the claim nor starts a paper."""
    text = DEEP_READ_SEEDS[seed]
    statements, quotes = list(_STATEMENT.finditer(text)), list(_QUOTE.finditer(text))
    cuts = set()  # a blank line goes after each; the quote's rest then starts unindented
    for in_quote, pick in splits:
        found = quotes if in_quote else statements
        match = found[pick % len(found)]
        cuts.add(match.start() + match.group().index(". " if in_quote else "，", 4) + 1)
    pieces, last = [], 0
    for at in sorted(cuts):
        pieces += [text[last:at], "\n\n"]
        last = at + (text[at] == " ")
    split = "".join([*pieces, text[last:]])

    assert papers(split).keys() == papers(text).keys()
    assert claims_as_read(split) == claims_as_read(text)
    assert all("left out" not in w.message for w in parse_digest(split).warnings)


@pytest.mark.parametrize("seed", range(len(DEEP_READ_SEEDS)))
def test_a_deep_read_whose_text_was_lost_keeps_its_claims_and_identity(seed: int) -> None:
    """Its positioning, background, mechanism and experiments gone, a deep read is still its
    claims and review: the same paper (its key is its first claim's quote), named from its
    first claim, with a warning."""
    text = DEEP_READ_SEEDS[seed]
    original = next(p for p in parse_digest(text).papers if p.kind == KIND_DEEP_READ)
    prose = (original.positioning, original.background, original.mechanism, original.experiments)
    lost = text
    for paragraph in filter(None, prose):
        assert paragraph + "\n\n" in lost
        lost = lost.replace(paragraph + "\n\n", "", 1)
    digest = parse_digest(lost)

    assert [p.key for p in digest.papers] == [p.key for p in parse_digest(text).papers]
    paper = next(p for p in digest.papers if p.key == original.key)
    assert (paper.claims, paper.novelty) == (original.claims, original.novelty)
    assert paper.positioning is None and paper.name and not paper.name.startswith("text:")
    assert any("read without it, named from its first claim" in w.message for w in digest.warnings)


def _followed_by_a_deep_read() -> list[tuple[int, int]]:
    """(seed, index) of each deep read whose next paper in its file is a deep read too."""
    return [
        (seed, index)
        for seed, text in enumerate(DEEP_READ_SEEDS)
        for index, (paper, after) in enumerate(itertools.pairwise(parse_digest(text).papers))
        if paper.kind == after.kind == KIND_DEEP_READ
    ]


@pytest.mark.parametrize(("seed", "index"), _followed_by_a_deep_read())
@pytest.mark.parametrize(
    "paragraph",
    ["本文的实验代码与训练配置尚未公开，复现仍有困难。", "本文未报告多次运行的方差。"],
)
def test_a_third_follow_up_mid_file_stays_with_its_paper(
    seed: int, index: int, paragraph: str
) -> None:
    """A third paragraph after a review that starts `本文…` the way a limitation does stays
    with its paper: the next paper keeps its text and name."""
    text = DEEP_READ_SEEDS[seed]
    before = parse_digest(text).papers
    paper = before[index]
    assert paper.follow_ups and paper.follow_ups in text
    digest = parse_digest(text.replace(paper.follow_ups, f"{paper.follow_ups}\n\n{paragraph}", 1))

    assert [(p.key, p.name, p.positioning) for p in digest.papers if p.key != paper.key] == [
        (p.key, p.name, p.positioning) for p in before if p.key != paper.key
    ]
    edited_paper = next(p for p in digest.papers if p.key == paper.key)
    assert (edited_paper.follow_ups or "").endswith(paragraph)


def _as_numbered_list(paragraph: str, style: str) -> str:
    """The paragraph as an introduction and a numbered list, an item a paragraph."""
    sentences = [s for s in _SENTENCE_END.split(paragraph) if s.strip()]
    items = [f"{style.format(n)}{s.strip()}" for n, s in enumerate(sentences[1:], 1)]
    return "\n\n".join([sentences[0], *items])


def _deep_reads_with(section: str) -> list[tuple[int, int]]:
    """(seed, index) of each deep read whose `section` holds three sentences or more."""
    return [
        (seed, index)
        for seed, text in enumerate(DEEP_READ_SEEDS)
        for index, paper in enumerate(parse_digest(text).papers)
        if len(_SENTENCE_END.split(getattr(paper, section) or "")) > 3
        and getattr(paper, section) in text.split("\n")
    ]


@pytest.mark.parametrize("section", ["follow_ups", "limitations", "mechanism"])
@pytest.mark.parametrize("style", ["{}. ", "{}、"])
def test_a_section_written_as_a_numbered_list_stays_its_papers_text(
    section: str, style: str
) -> None:
    """Numbered items, one a paragraph, in a paper's text or after its review are no claims:
    every paper keeps its key, name, claims and review, and the list, its opening paragraph
    with it, stays the section it was written as."""
    cases = _deep_reads_with(section)
    assert cases
    for seed, index in cases:
        text = DEEP_READ_SEEDS[seed]
        before = parse_digest(text).papers
        paragraph = getattr(before[index], section)
        digest = parse_digest(text.replace(paragraph, _as_numbered_list(paragraph, style), 1))

        def summary(papers: tuple[ParsedPaper, ...]) -> list[tuple[object, ...]]:
            return [(p.key, p.name, p.claims, p.novelty, p.positioning) for p in papers]

        assert summary(digest.papers) == summary(before), (seed, index)
        listed = _as_numbered_list(paragraph, style)
        assert getattr(digest.papers[index], section) == listed, (seed, index)


@pytest.mark.parametrize(("seed", "index"), _followed_by_a_deep_read())
def test_a_follow_up_list_before_a_paper_of_one_paragraph_stays_with_its_paper(
    seed: int, index: int
) -> None:
    """Follow-ups written as a numbered list, then a paper whose only text is its
    positioning: the items stay the follow-ups, the next paper keeps its name."""
    text = DEEP_READ_SEEDS[seed]
    before = parse_digest(text).papers
    paper, after = before[index], before[index + 1]
    if not paper.follow_ups or len(_SENTENCE_END.split(paper.follow_ups)) < 3:
        pytest.skip("follow-ups of fewer than two sentences make no list")
    edited_text = text.replace(paper.follow_ups, _as_numbered_list(paper.follow_ups, "{}. "), 1)
    for section in (after.background, after.mechanism, after.experiments):
        if section:
            edited_text = edited_text.replace(section + "\n\n", "", 1)
    digest = parse_digest(edited_text)

    assert [(p.key, p.name) for p in digest.papers] == [(p.key, p.name) for p in before]
    listed = digest.papers[index].follow_ups or ""
    assert all(s.strip() in listed for s in _SENTENCE_END.split(paper.follow_ups))
    assert digest.papers[index + 1].positioning == after.positioning


_SENTENCE_BREAK = re.compile(r"(?<=[.!?]) (?=[A-Z])")
ABSTRACT_SPLITS: dict[str, Callable[[list[str]], list[str]]] = {
    "after its first sentence": lambda s: [s[0], " ".join(s[1:])],
    "before its last sentence": lambda s: [" ".join(s[:-1]), s[-1]],
    "a sentence a paragraph": lambda s: s,
}


def _after_notes(paragraphs: list[str]) -> list[int]:
    """Where the notes of abstract-only entries right after another such entry are."""
    note = NOTE_PARAGRAPH.strip()
    return [i for i in range(2, len(paragraphs)) if note == paragraphs[i] == paragraphs[i - 2]]


@pytest.mark.parametrize("split", ABSTRACT_SPLITS.values(), ids=ABSTRACT_SPLITS)
def test_an_abstract_split_by_blank_lines_is_still_one_entry(
    split: Callable[[list[str]], list[str]],
) -> None:
    """Blank lines put between the sentences of an abstract-only entry's abstract, after
    the entry before's note: the same papers, the same abstracts, a warning each. The
    first pieces were an entry of their own, a paper too many."""
    text = next(t for t in DEEP_READ_SEEDS if _after_notes(t.split("\n\n")))
    paragraphs = text.split("\n\n")
    after_notes = _after_notes(paragraphs)
    for index in after_notes:
        sentences = _SENTENCE_BREAK.split(paragraphs[index - 1])
        assert len(sentences) > 2
        paragraphs[index - 1] = "\n\n".join(split(sentences))
    changed = "\n\n".join(paragraphs)

    assert_same_papers(papers(changed), papers(text))
    added = set(parse_digest(changed).warnings) - set(parse_digest(text).warnings)
    assert [w.message.startswith("blank lines split this abstract") for w in added] == [True] * len(
        after_notes
    )


ENGLISH_FOLLOW_UPS = (
    "Future work: replace the per-task experts with one shared policy and test it on real robots."
)


@pytest.mark.parametrize("seed", range(len(DEEP_READ_SEEDS)))
def test_english_before_an_abstract_is_not_taken_for_a_piece_of_it(seed: int) -> None:
    """A deep read's last section written in English, or a preamble line after the date,
    right before an abstract-only entry: they stay what they were (the deep read's, or left
    out with a warning); joined to the abstract, they would change its text and its key."""
    text = DEEP_READ_SEEDS[seed]
    paragraphs = text.split("\n\n")
    note = NOTE_PARAGRAPH.strip()
    # The English abstract of an entry right after a deep read (its paragraph before is
    # Chinese), and the first paragraph after the date.
    after_deep_read = [
        i for i in range(2, len(paragraphs)) if paragraphs[i] == note and paragraphs[i - 2] != note
    ]
    for index in reversed(after_deep_read):
        paragraphs.insert(index - 1, ENGLISH_FOLLOW_UPS)
    paragraphs.insert(1, "Daily digest generated automatically by the pipeline for the group.")
    changed = "\n\n".join(paragraphs)

    for key, paper in papers(changed).items():
        original = papers(text)[key]  # the same papers: no key changed
        assert paper.abstract_en == original.abstract_en


@given(data=st.data())
@settings(max_examples=40, deadline=None)
def test_a_paragraph_written_twice_in_a_row_is_read_once(data: st.DataObject) -> None:
    """Any paragraph of a deep-read digest pasted again right after itself (a review, a
    claim's quote, a section): the same papers, and a warning at the copy. A review twice
    was a paper without text, which took its paper's limitations and follow-ups with it."""
    text = data.draw(st.sampled_from(DEEP_READ_SEEDS))
    paragraphs = text.split("\n\n")
    at = data.draw(st.integers(1, len(paragraphs) - 1))  # not the date line
    changed = "\n\n".join([*paragraphs[: at + 1], paragraphs[at], *paragraphs[at + 1 :]])

    assert_same_papers(papers(changed), papers(text))
    added = set(parse_digest(changed).warnings) - set(parse_digest(text).warnings)
    assert [w.message.startswith("this paragraph repeats the one at line") for w in added] == [True]


def test_a_whole_deep_read_digest_is_not_taken_for_a_cut_one() -> None:
    for text in DEEP_READ_SEEDS:
        assert not [w for w in parse_digest(text).warnings if "ends mid-sentence" in w.message]


@given(data=st.data())
@settings(max_examples=40, deadline=None)
def test_a_deep_read_digest_cut_inside_a_word_says_so(data: st.DataObject) -> None:
    """A file cut while written or copied, inside a word of a deep read's claim, quote or
    section: what it holds loads, with a warning at its last line that it looks cut short,
    where it loaded in silence. (An abstract-only entry's abstract is cut mid-word by the
    format itself: a cut there is no sign.)"""
    text = data.draw(st.sampled_from(DEEP_READ_SEEDS))
    inside_words = [i for i in range(len(text) // 4, len(text)) if text[i - 1 : i + 1].isalpha()]
    cut = text[: data.draw(st.sampled_from(inside_words))]

    digest = parse_digest(cut)

    assume(digest.papers[-1].kind == KIND_DEEP_READ)
    [warning] = [w for w in digest.warnings if "ends mid-sentence" in w.message]
    assert warning.line == cut.count("\n") + 1


@pytest.mark.parametrize("lost", ["limitations", "follow_ups"])
def test_a_deep_read_that_lost_one_of_its_last_two_sections_keeps_the_other_in_its_place(
    lost: str,
) -> None:
    """Every seed deep read whose follow-ups open as follow-ups do (`后续工作…`, `值得跟进`):
    with its limitations paragraph gone, the one left is its follow-ups, where it was read
    as its limitations (a re-delivery then overwrote the stored limitations with it); with
    its follow-ups gone, its limitations stay what they are."""
    checked = 0
    for text in DEEP_READ_SEEDS:
        paragraphs = text.split("\n\n")
        for paper in papers(text).values():
            gone = getattr(paper, lost)
            if gone not in paragraphs or not deep_read._FOLLOW_UPS.match(paper.follow_ups or ""):
                continue
            changed = papers("\n\n".join(p for p in paragraphs if p != gone))[paper.key]
            kept = "follow_ups" if lost == "limitations" else "limitations"
            assert getattr(changed, lost) is None
            assert getattr(changed, kept) == getattr(paper, kept)
            checked += 1
    assert checked >= 6


@pytest.mark.parametrize("seed", range(len(DEEP_READ_SEEDS)))
def test_a_review_moved_above_its_claims_is_still_its_papers(seed: int) -> None:
    """Every review of a digest written above its paper's claims instead of after them: the
    same papers, and a warning at each paper's first claim. The claims were a paper of
    their own, holding the limitations, and their paper had none."""
    text = DEEP_READ_SEEDS[seed]
    paragraphs = text.split("\n\n")
    moved = 0
    for at, paragraph in enumerate(list(paragraphs)):
        if not paragraph.startswith("Novelty"):
            continue
        first = at - 1
        while first > 0 and re.match(r"\s*\d+\. |\s{2,}\S", paragraphs[first - 1]):
            first -= 1  # back over the claims and their quotes to claim 1
        if first < at - 1 and paragraphs[first].startswith("1. "):
            paragraphs.insert(first, paragraphs.pop(at))
            moved += 1
    changed = "\n\n".join(paragraphs)

    assert moved >= 2
    assert_same_papers(papers(changed), papers(text))
    added = set(parse_digest(changed).warnings) - set(parse_digest(text).warnings)
    assert [w.message.startswith("the claims come after the review") for w in added] == [
        True
    ] * moved


SECTION_HEADINGS = [
    "一句话定位",
    "背景与动机",
    "方法机制",
    "实验与证据",
    "核心主张",
    "局限与保留意见",
    "Background",
    "Method",
    "Experiments",
    "Key Claims",
    "Limitations",
    "Follow-ups",
]


@given(data=st.data())
@settings(max_examples=30, deadline=None)
def test_section_headings_left_on_lines_of_their_own_change_no_paper(data: st.DataObject) -> None:
    """The format's section headings (PRODUCT.md), which a pipeline strips, left in on lines
    of their own, plain, numbered, in bold or in brackets, in Chinese or in English, before
    any paragraphs: the same papers. Each was a paragraph of its paper, and moved every
    section after it one place."""
    dressed = data.draw(st.sampled_from(["{}", "{}：", "**{}**", "3. {}", "【{}】", "{}:"]))
    headings = st.sampled_from(SECTION_HEADINGS).map(dressed.format)
    text, changed, _ = lines_between_paragraphs(data, headings, first=2, most=12)

    assert_same_papers(papers(changed), papers(text))


def lines_between_paragraphs(
    data: st.DataObject, lines: st.SearchStrategy[str], *, first: int, most: int
) -> tuple[str, str, int]:
    """A seed, and the seed with lines drawn from `lines` put before some of its paragraphs
    (from paragraph `first` on, `most` at most), and how many were put."""
    text = data.draw(st.sampled_from(DEEP_READ_SEEDS))
    paragraphs = text.split("\n\n")
    before = data.draw(st.sets(st.integers(first, len(paragraphs) - 1), min_size=1, max_size=most))
    changed = "\n\n".join(
        f"{data.draw(lines)}\n\n{p}" if at in before else p for at, p in enumerate(paragraphs)
    )
    return text, changed, len(before)


@pytest.mark.parametrize("seed", range(len(DEEP_READ_SEEDS)))
def test_an_abstract_split_right_after_a_deep_read_is_not_taken_in_silence(seed: int) -> None:
    """An abstract-only entry right after a deep read, its abstract split after its first
    sentence: the piece is read as more of the deep read's follow-ups (English may end a
    deep read) or, as long as an abstract, as an entry of its own; either way with a
    warning on its line, where the follow-ups took it in silence."""
    note = NOTE_PARAGRAPH.strip()
    paragraphs = DEEP_READ_SEEDS[seed].split("\n\n")
    after_deep_reads = [
        i for i in range(3, len(paragraphs)) if paragraphs[i] == note and paragraphs[i - 2] != note
    ]
    for at in reversed(after_deep_reads):
        first, rest = _SENTENCE_BREAK.split(paragraphs[at - 1], maxsplit=1)
        paragraphs[at - 1] = f"{first}\n\n{rest}"
    changed = "\n\n".join(paragraphs)
    pieces = [i + 1 for i, line in enumerate(changed.split("\n")) if line and line[0].isascii()]

    added = set(parse_digest(changed).warnings) - set(parse_digest(DEEP_READ_SEEDS[seed]).warnings)
    assert after_deep_reads and len(added) == len(after_deep_reads)
    assert {w.line for w in added} <= set(pieces)


@pytest.mark.parametrize("seed", range(len(DEEP_READ_SEEDS)))
def test_a_review_that_lost_its_novelty_label_is_still_the_review(seed: int) -> None:
    """Every review of a digest without its first label (`Novelty：` dropped; `Soundness：`
    and `Significance：` still in it): the same papers, a warning at each. The review was
    read as the limitations, its three fields empty."""
    text = DEEP_READ_SEEDS[seed]
    changed = text.replace("\nNovelty：", "\n")

    assert_same_papers(papers(changed), papers(text))
    added = set(parse_digest(changed).warnings) - set(parse_digest(text).warnings)
    assert len(added) == text.count("\nNovelty：") > 1
    assert all(w.message.startswith("the review should start with 'Novelty：'") for w in added)


ENGLISH_POSITIONING = (
    "This paper positions itself as an evaluation study rather than a new model: it asks "
    "whether a single generic question, read zero-shot, ranks the failures it studies across "
    "many public benchmarks, and how wording, label keys and thresholds change that result."
)


@pytest.mark.parametrize("seed", range(len(DEEP_READ_SEEDS)))
def test_a_positioning_written_in_english_stays_its_deep_reads(seed: int) -> None:
    """A deep read's positioning that came out in English (a pipeline's model switching
    language), its other sections Chinese: still that deep read's positioning. It was read
    as an abstract-only entry that lost its note, a paper too many, and the deep read took
    its background for its positioning."""
    text = DEEP_READ_SEEDS[seed]
    original = parse_digest(text).papers
    changed = text
    for paper in original:
        if paper.kind == KIND_DEEP_READ and paper.positioning and paper.experiments:
            changed = changed.replace(paper.positioning, ENGLISH_POSITIONING, 1)
    read = parse_digest(changed).papers

    assert len(read) == len(original)
    for before, after in zip(original, read, strict=True):
        assert (after.kind, after.claims) == (before.kind, before.claims)
        if before.kind == KIND_DEEP_READ and before.experiments:
            assert (after.positioning, after.background) == (ENGLISH_POSITIONING, before.background)


def _claim_gaps(seed: str) -> list[tuple[ParsedPaper, int, int, int]]:
    """Each place before a claim of a deep read of `seed`: (paper, the number of the claim
    before it (0: none), index of the line the claim starts on, index of the paper's last
    prose line)."""
    lines = seed.split("\n")
    gaps = []
    for paper in parse_digest(seed).papers:
        if paper.kind != KIND_DEEP_READ or len(paper.claims) < 2:
            continue
        starts: dict[int, int] = {}  # claim number -> its line's index
        for i in range(paper.line - 1, len(lines)):
            if lines[i].startswith("Novelty"):
                break
            if _NUMBERED.match(lines[i]):
                starts.setdefault(int(lines[i].split(".")[0]), i)
        last_prose = max(i for i in range(paper.line - 1, starts[1]) if lines[i].strip())
        gaps += [(paper, n, starts[n + 1], last_prose) for n in range(len(starts))]
    return gaps


def _without_lines(paper: ParsedPaper) -> ParsedPaper:
    return replace(paper, line=0)


@pytest.mark.parametrize("seed", DEEP_READ_SEEDS, ids=["seed 1", "seed 2"])
def test_what_is_put_among_a_paper_s_claims_keeps_the_paper_whole(seed: str) -> None:
    """A heading over a group of claims (`实验类主张：`, also over the first one), a note
    after a quote (`注：…`) or the paper's experiments paragraph moved in among its claims,
    between any two of them:
    the paper stays one, with all its claims and its review (each was read as the text of
    a paper of its own, which took the claims after it); the heading is left out, the note
    joins the claim before it, the paragraph is read back as the experiments."""
    lines = seed.split("\n")
    whole = [_without_lines(p) for p in parse_digest(seed).papers]
    gaps = _claim_gaps(seed)
    assert len(gaps) >= 30
    for paper, number, at, last_prose in gaps:
        heading = [*lines[:at], "实验类主张：", "", *lines[at:]]
        assert [_without_lines(p) for p in parse_digest("\n".join(heading)).papers] == whole
        if not number:  # before the first claim: a lead-in (`核心主张如下：`) only
            continue
        note = "注：该数字来自原文表 3，原文未报告方差。"
        noted = parse_digest("\n".join([*lines[:at], note, "", *lines[at:]])).papers
        assert [p.key for p in noted] == [p.key for p in whole]
        (read,) = [p for p in noted if p.key == paper.key]
        assert read.claims[number - 1].text_zh.endswith(note)
        assert read.claims[number:] == paper.claims[number:]
        moved = lines[:last_prose] + lines[last_prose + 2 : at] + [lines[last_prose], ""]
        moved += lines[at:]
        assert [_without_lines(p) for p in parse_digest("\n".join(moved)).papers] == whole


@pytest.mark.parametrize("seed", DEEP_READ_SEEDS, ids=["seed 1", "seed 2"])
def test_a_deep_read_that_lost_its_text_takes_nothing_of_the_paper_before(seed: str) -> None:
    """A deep read whose four paragraphs of text are gone (its claims and review kept): the
    paper before it keeps its limitations and follow-ups, which became this one's text
    (its name a phrase of them) when some paragraph had to stay for it; it is read without
    text, with the warning that says so."""
    lines = seed.split("\n")
    whole = parse_digest(seed).papers
    textless = 0
    for before, paper in itertools.pairwise(whole):
        if before.kind != KIND_DEEP_READ or paper.kind != KIND_DEEP_READ or not before.novelty:
            continue
        start = paper.line - 1
        claims = next(i for i in range(start, len(lines)) if _NUMBERED.match(lines[i]))
        digest = parse_digest("\n".join(lines[:start] + lines[claims:]))
        at = whole.index(before)
        assert digest.papers[at] == before
        lost = digest.papers[at + 1]
        assert (lost.positioning, lost.claims, lost.novelty) == (None, paper.claims, paper.novelty)
        assert any("has no paper text before it" in w.message for w in digest.warnings)
        textless += 1
    assert textless >= 3


CHATTER = [
    "以下是第二篇论文的精读。",
    "好的，下面是按模板整理的精读。",
    "Sure, here is the deep read of the next paper, following the same template as before.",
    "Here's the next one.",
    "Certainly! Here are the remaining papers.",
]


@given(data=st.data())
@settings(max_examples=30, deadline=None)
def test_lines_a_language_model_wrote_around_the_digest_change_no_paper(
    data: st.DataObject,
) -> None:
    """ "Sure, here is…", `以下是…的精读。`: lines a pipeline's model wrote around what it
    was asked for, between any paragraphs, are left out, each with a warning: the same
    papers (taken for a paragraph, each moved the sections after it)."""
    text, changed, put = lines_between_paragraphs(data, st.sampled_from(CHATTER), first=1, most=8)

    assert_same_papers(papers(changed), papers(text))
    added = len(parse_digest(changed).warnings) - len(parse_digest(text).warnings)
    assert added == put


_ABSTRACT_SENTENCE = re.compile(r"(?<=\. )(?=[A-Z])")


@pytest.mark.parametrize("seed", range(len(DEEP_READ_SEEDS)))
def test_an_abstract_listing_its_contributions_on_numbered_lines_stays_whole(seed: int) -> None:
    """An abstract-only entry whose abstract sets sentences on numbered lines of their own
    (`1. We …`, `2. …`, as arXiv abstracts list contributions): still the one entry, under
    its name, holding the whole abstract (each numbered line was cut off as a paragraph of
    its own, and the entry named `2`)."""
    text = DEEP_READ_SEEDS[seed]
    whole = [p for p in parse_digest(text).papers if p.kind != KIND_DEEP_READ]
    assert whole
    listed = text
    for paper in whole:
        abstract = paper.abstract_en or ""
        first, *rest = _ABSTRACT_SENTENCE.split(abstract)
        assert len(rest) >= 2
        numbered = "\n".join(
            [first.rstrip(), *(f"{n}. {s.rstrip()}" for n, s in enumerate(rest, 1))]
        )
        listed = listed.replace(abstract, numbered)
    digest = parse_digest(listed)
    read = [p for p in digest.papers if p.kind != KIND_DEEP_READ]
    assert [p.name or p.title for p in read] == [p.name or p.title for p in whole]
    for paper, before in zip(read, whole, strict=True):
        words = re.sub(r"\b\d+\. ", "", paper.abstract_en or "").split()
        assert words == (before.abstract_en or "").split()
    assert digest.warnings == parse_digest(text).warnings


_WORDS_AND_NUMBERS = re.compile(r"[a-z]+|[0-9]+(?:\.[0-9]+)?")


def _says_more_of_its_own(gap: tuple[ParsedPaper, int, int, int]) -> bool:
    paper, number = gap[0], gap[1]
    before, claim = paper.claims[number - 1], paper.claims[number]
    said = set(_WORDS_AND_NUMBERS.findall(claim.quote_en.lower()))
    own, other = (
        len(said & set(_WORDS_AND_NUMBERS.findall(c.text_zh.lower()))) for c in (claim, before)
    )
    return own >= other


def test_a_quote_split_by_a_blank_line_stays_whole_when_the_next_claim_has_none() -> None:
    """Claim 2's quote in two indented paragraphs (a stray blank line), claim 3 without a
    quote: the second half restates claim 2's names, not claim 3's, so it is the rest of
    claim 2's quote, not claim 3's (claim 3 is left out, as a claim without a quote is)."""
    head = "2026-01-01\n\n本文提出 GAPO。\n\n背景。\n\n机制。\n\n实验。\n\n"
    claims = (
        "1. GAPO 在 AIME24 上达到 49.8。\n\n   GAPO reaches 49.8 on AIME24.\n\n"
        "2. 在 MATH500 上 GAPO 达到 94.1，高于 DAPO。\n\n   GAPO reaches 94.1 on MATH500.\n\n"
        "   On GPQA, it is ahead of DAPO by 1.9 points.\n\n"
        "3. 训练曲线显示梯度范数方差低 37%。\n\n"
        "4. 去掉下界使 AIME24 下降 3.1。\n\n   Removing the floor costs 3.1 points.\n\n"
    )
    review = "Novelty：新。 Soundness：稳。 Significance：大。\n\n"
    (paper,) = parse_digest(head + claims + review).papers

    assert [c.number for c in paper.claims] == [1, 2, 4]
    assert paper.claims[1].quote_en.endswith("ahead of DAPO by 1.9 points.")


@pytest.mark.parametrize("seed", DEEP_READ_SEEDS, ids=["seed 1", "seed 2"])
def test_a_quote_moved_above_its_claim_is_still_that_claim_s(seed: str) -> None:
    """A claim's quote moved above it, after the quote of the claim before: the two claims
    keep their own quotes, with a warning (the first took both, and the second was left
    out for having none); unless the quote restates more of the claim before's numbers and
    names than of its own claim's (then it is read as the rest of that claim's quote)."""
    lines = seed.split("\n")
    whole = [_without_lines(p) for p in parse_digest(seed).papers]
    gaps = [gap for gap in _claim_gaps(seed) if gap[1] and _says_more_of_its_own(gap)]
    assert len(gaps) >= 30
    for _, number, at, _ in gaps:
        assert lines[at + 2].startswith("   ")
        moved = [*lines[:at], lines[at + 2], "", lines[at], *lines[at + 3 :]]
        digest = parse_digest("\n".join(moved))
        assert [_without_lines(p) for p in digest.papers] == whole
        (warning,) = [w for w in digest.warnings if "has no quote after it" in w.message]
        assert warning.message.startswith(f"claim {number + 1} has no quote after it")


@pytest.mark.parametrize("seed", DEEP_READ_SEEDS, ids=["seed 1", "seed 2"])
def test_a_deep_read_whose_sections_are_numbered_keeps_them(seed: str) -> None:
    """A deep read whose paragraphs of text are numbered (`1. 本文定位为…`, `2. …`, as a
    model may number sections): they are its sections, their numbers no part of them, not
    items of the list before them (the follow-ups of the paper before, which took them)."""
    lines = seed.split("\n")
    whole = parse_digest(seed).papers
    numbered_papers = 0
    for at, (before, paper) in enumerate(itertools.pairwise(whole)):
        if before.kind != KIND_DEEP_READ or paper.kind != KIND_DEEP_READ or not before.novelty:
            continue
        start = paper.line - 1
        claims = next(i for i in range(start, len(lines)) if _NUMBERED.match(lines[i]))
        prose = [i for i in range(start, claims) if lines[i].strip()]
        numbered = list(lines)
        for n, i in enumerate(prose, 1):
            numbered[i] = f"{n}. {lines[i]}"
        read = parse_digest("\n".join(numbered)).papers
        assert read[at] == before
        assert (read[at + 1].key, read[at + 1].name) == (paper.key, paper.name)
        assert read[at + 1] == replace(paper, line=read[at + 1].line)  # the numbers no text
        numbered_papers += 1
    assert numbered_papers >= 3


# Tables and display formulas a pipeline may set apart as paragraphs of their own.
DISPLAY_BLOCKS = [
    "| 模型 | AQ | CLIP |\n|---|---|---|\n| AV-GRPO | 5.798 | 0.327 |",
    "$$\nJ(P)=E_P[r]-\\beta D_{KL}(P\\|P_0)\n$$",
    "\\[ \\sigma_t = a\\sqrt{t/(1-t)} \\]",
    "\\begin{equation}\nL = L_{NTP} + \\lambda L_{KD}\n\\end{equation}",
]


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_a_table_or_a_formula_set_apart_stays_in_the_section_before_it(
    data: st.DataObject,
) -> None:
    """A table or a display formula as a paragraph of its own, after any paragraph of a
    deep read's text: the section before it holds it, and no other section or claim moves
    (counted as a section, it moved every section after it one place)."""
    text = data.draw(st.sampled_from(DEEP_READ_SEEDS))
    paragraphs = text.split("\n\n")
    at = data.draw(st.sampled_from([i for i, p in enumerate(paragraphs) if is_prose(p)]))
    block = data.draw(st.sampled_from(DISPLAY_BLOCKS))
    changed = parse_digest("\n\n".join([*paragraphs[: at + 1], block, *paragraphs[at + 1 :]]))
    original = parse_digest(text)

    def squeezed(paper: ParsedPaper, name: str) -> str:
        return "".join((getattr(paper, name) or "").split())

    assert [p.claims for p in changed.papers] == [p.claims for p in original.papers]
    grown = [
        (new, old, name)
        for new, old in zip(changed.papers, original.papers, strict=True)
        for name in _PROSE_SECTIONS
        if squeezed(new, name) != squeezed(old, name)
    ]
    [(new, old, name)] = grown
    assert squeezed(new, name) == squeezed(old, name) + "".join(block.split())
