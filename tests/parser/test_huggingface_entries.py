"""A HuggingFace list whose entries are numbered another way (`1)`, `## 1.`, `**1. Title**`)
or not at all, or whose long titles are wrapped over several lines holds the same papers, titles and
abstracts: an entry is anchored by the `Abstract:` line after its title."""

import itertools
import re
import textwrap
from collections.abc import Callable
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jobs.parser import ParsedPaper, parse_digest
from jobs.parser.huggingface import _LIST_SEPARATOR, _authors
from tests.parser.summary import seed_files

LIST = next(
    text
    for seed in seed_files()
    if (text := seed.read_text(encoding="utf-8")).startswith("HuggingFace")
)
_ENTRY = re.compile(r"^(\d+)\. (.*)\n\nAbstract:", re.MULTILINE)
NUMBERINGS = [
    "{n}. {t}", "{n}) {t}", "({n}) {t}", "## {n}. {t}", "**{n}. {t}**", "{n}.{t}", "{n}、{t}",
    "{n}、 {t}", "{t}", "## {t}", "**{t}**",
]  # fmt: skip


def entries(text: str) -> list[tuple[str, str | None, str | None, str | None]]:
    papers: tuple[ParsedPaper, ...] = parse_digest(text).papers
    return [(p.key, p.title, p.abstract_en, p.arxiv_id) for p in papers]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.sampled_from(NUMBERINGS), st.integers(min_value=30, max_value=120))),
)
def test_entries_numbered_or_wrapped_otherwise_are_the_same_papers(
    styles: list[tuple[str, int]],
) -> None:
    count = iter(range(10**6))

    def restyle(match: re.Match[str]) -> str:
        numbering, width = styles[next(count) % len(styles)] if styles else (NUMBERINGS[0], 999)
        title = "\n".join(textwrap.wrap(match.group(2), width))
        return numbering.format(n=match.group(1), t=title) + "\n\nAbstract:"

    assert entries(_ENTRY.sub(restyle, LIST)) == entries(LIST)


def test_a_title_wrapped_at_a_hyphen_keeps_its_word_whole() -> None:
    text = (
        "HuggingFace Papers 2026-01-01\n\n1. E-MoE: Enhanced Mixture-of-\nExperts for Diffusion\n\n"
        "Abstract: We study experts.\n\nArxiv URL: https://arxiv.org/abs/2609.00001\n"
    )
    (paper,) = parse_digest(text).papers
    assert paper.title == "E-MoE: Enhanced Mixture-of-Experts for Diffusion"


def test_numbered_analysis_lines_and_the_table_of_contents_start_no_paper() -> None:
    """Without an `Abstract:` line right after it, a numbered line is no entry, however
    its number is written."""
    for written in ("3) ", "3、"):
        text = LIST.replace("\n3. 实验验证与结果", f"\n{written}实验验证与结果")
        assert entries(text) == entries(LIST)
    assert len(entries(LIST)) == 20


def test_a_list_none_of_whose_entries_can_be_read_says_so() -> None:
    """Rather than loading as a day without papers."""
    unread = "HuggingFace Papers 2026-01-01\n\nLatest Papers\n\n- A Title\n\nSome text.\n"

    digest = parse_digest(unread)

    assert digest.papers == ()
    assert [str(w) for w in digest.warnings] == [
        "line 1: no paper found in this list: an entry is `N. <Title>` with `Abstract:` after it"
    ]
    assert parse_digest("HuggingFace Papers 2026-01-01\n").warnings == ()  # a day without any


LABELS = [match.start() for match in re.finditer(r"^Abstract:", LIST, re.MULTILINE)]


@pytest.mark.parametrize("entry", range(len(LABELS)), ids=lambda n: f"entry {n + 1}")
def test_an_entry_whose_abstract_label_was_lost_is_still_its_own_paper(entry: int) -> None:
    """Its title, first in the list or right after the metadata closing the entry before,
    starts it; it ran into the entry before, which then took its arXiv ID."""
    label = LABELS[entry]
    lost = LIST[:label] + LIST[label + len("Abstract:") :]

    assert entries(lost) == entries(LIST)


@pytest.mark.parametrize("gap", ["\n", "\n\n"])
def test_a_table_of_contents_before_the_entries_starts_no_paper(gap: str) -> None:
    titles = [title for _, title, _, _ in entries(LIST)]
    contents = gap.join(f"{n}. {title}" for n, title in enumerate(titles, start=1))

    listed = LIST.replace("Latest Papers\n", f"Latest Papers\n\n{contents}\n", 1)

    assert entries(listed) == entries(LIST)


def test_titles_that_lost_their_numbers_are_each_an_entry_with_a_warning() -> None:
    text = _ENTRY.sub(r"\2\n\nAbstract:", LIST)
    digest = parse_digest(text)

    assert entries(text) == entries(LIST)
    lines = [text.count("\n", 0, m.start()) + 1 for m in re.finditer(r"\n\nAbstract:", text)]
    assert [str(w) for w in digest.warnings] == [
        f"line {line}: entry's title has no number: expected 'N. <Title>'; read as entry {n}"
        for n, line in enumerate(lines, 1)
    ]


LOST_TITLE = "entry has no title line: expected 'N. <Title>' before its 'Abstract:'"
ONLY_NUMBER = "entry {n}'s title line holds only its number: expected 'N. <Title>'"
PLACEHOLDER = "entry {n}'s title is a placeholder ('{placeholder}'): expected 'N. <Title>'"


@pytest.mark.parametrize("entry", range(len(_ENTRY.findall(LIST))))
@pytest.mark.parametrize(
    ("kept", "warning"),
    [(None, LOST_TITLE)]
    + [(number, ONLY_NUMBER) for number in ("{n}. ", "{n}.", "**{n}.**", "{n}.\u00a0", "## {n})")]
    + [
        (f"{number}{placeholder}", PLACEHOLDER.format(n="{n}", placeholder=shown))
        for number, placeholder, shown in [
            ("{n}. ", "None", "None"),
            ("{n}. ", "null", "null"),
            ("**{n}. ", "N/A**", "N/A"),
            ("{n}. ", "[Untitled]", "[Untitled]"),
            ("{n}. ", "Title: undefined", "undefined"),
            ("{n}. ", "—", "—"),
        ]
    ],
)
def test_an_entry_whose_title_was_lost_is_still_its_own_paper(
    entry: int, kept: str | None, warning: str
) -> None:
    """Without its `N. <Title>` line, with its number alone (`2. `: a title fetch that
    returned nothing) or a placeholder for the title (`2. None`), the entry would run into
    the one before (which would then take its arXiv ID), or be titled "None": it starts
    there, at its `Abstract:` if nothing is left, titled from it."""
    match = list(_ENTRY.finditer(LIST))[entry]
    rest = LIST[match.start(2) + len(match.group(2)) :]
    if kept is None:
        text = LIST[: match.start()] + rest.lstrip("\n")
    else:
        text = LIST[: match.start()] + kept.format(n=match.group(1)) + rest
    digest = parse_digest(text)

    changed, original = entries(text), entries(LIST)
    assert changed[:entry] + changed[entry + 1 :] == original[:entry] + original[entry + 1 :]
    key, title, abstract, arxiv_id = changed[entry]
    assert (key, abstract, arxiv_id) == (original[entry][0], *original[entry][2:])
    assert title and abstract and abstract.startswith(title.rstrip("…"))
    line = text.count("\n", 0, match.start()) + 1
    assert [str(w) for w in digest.warnings] == [
        f"line {line}: {warning.format(n=entry + 1)}; titled from its abstract: '{title}'"
    ]


_LABEL = re.compile(
    r"^(Abstract|Authors|Categories|PDF URL|Arxiv URL|Arxiv ID|CoolPaper URL|Published|Updated"
    r"|中文摘要|LLM Analysis)([ \t]*[:：]?)",
    re.MULTILINE,
)
DRESSINGS = ["- {label}{colon}", "**{label}{colon}**", "**{label}**{colon}", "## {label}{colon}"]


@pytest.mark.parametrize("dressing", DRESSINGS)
def test_labels_dressed_as_markdown_read_the_same(dressing: str) -> None:
    """A markdown export's list items, bold or headings around the labels: the same papers,
    arXiv IDs (their identity), authors, abstracts and analyses."""
    dressed = _LABEL.sub(lambda m: dressing.format(label=m[1], colon=m[2]), LIST)
    assert dressed != LIST

    def whole(text: str) -> list[tuple[object, ...]]:
        return [
            (p.key, p.title, p.arxiv_id, p.authors, p.abstract_en, p.abstract_zh, p.llm_analysis)
            for p in parse_digest(text).papers
        ]

    assert whole(dressed) == whole(LIST)


RENAMED = {
    "Authors:": ["Author:", "作者："],
    "Categories:": ["Subjects:"],
    "Arxiv ID:": ["arXiv:", "ArXiv-ID:"],
    "Published:": ["Date:", "发布时间："],
}


@pytest.mark.parametrize(
    ("label", "other"), [(label, other) for label, others in RENAMED.items() for other in others]
)
def test_metadata_labels_named_otherwise_read_the_same(label: str, other: str) -> None:
    renamed = re.sub(rf"(?m)^{re.escape(label)}", other, LIST)
    assert renamed != LIST

    assert parse_digest(renamed) == parse_digest(LIST)


GAPS = {"no-break": "\u00a0", "ideographic": "\u3000", "tab": "\t", "spaces": "   ", "none": ""}
_WORDS_OF_A_LABEL = re.compile(r"(?m)^(PDF|Arxiv|CoolPaper|LLM) (URL|ID|Analysis)\b")


@pytest.mark.parametrize("case", [str, str.upper, str.lower], ids=["as is", "upper", "lower"])
@pytest.mark.parametrize("gap", GAPS.values(), ids=GAPS.keys())
def test_labels_are_read_whatever_the_spaces_between_their_words(
    gap: str, case: Callable[[str], str]
) -> None:
    """An HTML export writes `Arxiv&nbsp;ID:`: the arXiv ID (the paper's identity), the
    links and the analysis are read all the same."""
    spaced = _WORDS_OF_A_LABEL.sub(lambda m: case(f"{m[1]}{gap}{m[2]}"), LIST)
    assert spaced != LIST

    assert parse_digest(spaced) == parse_digest(LIST)


@pytest.mark.parametrize("gap", ["\u00a0", "\u3000"], ids=["no-break", "ideographic"])
def test_a_label_not_read_with_such_spaces_hides_none_of_the_metadata(gap: str) -> None:
    added = re.sub(r"(?m)^Arxiv ID:", f"Code{gap}Link: https://github.com/x/y\n\nArxiv ID:", LIST)
    assert added != LIST

    papers = [replace(p, line=0) for p in parse_digest(added).papers]
    assert papers == [replace(p, line=0) for p in parse_digest(LIST).papers]


@pytest.mark.parametrize("other", ["Comments: 12 pages, 5 figures", "Code: https://github.com/x/y"])
@pytest.mark.parametrize("before", ["Categories:", "Arxiv ID:", "Updated:"])
def test_metadata_of_labels_not_read_hides_none_of_the_rest(other: str, before: str) -> None:
    added = re.sub(rf"(?m)^{re.escape(before)}", f"{other}\n\n{before}", LIST)
    assert added != LIST

    # The same papers; those after the added lines start further down.
    papers = [replace(p, line=0) for p in parse_digest(added).papers]
    assert papers == [replace(p, line=0) for p in parse_digest(LIST).papers]


def test_a_chinese_abstract_put_before_the_english_one_keeps_both() -> None:
    swapped, entries_swapped = re.subn(
        r"(?ms)^(Abstract:[^\n]*\n\n)(中文摘要\n\n摘要：[^\n]*\n\n)", r"\2\1", LIST
    )
    assert entries_swapped == len(LABELS)

    assert [
        (p.abstract_en, p.abstract_zh, p.llm_analysis) for p in parse_digest(swapped).papers
    ] == [(p.abstract_en, p.abstract_zh, p.llm_analysis) for p in parse_digest(LIST).papers]


def test_metadata_written_as_a_markdown_table_reads_the_same() -> None:
    labels = "Authors|Categories|PDF URL|Arxiv URL|Arxiv ID|CoolPaper URL|Published|Updated"
    table, rows = re.subn(rf"(?m)^({labels}):[ \t]*(.*)$", r"| \1 | \2 |", LIST)
    assert rows > 100

    assert parse_digest(table) == parse_digest(LIST)


@pytest.mark.parametrize("label", ["Title: ", "**Title:** ", "标题："])
def test_a_title_labelled_as_one_is_the_title(label: str) -> None:
    labelled = _ENTRY.sub(lambda m: f"{m[1]}. {label}{m[2]}\n\nAbstract:", LIST)

    assert entries(labelled) == entries(LIST)


def test_a_title_holding_the_word_title_keeps_it() -> None:
    first = _ENTRY.search(LIST)
    assert first is not None
    titled = LIST[: first.start(2)] + "What's in a Title: Naming" + LIST[first.end(2) :]

    assert parse_digest(titled).papers[0].title == "What's in a Title: Naming"


def test_a_rule_before_an_abstract_is_no_title() -> None:
    first = _ENTRY.search(LIST)
    assert first is not None
    ruled = LIST[: first.start()] + "---" + LIST[first.end(2) :]

    paper = parse_digest(ruled).papers[0]
    assert paper.title != "---" and paper.arxiv_id == parse_digest(LIST).papers[0].arxiv_id


def test_metadata_names_in_an_analysis_start_no_entry() -> None:
    """`作者：` or `Date:` lines in an analysis, then an English numbered line: no entry."""
    analysis = re.compile(r"(?m)^(LLM Analysis\n\n)")
    inserted = analysis.sub(r"\1作者：某团队\n\n2. Overview of the method\n\n", LIST, count=3)
    assert inserted != LIST

    assert [(p.key, p.title) for p in parse_digest(inserted).papers] == [
        (p.key, p.title) for p in parse_digest(LIST).papers
    ]


def test_an_arxiv_id_before_a_title_is_the_entrys_id_not_its_title() -> None:
    ids = [p.arxiv_id for p in parse_digest(LIST).papers]
    cited = iter(ids)
    listed = _ENTRY.sub(lambda m: f"{m[1]}. [{next(cited)}] {m[2]}\n\nAbstract:", LIST)
    without_links = re.sub(r"(?m)^(?:PDF URL|Arxiv URL|Arxiv ID|CoolPaper URL): .*$", "", listed)

    assert entries(listed) == entries(LIST)
    assert [p.arxiv_id for p in parse_digest(without_links).papers] == ids


def test_an_entry_whose_only_link_is_its_huggingface_page_keeps_its_arxiv_id() -> None:
    page = re.sub(
        r"(?m)^Arxiv URL: https://arxiv\.org/abs/", "HF URL: https://huggingface.co/papers/", LIST
    )
    only = re.sub(r"(?m)^(?:PDF URL|Arxiv ID|CoolPaper URL): .*$", "", page)

    assert [p.arxiv_id for p in parse_digest(only).papers] == [
        p.arxiv_id for p in parse_digest(LIST).papers
    ]


def test_a_title_written_as_a_markdown_link_is_its_text() -> None:
    linked = _ENTRY.sub(
        lambda m: f"{m[1]}. [{m[2]}](https://arxiv.org/abs/2610.00001)\n\nAbstract:", LIST
    )
    assert entries(linked) == entries(LIST)


def test_two_lists_run_together_keep_every_entry_and_say_so() -> None:
    """A list of another day run into this one (a concatenated export): every entry of
    both is read, and each header of the other day warns that they all take this date."""
    other = re.sub(r"\b26(\d\d)\.(?=\d{4})", r"27\1.", LIST.replace("2026-10-04", "2026-10-05"))
    digest = parse_digest(LIST.rstrip() + "\n\n" + other)

    assert len(digest.papers) == 2 * len(parse_digest(LIST).papers)
    joined = [w for w in digest.warnings if "another digest begins here" in w.message]
    assert len(joined) == other.count("HuggingFace Papers 2026-10-05") == 2
    assert all(w.message.endswith("its papers are all dated 2026-10-04") for w in joined)
    assert parse_digest(LIST).warnings == ()  # its own repeated header is no other list
    assert parse_digest(LIST + "\nHuggingFace Papers\n").warnings == ()  # nor one without a date


ANALYSES = [match.start() for match in re.finditer(r"^LLM Analysis\n", LIST, re.MULTILINE)]


@pytest.mark.parametrize("entry", range(len(ANALYSES)), ids=lambda n: f"entry {n + 1}")
def test_an_analysis_whose_label_was_lost_is_still_the_analysis(entry: int) -> None:
    """Without its `LLM Analysis` line the analysis ran into the Chinese abstract: it starts
    at its first question (`Q: …`), with a warning there."""
    label = ANALYSES[entry]
    lost = LIST[:label] + LIST[label + len("LLM Analysis") :]
    original, digest = parse_digest(LIST), parse_digest(lost)

    assert digest.papers == original.papers
    question = lost.index("\nQ", label) + 1
    assert [str(w) for w in digest.warnings] == [
        f"line {lost.count(chr(10), 0, question) + 1}: the analysis has no 'LLM Analysis' line "
        "before it: read from its first question on"
    ]


def test_a_chinese_abstract_that_asks_a_question_keeps_it() -> None:
    """Only an analysis's opening question after the Chinese abstract starts the analysis;
    with its label there, a `Q:` line stays where it is."""
    text = LIST.replace("\n\nLLM Analysis\n", "\n\nQ: 这一行属于中文摘要。\n\nLLM Analysis\n", 1)
    papers = parse_digest(text).papers

    assert papers[0].abstract_zh and papers[0].abstract_zh.endswith("Q: 这一行属于中文摘要。")
    assert papers[0].llm_analysis == parse_digest(LIST).papers[0].llm_analysis


def test_an_arxiv_id_line_its_links_contradict_is_read_with_a_warning() -> None:
    """`Arxiv ID: 2610.01726` over links to 2610.01762: one of them is a typo, which the
    operator is told of (the ID line is read, as before)."""
    first = parse_digest(LIST).papers[0]
    assert first.arxiv_id is not None
    typo = first.arxiv_id[:-2] + first.arxiv_id[-1] + first.arxiv_id[-2]
    text = re.sub(rf"(?m)^(Arxiv ID: ){re.escape(first.arxiv_id)}", rf"\g<1>{typo}", LIST)

    digest = parse_digest(text)

    assert digest.papers[0].arxiv_id == typo
    assert [str(w) for w in digest.warnings] == [
        f"line {first.line}: the entry's arXiv ID {typo} is not the one its links give "
        f"({first.arxiv_id}), a typo in one of them; read as {typo}"
    ]


@pytest.mark.parametrize("impossible", ["2026-13-45T02:51:54Z", "yesterday", "2026/10/04 (v2)"])
@pytest.mark.parametrize("label", ["Published:", "发布时间："])
def test_a_date_that_is_no_date_is_left_out_with_a_warning_on_its_line(
    label: str, impossible: str
) -> None:
    """The entry loads with its other metadata; the operator is told which line held what."""
    lines = LIST.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("Published: "))
    lines[at] = f"{label} {impossible}"

    digest = parse_digest("\n".join(lines))

    before = parse_digest(LIST)
    changed = [i for i, p in enumerate(digest.papers) if p != before.papers[i]]
    assert len(changed) == 1 and digest.papers[changed[0]].published_at is None
    assert digest.papers[changed[0]] == replace(before.papers[changed[0]], published_at=None)
    assert [str(w) for w in digest.warnings] == [
        f"line {at + 1}: '{label} {impossible}' is not a date (expected one like 2026-02-11,"
        " ISO 8601): left out"
    ]


def _with_id_line(text: str, of: ParsedPaper, given: str) -> str:
    assert of.arxiv_id is not None
    return re.sub(rf"(?m)^(Arxiv ID: ){re.escape(of.arxiv_id)}$", rf"\g<1>{given}", text)


@pytest.mark.parametrize("pasted", [1, 0])  # into the later entry, or into the earlier
def test_an_id_line_pasted_from_the_next_entry_drops_neither(pasted: int) -> None:
    """An entry given its neighbour's `Arxiv ID:` line, its own links kept: both entries
    stay, the one whose links disagree read by its links' ID, with a warning naming both."""
    papers = parse_digest(LIST).papers
    one, two = papers[0], papers[1]
    source, target = (one, two) if pasted else (two, one)
    assert source.arxiv_id is not None and target.arxiv_id is not None

    digest = parse_digest(_with_id_line(LIST, target, source.arxiv_id))

    assert [(p.key, p.title) for p in digest.papers] == [(p.key, p.title) for p in papers]
    assert [str(w) for w in digest.warnings if "same arXiv ID" in str(w)] == [
        f"line {target.line}: this entry and the one at line {source.line} carry the same arXiv "
        f"ID ({source.arxiv_id}) but another title and abstract, as if metadata were pasted from "
        f"one to the other; this one read as {target.arxiv_id}, the ID its links give"
    ]


@pytest.mark.parametrize("authors", ["own", "pasted too"])
def test_a_metadata_block_pasted_from_the_entry_above_keeps_the_entry_without_an_id(
    authors: str,
) -> None:
    """Every ID and link of the entry above pasted into the next, its authors too or not:
    nothing tells its own ID, so it is read by its text (as a list without arXiv lines
    is), never dropped as that entry listed again, and without links to the other paper."""
    papers = parse_digest(LIST).papers
    one, two = papers[0], papers[1]
    assert one.arxiv_id is not None and two.arxiv_id is not None
    text = LIST.replace(two.arxiv_id, one.arxiv_id)
    if authors == "pasted too":
        first, second = re.findall(r"(?m)^Authors: .*$", LIST)[:2]
        text = text.replace(second, first, 1)
        assert parse_digest(text).papers[1].authors == one.authors

    digest = parse_digest(text)

    assert len(digest.papers) == len(papers)
    second = digest.papers[1]
    assert (second.title, second.abstract_en) == (two.title, two.abstract_en)
    assert second.arxiv_id is None and second.key.startswith("text:")
    assert not {second.pdf_url, second.arxiv_url, second.coolpaper_url} - {None}
    assert digest.papers[0].key == one.key
    assert any("this one read without an arXiv ID" in str(w) for w in digest.warnings)


def test_a_paper_listed_again_with_a_revised_title_and_abstract_is_read_once() -> None:
    """Two days' lists in one file, the second listing a paper again after its v2 changed
    its title and a sentence of its abstract: its ID, links and authors agree, so it is
    the same paper, read once (as first written), not a second paper without an ID."""
    papers = parse_digest(LIST).papers
    first = papers[0]
    assert first.abstract_en is not None
    entry = LIST.split("\n\n2. ", 1)[0].split("\n1. ", 1)[1]
    sentence = first.abstract_en.split(". ")[0]
    revised = entry.replace(first.title or "", "OneStreamer v2: a revised title", 1)
    revised = revised.replace(sentence, sentence + " and more", 1)
    assert revised.count("OneStreamer v2") == 1 and revised.count(" and more") == 1

    digest = parse_digest(f"{LIST.rstrip()}\n\nHuggingFace Papers 2026-10-06\n\n1. {revised}\n")

    assert [p.key for p in digest.papers] == [p.key for p in papers]
    assert not any("same arXiv ID" in str(warning) for warning in digest.warnings)


def test_an_entry_that_kept_only_its_title_is_left_out_with_a_warning() -> None:
    """An entry whose abstract, analysis and arXiv lines were lost (a fetch that failed),
    its title line next to the next entry's: left out, with a warning on its line (it went
    without a word); every other entry is read as before."""
    lines = LIST.split("\n")
    starts = [i for i, line in enumerate(lines) if _ENTRY.match("\n".join(lines[i : i + 3]))]
    whole = entries(LIST)
    assert len(starts) == len(whole) >= 10
    for n, (start, end) in enumerate(itertools.pairwise(starts), start=1):
        cut = "\n".join([*lines[: start + 1], "", *lines[end:]])
        assert entries(cut) == [*whole[: n - 1], *whole[n:]]
        digest = parse_digest(cut)
        (warning,) = [w for w in digest.warnings if "has only its title line" in w.message]
        assert warning.line == start + 1
        assert warning.message.startswith(f"entry {n} has only its title line")


@pytest.mark.parametrize(
    "written", ["{a}, {b} and {c}", "{a}, {b}, and {c}", "{a}；{b}、{c}", "{a}, {b} & {c}"]
)
def test_authors_listed_with_and_are_each_an_author(written: str) -> None:
    """`A, B and C`: three authors, as `A, B, C` is (it was two, `B and C` one of them)."""
    line = next(line for line in LIST.split("\n") if line.startswith("Authors: "))
    names = line.removeprefix("Authors: ").split(",")[:3]
    assert len(names) == 3
    listed = written.format(a=names[0], b=names[1], c=names[2])
    original = parse_digest(LIST).papers[0].authors
    changed = parse_digest(LIST.replace(line, f"Authors: {listed}", 1)).papers[0].authors

    assert changed == original[:3] == tuple(names)


@pytest.mark.parametrize(
    ("listed", "authors"),
    [
        ("Smith, J., Doe, A. B., Lee, J.-P.", ("Smith, J.", "Doe, A. B.", "Lee, J.-P.")),
        ("Wang, X.; Li, Y. and Xu, Z.", ("Wang, X.", "Li, Y.", "Xu, Z.")),
        ("J. Smith, A. Doe", ("J. Smith", "A. Doe")),
    ],
)
def test_authors_listed_surname_first_keep_their_initials(
    listed: str, authors: tuple[str, ...]
) -> None:
    """`Smith, J., Doe, A.`: two authors, each with the initials after the surname (it was
    four: `Smith`, `J.`, `Doe`, `A.`)."""
    line = next(line for line in LIST.split("\n") if line.startswith("Authors: "))
    assert parse_digest(LIST.replace(line, f"Authors: {listed}", 1)).papers[0].authors == authors


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.sampled_from(["Smith", "J.", "A. B.", "J.-P.", "Wang Xi", "and Lee", "Th."]),
            st.text(max_size=12),
        ),
        max_size=40,
    )
)
def test_an_author_list_loses_nothing_whatever_it_holds(parts: list[str]) -> None:
    """Whatever the list (initials anywhere, hostile text), its authors, each cut where a
    surname was joined to its initials, are the list's own pieces in order: nothing lost,
    nothing added, nothing empty."""
    listed = ", ".join(parts)
    authors = _authors(listed)
    assert all(authors)
    pieces = [piece for piece in _LIST_SEPARATOR.split(listed) if piece]
    assert [piece for author in authors for piece in author.split(", ")] == pieces
