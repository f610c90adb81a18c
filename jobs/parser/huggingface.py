"""The HuggingFace daily list.

An entry starts at `N. <Title>` only when the next non-blank line is `Abstract:`: the LLM
analysis has numbered lines of its own, and the table of contents after the repeated header
at the end of the file lists every title again without an abstract, so neither starts a
paper. Anchored so, the number may be written other ways (`N)`, `## N.`, `**N. Title**`),
a long title may be wrapped over the lines right after it or be a markdown link; right
after the entry before, a title that lost its number starts one too (a warning). An entry
whose `Abstract:` label was lost is anchored by its place: an English title numbered next,
first in the list or right after the metadata that closes the entry before; one whose title
line was lost, by its `Abstract:` there.

Inside an entry the sections come in a fixed order (abstract, Chinese abstract,
analysis) and the metadata lines close it; any of them may be missing. Labels may come
dressed as a markdown export writes them (`- Authors:`, `**Abstract:**`).
"""

import re
from bisect import bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import UTC, datetime

from storage.matching import mostly_same, sentences
from storage.paper_keys import arxiv_key, find_arxiv_id, fingerprint, legacy_key, text_key

from .errors import DigestWarning
from .model import KIND_HUGGINGFACE, ParsedPaper
from .naming import short_title
from .text import DRESSING, has_cjk, is_cjk, join_lines, list_number

# The list's header, its date in group 1; dressed as a heading or in bold, `Daily` in its
# name, any case, a colon or a dash before the date: the same header (a warning).
HEADER = re.compile(
    DRESSING + r"HuggingFace\s+(?:Daily\s+)?Papers(?:\*\*)?"
    r"(?:(?:\s*[:：\-–—]\s*|\s+)(\S+(?:\s+\S+)?))??(?:\*\*)?",  # a date, maybe a weekday
    re.IGNORECASE,
)
_ENTRY = re.compile(
    rf"(?:#{{1,6}}\s*)?(?:\*\*)?{list_number(4)}\s*(?:\*\*)?\s*(?P<title>\S.*?)(?:\*\*)?"
)
# A title line that kept its number and lost its title (`2. `: a title fetch that failed).
_NUMBER_ONLY = re.compile(rf"(?:#{{1,6}}\s*)?(?:\*\*)?{list_number(4)}\s*(?:\*\*)?")
# What a pipeline writes for a title it could not fetch (`str(None)`, JSON's null, …).
_PLACEHOLDER_TITLE = re.compile(
    r"[(\[<]?(?:none|null|nil|nan|n/?a|undefined|untitled|no title|unknown|tbd|title)[)\]>]?"
    r"|[-–—?.…]+",
    re.IGNORECASE,
)
_TITLE_LINES = 6  # a title wrapped over more lines than this is not taken for one
_LINK = re.compile(r"\[([^\[\]]+)\]\([^()\s]*\)")  # a title as a markdown link: its text
_WRAPPED_AT_HYPHEN = re.compile(r"(?<=[^\W\d_]-)\n")  # `Audio-` / `Video`: one word
# A label as a markdown export may dress it: a list item or a heading, in bold
# (`- Authors:`, `**Abstract:**`, `## LLM Analysis`).
_DRESSED = r"(?:[-*•+]\s+|#{{1,6}}\s*)?(?:\*\*|__)?(?:{})(?:\*\*|__)?\s*{}(?:\*\*|__)?"
_COLON = r"[:：]"
# Between a label's words: spaces of any kind and number (a no-break space from an HTML
# export, an ideographic one, a tab), `_` or `-` (`arxiv_id`), or none. One class between
# two literals: it cannot backtrack beyond its own run.
_GAP = r"[\s_-]*"
_GAPS = re.compile(r"[\s_-]+")


def _label(name: str) -> str:
    """The pattern of a label named `name`, whatever the gaps between its words."""
    return _GAP.join(map(re.escape, name.split()))


def _label_key(label: str) -> str:
    """A label as written, whatever its case and the gaps between its words."""
    return _GAPS.sub("", label).lower()


_ABSTRACT = re.compile(_DRESSED.format("Abstract", _COLON) + r"\s*(.*)", re.IGNORECASE)
_ZH_HEADING = re.compile(_DRESSED.format("中文摘要", _COLON + "?"))
_ZH_ABSTRACT = re.compile(_DRESSED.format("摘要", _COLON) + r"\s*(.*)")
_ANALYSIS = re.compile(_DRESSED.format(_label("LLM Analysis"), _COLON + "?"), re.IGNORECASE)
# A title's label, and an arXiv ID a list puts before it (its own: read as its ID).
_TITLE_LABEL = re.compile(r"(?:\*\*)?(?:Title|标题)(?:\*\*)?\s*[:：](?:\*\*)?\s*", re.IGNORECASE)
_CITED_ID = re.compile(r"\[(?:arXiv:\s*)?([0-9]{4}\.[0-9]{4,5}(?:v[0-9]+)?)\]\s*", re.IGNORECASE)
_LETTER = re.compile(r"[^\W\d_]")
_UNDRESSED = re.compile("^" + DRESSING)
_LIST_HEADING = re.compile(_DRESSED.format(_label("Latest Papers"), _COLON + "?"), re.IGNORECASE)
# The metadata labels, and the other names exporters give them (read as these).
_META_NAMES = {
    "authors": ("author", "作者"),
    "categories": ("subjects", "分类"),
    "pdf url": (),
    "arxiv url": (),
    "arxiv id": ("arxiv",),
    "coolpaper url": (),
    "paper url": ("hf url", "hugging face url"),  # its ID, if no other
    "published": ("date", "published at", "发布时间", "发布日期"),
    "updated": ("updated at", "更新时间"),
}
_NAMED = [(name, label) for label, names in _META_NAMES.items() for name in (label, *names)]
_META_LABEL = {_label_key(name): label for name, label in _NAMED}
_META_KEYS = frozenset(map(_label_key, _META_NAMES))  # the list's own labels, not other names
# A metadata line of a label not read (`Comments:`, `Venue:`, `Code:`): inside the metadata,
# it neither ends it nor hides the lines before it.
_OTHER_META = re.compile(r"[^\W\d_][\w\s./()-]{2,29}[:：]\s*\S.*")
_META_LABELS = "|".join(sorted((_label(name) for name, _ in _NAMED), key=len, reverse=True))
_META = re.compile(
    _DRESSED.format(f"(?P<label>{_META_LABELS})", _COLON)
    + r"\s*(?P<value>.*)"
    # or a metadata table's row, as a markdown export writes it: `| Authors | A, B |`
    + rf"|\|\s*(?:\*\*)?(?P<row_label>{_META_LABELS})(?:\*\*)?\s*(?:{_COLON}\s*)?"
    + r"\|(?P<cell>[^|]*)\|?",
    re.IGNORECASE,
)
# Authors are listed with commas, and the last often with `and` (`A, B and C`, `A, B, and C`).
_LIST_SEPARATOR = re.compile(r"\s*[,，;；、]\s*(?:and\s+)?|\s+(?:and|&)\s+")
# Initials alone (`J.`, `J. R.`, `J.-P.`) are the given names of the surname before them, in
# lists written `Surname, J., Surname, A.`.
_INITIALS = re.compile(r"[A-Z][a-z]?\.(?:[\s-]*[A-Z][a-z]?\.)*")
_CATEGORY_SEPARATOR = re.compile(r"[\s,，;；]+")

# Analysis noise: citation numbers alone on a line ("19", "12, 13") and markdown escapes.
_CITATION = re.compile(r"[0-9]{1,3}(?:\s*[,，]\s*[0-9]{1,3})*")
_MARKDOWN_ESCAPE = re.compile(r"\\([*_#`~+])")
# A line starting with these continues the line before it (the cut was a citation).
_CLOSING = frozenset("、。，；：！？）」』】》,.;:!?)]")

_ABSTRACT_EN, _ABSTRACT_ZH, _ANALYSIS_TEXT = 1, 2, 3
# How the analysis opens: `Q: 这篇论文试图解决什么问题？` (or `Q1：`).
_QUESTION = re.compile(r"(?:\*\*)?Q\s*(?:1\s*)?[:：]")
_OTHER_ID = (
    "the entry's arXiv ID {0} is not the one its links give ({1}), a typo in one of them; "
    "read as {0}"
)
_PASTED_ID = (
    "this entry and the one at line {0} carry the same arXiv ID ({1}) but another title and "
    "abstract, as if metadata were pasted from one to the other; this one read {2}"
)
_NOT_A_DATE = "'{}' is not a date (expected one like 2026-02-11, ISO 8601): left out"
_UNLABELLED = "the analysis has no 'LLM Analysis' line before it: read from its first question on"
_UNTITLED = (
    "entry has no title line: expected 'N. <Title>' before its 'Abstract:'; "
    "titled from its abstract: '{}'"
)
_UNNUMBERED = "entry's title has no number: expected 'N. <Title>'; read as entry {}"
_TITLE_ONLY = (
    "entry {} has only its title line ('{}'): no abstract, analysis or arXiv line follows "
    "it before the next entry; left out"
)
_NUMBER_WITHOUT_TITLE = (
    "entry {}'s title line holds only its number: expected 'N. <Title>'; "
    "titled from its abstract: '{}'"
)
_TITLE_PLACEHOLDER = (
    "entry {}'s title is a placeholder ('{}'): expected 'N. <Title>'; "
    "titled from its abstract: '{}'"
)


def parse_entries(
    lines: Sequence[str], start: int
) -> tuple[tuple[ParsedPaper, ...], tuple[DigestWarning, ...]]:
    stripped = [line.strip() for line in lines]
    next_text = _next_non_blank(stripped)
    starts: dict[int, str | None] = {}  # line index -> title (None: its title line was lost)
    placeholders: dict[int, str] = {}  # line index -> what its title line held instead
    unnumbered: list[DigestWarning] = []
    title_only: list[DigestWarning] = []  # entries whose text was lost (a fetch that failed)
    boundaries = [len(lines)]  # entry starts, and repeated headers that end the entry before
    closed = False  # the last non-blank line was metadata: an entry ended there
    number = 0  # the last entry's
    for index in range(start, len(lines)):
        found = _META.fullmatch(stripped[index]) if stripped[index] else None
        meta = found is not None
        if HEADER.fullmatch(stripped[index]):
            boundaries.append(index)
        elif (
            (alone := _NUMBER_ONLY.fullmatch(stripped[index]))
            and int(alone[1]) == number + 1
            and (closed or number == 0)
            and (following := next_text[index + 1] if index + 1 < len(lines) else None)
            and _ABSTRACT.match(stripped[following])
        ):
            # The next entry's number, its title lost: it starts that entry (titled from its
            # abstract), or the abstract after it would run into the entry before.
            starts[index] = ""
            boundaries.append(index)
            number = int(alone[1])
        elif entry := _ENTRY.fullmatch(stripped[index]):
            title, following = _title_lines(stripped, next_text, index, entry["title"])
            abstract = following is not None and _ABSTRACT.match(stripped[following])
            # The next entry's English title, first in the list or right after the metadata
            # that closes the entry before, starts it even when its `Abstract:` label was
            # lost: else it would run into the entry before. (A table of contents lists its
            # titles one after another, and after the metadata it numbers from 1 again.)
            in_turn = int(entry[1]) == number + 1 and (closed or number == 0)
            listed = following is not None and _ENTRY.fullmatch(stripped[following])
            lost_label = in_turn and not listed and not has_cjk(title[0])
            if in_turn and listed and int(listed[1]) == number + 2:
                number += 1
                title_only.append(
                    DigestWarning(index + 1, _TITLE_ONLY.format(number, entry["title"]))
                )
            elif abstract or lost_label:
                text = _title_text(title)
                if _PLACEHOLDER_TITLE.fullmatch(text):
                    placeholders[index], text = text, ""
                starts[index] = text
                boundaries.append(index)
                number = int(entry[1])
        elif (
            stripped[index]
            and not meta
            and (closed or not starts)
            and (bare := _unnumbered_title(stripped, next_text, index))
        ):
            # First in the list or right after the metadata that closes the entry before,
            # an English line with `Abstract:` next is a title that lost its number.
            starts[index] = _title_text(bare)
            boundaries.append(index)
            number += 1
            unnumbered.append(DigestWarning(index + 1, _UNNUMBERED.format(number)))
        elif (closed or not starts) and _ABSTRACT.match(stripped[index]):
            # An abstract with no title line before it, first in the list or right after
            # the metadata that closes the entry before: an entry that lost its title line.
            starts[index] = None
            boundaries.append(index)
            number += 1
        if stripped[index]:  # other names (`作者：`, `Date:`) occur in analyses too: not these
            closed = (
                found is not None and _label_key(found["label"] or found["row_label"]) in _META_KEYS
            )
    boundaries.sort()
    entries = [
        _entry(stripped, begin, boundaries[bisect_right(boundaries, begin)], title, position)
        for position, (begin, title) in enumerate(starts.items(), start=1)
    ]
    papers, pasted = _apart(tuple(paper for paper, _, _ in entries))
    untitled = (
        DigestWarning(begin + 1, _UNTITLED.format(paper.title))
        if title is None
        else DigestWarning(
            begin + 1, _TITLE_PLACEHOLDER.format(position, placeholders[begin], paper.title)
        )
        if begin in placeholders
        else DigestWarning(begin + 1, _NUMBER_WITHOUT_TITLE.format(position, paper.title))
        for position, (paper, (begin, title)) in enumerate(
            zip(papers, starts.items(), strict=True), start=1
        )
        if not title
    )
    unlabelled = (
        DigestWarning(line + 1, _UNLABELLED) for _, line, _ in entries if line is not None
    )
    undated = (warning for _, _, warnings in entries for warning in warnings)
    conflicting = (
        DigestWarning(paper.line, _OTHER_ID.format(paper.arxiv_id, other))
        for paper in papers
        if (other := _other_linked_id(paper)) is not None
    )
    # parse_digest puts every warning in line order
    return papers, (
        *untitled,
        *unnumbered,
        *title_only,
        *unlabelled,
        *undated,
        *conflicting,
        *pasted,
    )


def _apart(papers: tuple[ParsedPaper, ...]) -> tuple[tuple[ParsedPaper, ...], list[DigestWarning]]:
    """The entries, one of two that carry the same arXiv ID but are different papers (an ID
    line pasted from the entry next to it, which that entry's links contradict; or a whole
    metadata block, the titles and abstracts differing) keyed apart: the one whose
    links give another ID, else the later one, is read by the ID its links give, or else
    by its text, without an ID. Neither is taken for the other, which would drop it. An
    entry listed twice keeps its key; parse_digest reads it once."""
    kept = list(papers)
    holder: dict[str, int] = {}  # key -> the index of the entry read by it
    warnings: list[DigestWarning] = []
    for index, paper in enumerate(papers):
        at = holder.get(paper.key)
        if at is None or paper.arxiv_id is None:
            holder.setdefault(paper.key, index)
            continue
        earlier_links, links = _other_linked_id(kept[at]), _other_linked_id(paper)
        if not (earlier_links or links) and _same_entry(kept[at], paper):
            continue  # listed twice: parse_digest reads it once
        pasted, other = (at, index) if earlier_links and not links else (index, at)
        kept[pasted], how = _keyed_apart(kept[pasted], holder)
        said = _PASTED_ID.format(kept[other].line, kept[other].arxiv_id, how)
        warnings.append(DigestWarning(kept[pasted].line, said))
        holder[kept[other].key] = other
        holder.setdefault(kept[pasted].key, pasted)
    return tuple(kept), warnings


def _keyed_apart(paper: ParsedPaper, taken: Mapping[str, int]) -> tuple[ParsedPaper, str]:
    linked = _other_linked_id(paper)
    if linked is not None and arxiv_key(linked) not in taken:
        return replace(paper, key=arxiv_key(linked), arxiv_id=linked), (
            f"as {linked}, the ID its links give"
        )
    return _without_id(paper), "without an arXiv ID"


def _same_entry(one: ParsedPaper, other: ParsedPaper) -> bool:
    """Whether two entries of one ID, their links agreeing, are one paper listed twice (a
    list repeated, or the paper listed again with a revised title or abstract): the same
    title, or mostly the same abstract. Not the authors: a pasted metadata block holds
    them too."""
    return fingerprint(one.title or "") == fingerprint(other.title or "") or mostly_same(
        sentences([one.abstract_en]), sentences([other.abstract_en])
    )


def _without_id(paper: ParsedPaper) -> ParsedPaper:
    """The entry keyed by its text, as one listed without arXiv lines, and without the
    links that name the other entry's paper."""
    text = paper.abstract_en or paper.title or ""

    def own(link: str | None) -> str | None:
        return None if find_arxiv_id(link) == paper.arxiv_id else link

    return replace(
        paper,
        key=text_key(text),
        arxiv_id=None,
        aliases=(legacy_key(text),),
        pdf_url=own(paper.pdf_url),
        arxiv_url=own(paper.arxiv_url),
        coolpaper_url=own(paper.coolpaper_url),
    )


def _other_linked_id(paper: ParsedPaper) -> str | None:
    """An arXiv ID the entry's links give other than the one it is read as (a typo in one)."""
    links = (paper.arxiv_url, paper.pdf_url, paper.coolpaper_url)
    ids = (find_arxiv_id(link) for link in links if link)
    return next((found for found in ids if found and found != paper.arxiv_id), None)


def _metadata(line: str) -> tuple[str, str] | None:
    """A metadata line's label (as read) and value: `Authors: A, B`, or a table's row
    `| Authors | A, B |`; None for any other line."""
    if not (found := _META.fullmatch(line)):
        return None
    label, value = (
        found.group("label", "value") if found["label"] else found.group("row_label", "cell")
    )
    return _META_LABEL[_label_key(label)], value.strip()


def _unnumbered_title(
    stripped: Sequence[str], next_text: Sequence[int | None], index: int
) -> list[str] | None:
    """The lines of a title without its number that starts at `index` (an English line,
    none of an entry's labelled ones, perhaps wrapped, with `Abstract:` next), or None."""
    line = stripped[index]
    if (
        not _wraps_title(stripped, index)
        or _LIST_HEADING.fullmatch(line)
        or not _LETTER.search(line)
    ):
        return None  # `Latest Papers` heads the list, a rule no title: the abstract lost it
    undressed = _UNDRESSED.sub("", line, count=1)  # a heading or bold, as numbered ones
    title, following = _title_lines(stripped, next_text, index, undressed)
    return title if following is not None and _ABSTRACT.match(stripped[following]) else None


def _title_lines(
    stripped: Sequence[str], next_text: Sequence[int | None], index: int, first: str
) -> tuple[list[str], int | None]:
    """A title starting at `index` (its text there `first`) with the lines that wrap it,
    and the index of the next line with text after it (None: the end)."""
    title = [first]
    while len(title) < _TITLE_LINES and _wraps_title(stripped, index + len(title)):
        title.append(stripped[index + len(title)])
    after = index + len(title)
    return title, next_text[after] if after < len(stripped) else None


def _title_text(lines: list[str]) -> str:
    """A title's lines as one: a word wrapped at its hyphen whole again, the closing `**`
    of a bold title that was wrapped dropped."""
    whole = _WRAPPED_AT_HYPHEN.sub("", "\n".join(lines)).split("\n")
    title = _LINK.sub(r"\1", join_lines(whole).removesuffix("**").rstrip())
    label = _TITLE_LABEL.match(title)
    return title[label.end() :] if label else title


def _wraps_title(stripped: Sequence[str], index: int) -> bool:
    """Whether the line right after a title's (no blank line between) goes on with it: an
    English line that is none of an entry's other lines."""
    if index >= len(stripped) or not (line := stripped[index]):
        return False
    return not (
        has_cjk(line)
        or _ABSTRACT.match(line)
        or _META.fullmatch(line)
        or _ANALYSIS.fullmatch(line)
        or HEADER.fullmatch(line)
        or _ENTRY.fullmatch(line)
    )


def _next_non_blank(stripped: Sequence[str]) -> list[int | None]:
    """For each index, the index of the first non-blank line at or after it."""
    result: list[int | None] = [None] * len(stripped)
    following: int | None = None
    for index in range(len(stripped) - 1, -1, -1):
        if stripped[index]:
            following = index
        result[index] = following
    return result


def _entry(
    stripped: Sequence[str], begin: int, end: int, title: str | None, position: int
) -> tuple[ParsedPaper, int | None, tuple[DigestWarning, ...]]:
    """The entry's paper, the index of the line where its analysis begins without its
    label (None: with it, or no analysis), and the dates it leaves out, unreadable."""
    body = begin + (title is not None)  # after the title line
    meta_start, meta_end = _metadata_block(stripped, body, end)
    sections, unlabelled = _sections(stripped[body:meta_start])
    meta: dict[str, str] = {}
    meta_lines: dict[str, int] = {}  # the index of each one's line, for a warning about it
    for index in range(meta_start, meta_end):
        if labelled := _metadata(stripped[index]):
            meta.setdefault(*labelled)
            meta_lines.setdefault(labelled[0], index)

    abstract_en = join_lines(sections[_ABSTRACT_EN]) or None
    cited = _CITED_ID.match(title) if title else None  # `[2610.01762] Title`: its own ID
    if title and cited:
        title = title[cited.end() :]
    title = title or short_title(abstract_en or "")
    dates = {label: _timestamp(meta.get(label)) for label in ("published", "updated")}
    undated = tuple(
        DigestWarning(meta_lines[label] + 1, _NOT_A_DATE.format(stripped[meta_lines[label]]))
        for label, moment in dates.items()
        if moment is None and meta.get(label)
    )
    links = [
        meta.get(f) for f in ("arxiv id", "arxiv url", "pdf url", "coolpaper url", "paper url")
    ]
    arxiv_id = next(filter(None, map(find_arxiv_id, [*links, cited and cited[1]])), None)
    key = arxiv_key(arxiv_id) if arxiv_id is not None else text_key(abstract_en or title)
    # An earlier listing of the same entry without its arXiv lines was keyed by its text:
    # those keys map that row onto this one instead of leaving a duplicate.
    text_keys = (text_key(abstract_en or title), legacy_key(abstract_en or title))
    aliases = text_keys if arxiv_id is not None else text_keys[1:]
    paper = ParsedPaper(
        kind=KIND_HUGGINGFACE,
        position=position,
        line=begin + 1,
        key=key,
        aliases=aliases,
        arxiv_id=arxiv_id,
        title=title,
        name=None,
        subtitle=None,
        authors=_authors(meta.get("authors", "")),
        categories=tuple(c for c in _CATEGORY_SEPARATOR.split(meta.get("categories", "")) if c),
        pdf_url=meta.get("pdf url") or None,
        arxiv_url=meta.get("arxiv url") or None,
        coolpaper_url=meta.get("coolpaper url") or None,
        published_at=dates["published"],
        updated_at=dates["updated"],
        abstract_en=abstract_en,
        abstract_zh=join_lines(sections[_ABSTRACT_ZH]) or None,
        llm_analysis=clean_analysis(sections[_ANALYSIS_TEXT]),
    )
    return paper, None if unlabelled is None else body + unlabelled, undated


def _metadata_block(stripped: Sequence[str], begin: int, end: int) -> tuple[int, int]:
    """The last run of metadata lines (blank lines and other labels' lines allowed inside,
    not first). Taking the last run keeps a metadata-looking line inside the analysis out;
    lines after the run are leftovers of the table of contents and are dropped. No
    metadata: (end, end)."""
    run_start = run_end = end
    current: int | None = None
    for index in range(begin, end):
        line = stripped[index]
        if _META.fullmatch(line):
            if current is None:
                current = index
            run_start, run_end = current, index + 1
        elif line and not (current is not None and _OTHER_META.fullmatch(line)):
            current = None
    return run_start, run_end


def _sections(body: Sequence[str]) -> tuple[dict[int, list[str]], int | None]:
    """Split the lines between title and metadata at the section markers. Markers only
    move forward (but for the English abstract after the Chinese one), so a `摘要：` inside
    the analysis stays analysis text. An analysis whose label was lost begins at its first
    question, after the Chinese abstract: that line's index comes second."""
    sections: dict[int, list[str]] = {_ABSTRACT_EN: [], _ABSTRACT_ZH: [], _ANALYSIS_TEXT: []}
    before: list[str] = []  # lines before any marker
    stage = 0
    unlabelled = None
    for index, line in enumerate(body):
        # The English abstract comes first, or after the Chinese one if an export put it so.
        english_next = stage < _ABSTRACT_EN or (
            stage == _ABSTRACT_ZH and not any(sections[_ABSTRACT_EN])
        )
        if english_next and (match := _ABSTRACT.match(line)):
            stage = _ABSTRACT_EN
            sections[stage].append(match.group(1))
        elif stage < _ABSTRACT_ZH and _ZH_HEADING.fullmatch(line):
            stage = _ABSTRACT_ZH
        elif (
            stage <= _ABSTRACT_ZH
            and not any(sections[_ABSTRACT_ZH])
            and (match := _ZH_ABSTRACT.match(line))
        ):
            stage = _ABSTRACT_ZH
            sections[stage].append(match.group(1))
        elif (stage < _ANALYSIS_TEXT or unlabelled is not None) and _ANALYSIS.fullmatch(line):
            if unlabelled is not None:  # the label comes after all: the question was abstract
                sections[_ABSTRACT_ZH] += sections[_ANALYSIS_TEXT]
                sections[_ANALYSIS_TEXT], unlabelled = [], None
            stage = _ANALYSIS_TEXT
        elif stage == _ABSTRACT_ZH and _QUESTION.match(line) and any(sections[stage]):
            stage, unlabelled = _ANALYSIS_TEXT, index
            sections[stage].append(line)
        elif stage:
            sections[stage].append(line)
        else:
            before.append(line)
    if not any(sections[_ABSTRACT_EN]):  # its label lost: the text before the Chinese one
        sections[_ABSTRACT_EN] = before
    return sections, unlabelled


def clean_analysis(lines: Sequence[str]) -> str | None:
    """Drop citation-number lines and markdown escapes; glue back the text a citation cut
    apart. Other line breaks (formulas, lists) stay; paragraphs keep one blank line."""
    paragraphs: list[list[list[str]]] = [[]]  # paragraph -> lines -> pieces
    glue = False  # the previous line was a citation number cut out of the text
    for raw in lines:
        line = raw.strip()
        if not line:
            if paragraphs[-1]:
                paragraphs.append([])
            continue
        if _CITATION.fullmatch(line):
            glue = True
            continue
        if "\\" in line:
            line = _MARKDOWN_ESCAPE.sub(_unescape, line)
        continues = glue or line[0] in _CLOSING
        glue = False
        if continues and not paragraphs[-1] and len(paragraphs) > 1:
            paragraphs.pop()  # the blank line fell inside a cut sentence
        if continues and paragraphs[-1]:
            pieces = paragraphs[-1][-1]
            if _needs_space(pieces[-1][-1], line[0]):
                pieces.append(" ")
            pieces.append(line)
        else:
            paragraphs[-1].append([line])
    text = "\n\n".join(
        "\n".join("".join(pieces) for pieces in paragraph) for paragraph in paragraphs if paragraph
    )
    return text or None


def _unescape(match: re.Match[str]) -> str:
    return match.group(1)


def _needs_space(before: str, after: str) -> bool:
    return after not in _CLOSING and not (is_cjk(before) and is_cjk(after))


def _authors(listed: str) -> tuple[str, ...]:
    """Each author of the list once: `Surname, J.` stays one author."""
    authors: list[str] = []
    for part in filter(None, _LIST_SEPARATOR.split(listed)):
        if authors and _INITIALS.fullmatch(part) and not _INITIALS.fullmatch(authors[-1]):
            authors[-1] += f", {part}"
        else:
            authors.append(part)
    return tuple(authors)


def _timestamp(value: str | None) -> datetime | None:
    """ISO 8601; a time without zone is UTC; unreadable values are dropped, not fatal."""
    if not value:
        return None
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
