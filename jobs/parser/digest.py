"""`parse_digest`: detect the format from the first line, then hand over to its parser.
What either format's file may suffer whole (mojibake, a paper written twice) is dealt
with here."""

import contextlib
import functools
import itertools
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from datetime import date
from operator import attrgetter, itemgetter

from storage.matching import ends_sentence
from storage.paper_keys import deep_read_key_apart

from .deep_read import is_markup, parse_deep_reads, without_markup
from .errors import DamagedText, DigestParseError, DigestWarning
from .huggingface import HEADER, parse_entries
from .model import FORMAT_DEEP_READ, FORMAT_HUGGINGFACE, KIND_DEEP_READ, ParsedDigest, ParsedPaper
from .naming import quoted
from .text import (
    DRESSING,
    LOST,
    MANGLED_LOSSILY,
    digest_lines,
    lines_starting,
    lossy_mojibake,
    lost_in_mangling,
    nul_hole,
    paragraphs,
    refuse_mostly_lost,
    unescaped,
    unmangled,
    unmangled_lines,
    untagged,
    without_nuls,
)

_DATE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})")
_DATE_LENGTH = len("YYYY-MM-DD")
# Digests of the two formats one file may hold in turn: each part is read again as the
# rest of the file, so hostile text alternating them costs a bounded number of passes.
_MOST_PARTS = 4
# A date line as other tools write it (a warning): `2026/09/28`, `2026.9.28`, `2026_09_28`,
# `2026年9月28日`, `20260928`, or with the year last (`28/09/2026`, `09/28/2026`: which
# number is the month is told by the one over 12); a weekday after it, dressed as a
# markdown heading or in bold.
_YEAR_FIRST = r"([0-9]{4})\s*[-/._年]\s*([0-9]{1,2})\s*[-/._月]\s*([0-9]{1,2})"
_COMPACT = r"((?:19|20)[0-9]{2})(0[1-9]|1[0-2])(0[1-9]|[12][0-9]|3[01])"  # none else is a date
_YEAR_LAST = r"([0-9]{1,2})\s*[-/.]\s*([0-9]{1,2})\s*[-/.]\s*([0-9]{4})"
_OTHER_DATE = re.compile(
    DRESSING
    + f"(?:{_YEAR_FIRST}|{_COMPACT}|{_YEAR_LAST})"
    + r"(?:\s*日)?(?:[\s,，]*[(（]?(?:(?:星期|周)[一二三四五六日天]|(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)"
    r"[a-z]*\.?)[)）]?)?(?:\*\*)?",
    re.IGNORECASE,
)
# What a line (leading spaces aside) must start with to be a date line, or a HuggingFace
# header (`HEADER`: its dressing, or the name in either case).
_DIGITS: tuple[str, ...] = tuple("0123456789")
_DATE_STARTS = (*_DIGITS, "#", "*")
_HEADER_STARTS: tuple[str, ...] = ("#", "*", "h", "H")
_DATE_LIKE = re.compile(r"[0-9]{4}\s*[-/.]")  # a date line, if not a well-formed one
# A first line this short that holds a date among other words is a title with the date in
# it (`论文精读 2026-09-28`, `Deep reads, September 28, 2026`); and a line this short that
# the date line follows is the file's title.
_TITLE_LENGTH = 80
_DATE_IN = re.compile(rf"(?<![0-9]){_YEAR_FIRST}(?![0-9])")
_MONTH = (
    r"(Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?"
    r"|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.?"
)
_ORDINAL = r"([0-9]{1,2})(?:st|nd|rd|th)?"
_MONTH_DAY_YEAR = re.compile(rf"\b{_MONTH}\s+{_ORDINAL},?\s+([0-9]{{4}})\b", re.IGNORECASE)
_DAY_MONTH_YEAR = re.compile(rf"\b{_ORDINAL}\s+{_MONTH},?\s+([0-9]{{4}})\b", re.IGNORECASE)
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_NAMES_HUGGINGFACE = re.compile(r"hugging\s*face|daily\s+papers|\bhf\b", re.IGNORECASE)
_BEFORE_FIRST_LINE = "text before the digest's first line (a title, a heading, a rule): left out"
_OTHER_FIRST_LINE = "the first line should be {}, found {}; read as {}"
_LAST_CHARACTER = itemgetter(slice(-1, None))
_JOINED_START = "another digest begins here"
_JOINED = (
    _JOINED_START + " ({}): this file holds more than one digest, and its papers are all dated {}"
)
_MID_SENTENCE = re.compile(r"(?:[^\W\d_]|[,，:：、])$")  # a letter (any script) or a comma
_CUT_SHORT = (
    "the file ends mid-sentence (…{}): it looks cut short; what it holds is stored, the "
    "rest when the whole file is delivered"
)
_NO_ENTRY = "no paper found in this list: an entry is `N. <Title>` with `Abstract:` after it"
_QUOTE_OF = (
    "claim 1's quote is that of the paper at line {} (pasted into the wrong paper?): this "
    "paper is told apart by its other quotes"
)
_MOJIBAKE_LOSSY = (
    "this line is UTF-8 that a tool read as Windows-1252 and saved again, losing bytes on "
    "the way: its Chinese cannot be read back, and is stored as it is; send the file again "
    "from its source"
)
_REPEATED = "this paper appears again here (first at line {}): read once, as first written"
_MOJIBAKE = (
    "the file's text is UTF-8 that was read as Windows-1252 (or Latin-1) and saved again: "
    "read as the UTF-8 it was"
)
_MOJIBAKE_LINES = (
    "the text of lines {} is UTF-8 that was read as Windows-1252 (or Latin-1) and saved "
    "again: read as the UTF-8 it was"
)
_LINES_LISTED = 8
_ENTITIES = (
    "the file's text holds HTML entities (`&quot;`, `&amp;`) from here on: read as the "
    "characters they stand for"
)
_LOST = (
    "the file's text holds characters lost in encoding from here on (bytes that are not "
    "UTF-8, read as '\ufffd')"
)
_NULS = "NUL bytes in this line (left by a damaged copy or transfer): read without them"
_HOLE = (
    "{:,} NUL bytes in a row inside the text: a block of the file was lost (a damaged copy "
    "or an interrupted write); deliver the file again"
)
_PADDING = (
    "the file ends in {:,} NUL bytes from here (the padding a crash or a preallocating copy "
    "leaves): left out"
)
_TAGS = "the file's text holds HTML tags (`<br>`, `<p>`, `<b>`) from here on: left out"
_UNKNOWN_FORMAT = (
    "unknown digest format: first line should be a date (YYYY-MM-DD) "
    "or 'HuggingFace Papers YYYY-MM-DD'"
)


def parse_digest(text: str) -> ParsedDigest:
    """Parse a digest's text into papers; raises DigestParseError on what it cannot read."""
    if "\x00" in text and (hole := nul_hole(text)) is not None:
        raise DigestParseError(_HOLE.format(hole[1]), hole[0])
    read, nul_lines, padding = without_nuls(text)
    mended = unmangled(read)
    whole, mended_lines = unmangled_lines(read) if mended is None else (mended, [])
    refuse_mostly_lost(whole)
    # Tags before entities: an entity for `<` stands for text, never for a tag.
    text, tag_line = untagged(whole)
    text, entity_line = unescaped(text)
    try:
        digest = _parse(text)
    except DigestParseError as error:
        # A deep-read digest needs its Chinese (notes, labels, claims): mojibake too slight
        # to refuse one for is why it cannot be read past its date line. Other text, and a
        # bad date line, keep their own reason.
        dated = _deep_reads_date_line(read)
        if dated is not None and error.line != dated and lost_in_mangling(read):
            raise DamagedText(MANGLED_LOSSILY, 1) from None
        raise
    kept, repeated = _once(digest.papers)
    notes = [*digest.warnings, *repeated, *(DigestWarning(line, _NULS) for line in nul_lines)]
    if padding is not None:
        notes.append(DigestWarning(padding[0], _PADDING.format(padding[1])))
    if mended is not None:
        notes.append(DigestWarning(1, _MOJIBAKE))
    if mended_lines:
        lines = ", ".join(map(str, mended_lines[:_LINES_LISTED])) + (
            ", …" if len(mended_lines) > _LINES_LISTED else ""
        )
        notes.append(DigestWarning(mended_lines[0], _MOJIBAKE_LINES.format(lines)))
    if entity_line is not None:
        notes.append(DigestWarning(entity_line, _ENTITIES))
    if tag_line is not None:
        notes.append(DigestWarning(tag_line, _TAGS))
    if (lost := text.find(LOST)) >= 0:
        notes.append(DigestWarning(text.count("\n", 0, lost) + 1, _LOST))
    notes += (DigestWarning(line, _MOJIBAKE_LOSSY) for line in lossy_mojibake(text))
    return replace(digest, papers=kept, warnings=tuple(sorted(notes, key=attrgetter("line"))))


def opening_line(lines: Sequence[str]) -> int | None:
    """The index of a digest's first line (its date or header): the first with text, past
    markdown a pipeline put before it (a title as a heading, a rule, a code fence) and a
    short line of text that the date line or header follows (a title). A title with the
    date in it is the first line when no date line or header follows it."""
    title = None  # a short line of text: the first line, unless a date line follows it
    for index, line in enumerate(lines):
        text = line.strip()
        if not text:
            continue
        if opens_a_digest(text):
            return index
        if is_markup(text) and _titled_date(text) is None:
            continue
        if title is not None:
            return title
        if len(text) > _TITLE_LENGTH:
            return index
        title = index
    return title


def _deep_reads_date_line(text: str) -> int | None:
    """The line number of the text's first line if it is a deep-read digest's date line."""
    lines = digest_lines(text)
    first = opening_line(lines)
    return first + 1 if first is not None and _is_date(lines[first].strip()) else None


def opens_a_digest(line: str) -> bool:
    """Whether a (stripped) line is a digest's date line or header, in any form the parser
    reads, its date valid or not."""
    return _is_date(line) or HEADER.fullmatch(line) is not None


def _parse(text: str, parts: int = _MOST_PARTS) -> ParsedDigest:
    lines = digest_lines(text)
    first = opening_line(lines)
    if first is None:
        raise DigestParseError("digest is empty")
    for other, column in _other_formats(lines, first) if parts > 1 else ():
        # Its opening line may have run onto the end of the line before (`cat` of a file
        # that ends without a newline): the two parts then share that line.
        after = [lines[other][column:], *lines[other + 1 :]]
        if (rest := _other_digest(after, parts - 1)) is not None:
            break
    else:
        return _read(lines, first)
    before = [*lines[:other], lines[other][:column].rstrip()] if column else lines[:other]
    # A digest of the other format run into this one (concatenated exports): each part is
    # read as what it is, and the papers are dated by the first, as digests of one format.
    digest = _read(before, first)
    shift = len(digest.papers)
    papers = (
        replace(paper, position=paper.position + shift, line=paper.line + other)
        for paper in rest.papers
    )
    joined = DigestWarning(other + 1, _JOINED.format(after[0].strip(), digest.digest_date))
    moved = (replace(warning, line=warning.line + other) for warning in rest.warnings)
    return replace(
        digest,
        papers=(*digest.papers, *papers),
        warnings=(*digest.warnings, joined, *moved),
    )


def _other_formats(lines: Sequence[str], first: int) -> Iterator[tuple[int, int]]:
    """Where a digest of the other format may begin after the first line (`first`), as
    (line, column): a HuggingFace header (with its date) after a date line, a date line as
    written YYYY-MM-DD after a HuggingFace header. The first run onto the end of the last
    line of the file before it (`cat` of a file that ends without a newline), if one comes
    before the first on a line of its own; then that one. Two at most: each is read."""
    head = lines[first].strip()
    if _is_date(head):
        opens: Callable[[str], object] = _dated_header
        starts, glued = _HEADER_STARTS, _glued_header
    elif HEADER.fullmatch(head):
        opens, starts = _DATE.fullmatch, _DIGITS
        glued = functools.partial(_glued_date_column, after_a_mark=True)
    else:
        return
    later = lines_starting(lines, first + 1, starts)
    own = next((index for index in later if opens(lines[index].strip())), len(lines))
    # Either opening ends in its date: only lines ending in a digit are looked at further.
    ends_in_digit = map(str.isdigit, map(_LAST_CHARACTER, lines[first + 1 : own]))
    for index in itertools.compress(itertools.count(first + 1), ends_in_digit):
        if column := glued(lines[index]):
            yield index, column
            break
    if own < len(lines):
        yield own, 0


def _glued_header(line: str) -> int | None:
    """The column where a HuggingFace header with its date runs onto the end of a sentence."""
    if "apers" not in line and "APERS" not in line:  # most lines ending in a digit: at once
        return None
    column = line.lower().rfind("huggingface")
    if column <= 0 or not _dated_header(line[column:]) or not ends_sentence(line[:column].rstrip()):
        return None
    return column


def _glued_date_column(line: str, *, after_a_mark: bool = False) -> int | None:
    """Where a date line runs onto the end of the line before it (`…请以原文为准。2026-09-09`:
    `cat` of a file that ends without a newline), or None. Only a valid YYYY-MM-DD date, as
    a date line writes it, right after the end of a sentence counts (a date inside a
    sentence is text); `after_a_mark`: or after the punctuation a list's last line may end
    in (`：`), not after a word or a date's own separators."""
    column = len(line) - _DATE_LENGTH
    if column <= 0 or _DATE.fullmatch(line, column) is None:  # most lines fail here at once
        return None
    mark = line[column - 1]
    marked = after_a_mark and not (mark.isalnum() or mark.isspace() or mark in "-/.:_")
    if not marked and not ends_sentence(line[:column].rstrip()):
        return None
    return column if _date_or_none(line[column:]) else None


def _other_digest(lines: Sequence[str], parts: int) -> ParsedDigest | None:
    """The digest of the other format that `lines` open, if it is one: papers read in that
    format, from text that does not go on as a HuggingFace list (a date on its own line
    inside an entry's analysis, a list's header quoted in a deep read: no boundary).
    `parts`: how many digests the rest may still be cut into."""
    try:
        rest = _parse("\n".join(lines), parts)
    except DigestParseError:
        return None
    # Its own part: up to a digest that begins after it in turn.
    end = min(
        (w.line - 1 for w in rest.warnings if w.message.startswith(_JOINED_START)), default=None
    )
    if not rest.papers or (rest.format == FORMAT_DEEP_READ and parse_entries(lines[:end], 0)[0]):
        return None
    return rest


def _dated_header(line: str) -> bool:
    header = HEADER.fullmatch(line)
    return header is not None and header.group(1) is not None


def _read(lines: Sequence[str], first: int) -> ParsedDigest:
    """The digest whose first line is at `first`, in the format that line opens."""
    head, line_number = lines[first].strip(), first + 1
    before = next((index for index in range(first) if lines[index].strip()), None)
    opening = () if before is None else (DigestWarning(before + 1, _BEFORE_FIRST_LINE),)

    if _is_date(head):
        digest_date = _parse_date(head, line_number)
        first_line = _first_line(head, f"{digest_date}", "the date as YYYY-MM-DD", line_number)
        return _deep_reads(lines, first, digest_date, (*opening, *first_line))

    header = HEADER.fullmatch(head)
    if header:
        if header.group(1) is None:
            raise DigestParseError(
                "HuggingFace header has no date: expected 'HuggingFace Papers YYYY-MM-DD'",
                line_number,
            )
        digest_date = _parse_date(header.group(1), line_number)
        expected = f"HuggingFace Papers {digest_date}"
        first_line = _first_line(head, expected, f"'{expected}'", line_number)
        return _huggingface(lines, first, digest_date, (*opening, *first_line))

    titled = _titled_date(head)
    if titled is not None:
        # Which format a title names; a title over no paper heads no digest (notes).
        huggingface = _NAMES_HUGGINGFACE.search(head) is not None
        expected = f"HuggingFace Papers {titled}" if huggingface else f"{titled}"
        described = f"'{expected}'" if huggingface else "the date as YYYY-MM-DD"
        first_line = _first_line(head, expected, described, line_number)
        read = _huggingface if huggingface else _deep_reads
        with contextlib.suppress(DigestParseError):  # then: what the line is not, below
            if (digest := read(lines, first, titled, (*opening, *first_line))).papers:
                return digest

    if _DATE_LIKE.match(head):
        _parse_date(head, line_number)  # raises: the line is no YYYY-MM-DD date
    raise DigestParseError(_UNKNOWN_FORMAT, line_number)


def _deep_reads(
    lines: Sequence[str], first: int, digest_date: date, head: tuple[DigestWarning, ...]
) -> ParsedDigest:
    """The deep reads after the first line (`first`), `head` the warnings about it."""
    body = without_markup(lines)
    # Digests run together (concatenated exports): each later date line is a boundary, and
    # so is a date line run onto the end of the line before it (the file before ended
    # without a newline): that line's paragraph ends there.
    later: list[tuple[int, str]] = []  # (index, date line)
    cuts = [first + 1]  # where a run of paragraphs starts: after the first line, a glued date
    for index in range(first + 1, len(lines)):
        if _is_date(line := lines[index].strip()):
            later.append((index, line))
            body[index] = ""
        elif column := _glued_date_column(lines[index]):
            later.append((index, glued := lines[index][column:]))
            body[index] = body[index].removesuffix(glued).rstrip()
            cuts.append(index + 1)
    runs = zip(cuts, [*cuts[1:], len(lines)], strict=True)
    papers, warnings = parse_deep_reads([p for run in runs for p in paragraphs(body, *run)])
    joined = _joined(later, digest_date)
    # (An abstract-only entry's abstract is cut mid-word by the format itself: no sign.)
    cut = _cut_short(body) if papers and papers[-1].kind == KIND_DEEP_READ else ()
    return ParsedDigest(FORMAT_DEEP_READ, digest_date, papers, (*head, *warnings, *joined, *cut))


def _cut_short(body: Sequence[str]) -> tuple[DigestWarning, ...]:
    """A warning when the text ends in the middle of a sentence (a word, a comma; not a
    number, which a table's row may end in): a deep read ends with its follow-ups, each a
    sentence, and a file that does not was most likely cut while written or copied."""
    last = next((i for i in range(len(body) - 1, -1, -1) if body[i].strip()), None)
    if last is None or not _MID_SENTENCE.search(body[last]):
        return ()
    return (DigestWarning(last + 1, _CUT_SHORT.format(body[last].strip()[-24:])),)


def _huggingface(
    lines: Sequence[str], first: int, digest_date: date, head: tuple[DigestWarning, ...]
) -> ParsedDigest:
    """The HuggingFace entries after the header (`first`), `head` the warnings about it."""
    entries, warnings = parse_entries(lines, first + 1)
    # Text none of whose entries could be read would otherwise load as an empty day.
    unread = not entries and any(line.strip() for line in lines[first + 1 :])
    empty = (DigestWarning(first + 1, _NO_ENTRY),) if unread else ()
    # The list repeats its header before its table of contents; another date is another
    # list run into this one.
    later = [
        (index, lines[index].strip())
        for index in lines_starting(lines, first + 1, _HEADER_STARTS)
        if (other := HEADER.fullmatch(lines[index].strip()))
        and other.group(1) is not None
        and _date_or_none(other.group(1)) != digest_date
    ]
    joined = _joined(later, digest_date)
    return ParsedDigest(
        FORMAT_HUGGINGFACE, digest_date, entries, (*head, *empty, *warnings, *joined)
    )


def _titled_date(line: str) -> date | None:
    """The one date a short first line holds among other words, or None: none, two (a
    range: which one?), or no valid date."""
    if len(line) > _TITLE_LENGTH:
        return None
    found = _DATE_IN.findall(line)
    found += [(y, month, d) for month, d, y in _MONTH_DAY_YEAR.findall(line)]
    found += [(y, month, d) for d, month, y in _DAY_MONTH_YEAR.findall(line)]
    if len(found) != 1:
        return None
    year, month, day = found[0]
    number = int(month) if month.isdigit() else _MONTHS.index(month[:3].lower()) + 1
    try:
        return date(int(year), number, int(day))
    except ValueError:
        return None


def _once(
    papers: tuple[ParsedPaper, ...],
) -> tuple[tuple[ParsedPaper, ...], list[DigestWarning]]:
    """Each paper once: a pipeline that wrote an entry (or the whole file) twice."""
    first: dict[str, ParsedPaper] = {}
    repeated: list[DigestWarning] = []
    for paper in papers:
        if paper.key in first and (apart := _told_apart(paper, first[paper.key])) is not None:
            repeated.append(DigestWarning(paper.line, _QUOTE_OF.format(first[paper.key].line)))
            paper = apart
        if paper.key in first:
            repeated.append(DigestWarning(paper.line, _REPEATED.format(first[paper.key].line)))
        else:
            first[paper.key] = paper
    if not repeated:
        return papers, []
    # The positions stay 1, 2, 3, …
    kept = (replace(paper, position=n) for n, paper in enumerate(first.values(), start=1))
    return tuple(kept), repeated


def _told_apart(paper: ParsedPaper, keyed: ParsedPaper) -> ParsedPaper | None:
    """`paper` keyed apart from `keyed`, the paper of its key, when the two are different
    deep reads whose first quote alone is the same (pasted into the wrong claim): other
    names, and no other quote in common. They were one paper, and the second was lost."""
    if not (paper.kind == keyed.kind == KIND_DEEP_READ and paper.name != keyed.name):
        return None
    quotes = [claim.quote_en for claim in paper.claims]
    if len(quotes) < 2 or set(quotes[1:]) & {claim.quote_en for claim in keyed.claims}:
        return None
    return replace(paper, key=deep_read_key_apart(quotes, paper.positioning or ""))


def _parse_date(value: str, line_number: int) -> date:
    match = _date_match(value)
    if match is None:
        raise DigestParseError(f"{quoted(value)} is not a date in YYYY-MM-DD form", line_number)
    numbers = [int(part) for part in match.groups() if part is not None]
    if match.re is _OTHER_DATE and match.group(7) is not None:  # the year last
        first, second, year = numbers
        if first <= 12 and second <= 12 and first != second:
            raise DigestParseError(
                f"{quoted(value)} is a date of either day {first} or day {second}: write it as "
                "YYYY-MM-DD",
                line_number,
            )
        numbers = [year, first, second] if second > 12 else [year, second, first]
    try:
        return date(*numbers)
    except ValueError:
        raise DigestParseError(f"{quoted(value)} is not a valid date", line_number) from None


def _date_or_none(value: str) -> date | None:
    try:
        return _parse_date(value, 0)
    except DigestParseError:
        return None


def _date_match(value: str) -> re.Match[str] | None:
    """A date as the format writes it, or as other tools do."""
    return _DATE.fullmatch(value) or _OTHER_DATE.fullmatch(value)


def _is_date(line: str) -> bool:
    """Whether a line is a date line, in any form the first line may take."""
    return line.startswith(_DATE_STARTS) and _date_match(line) is not None  # most fail at once


def _joined(later: Sequence[tuple[int, str]], digest_date: date) -> list[DigestWarning]:
    """A warning at each line (index) where another digest begins, with its date line."""
    return [DigestWarning(i + 1, _JOINED.format(line, digest_date)) for i, line in later]


def _first_line(head: str, expected: str, described: str, line: int) -> tuple[DigestWarning, ...]:
    """A warning when the first line is not written as the format writes it."""
    if head == expected:
        return ()
    return (DigestWarning(line, _OTHER_FIRST_LINE.format(described, quoted(head), expected)),)
