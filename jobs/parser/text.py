"""Bytes to text, and the line and paragraph handling both formats share.

Real exports come with a BOM, CRLF line ends, trailing spaces and stray blank lines;
`digest_lines` removes all of that in one place, so the format parsers never see it.
"""

import codecs
import contextlib
import html
import itertools
import re
from collections.abc import Iterable, Iterator, Sequence
from typing import NamedTuple

from .errors import DamagedText, DigestParseError

# Byte order marks: UTF-8's is dropped; UTF-16's is how Windows tools (PowerShell's
# `Out-File`, Notepad's "Unicode") mark the text they write.
_BOMS = {b"\xef\xbb\xbf": "utf-8", b"\xff\xfe": "utf-16-le", b"\xfe\xff": "utf-16-be"}
# Invisible characters that copying from web pages leaves (zero-width space, word joiner,
# direction marks) and concatenated exports (a BOM per file): a line that holds only them
# is blank, and a date line that ends in one is still a date.
_DEBRIS = "\ufeff\u200b\u2060\u200e\u200f\u00ad"  # the last: a soft hyphen, web text's
# A terminal's escape sequence (ECMA-48): a control sequence (`ESC [`, parameters, a final
# byte: colours), or ESC, intermediates and a final byte (`ESC ( B`), or a lone ESC.
_ESCAPE_SEQUENCE = re.compile(r"\x1b(?:\[[0-?]{0,32}[ -/]{0,8}[@-~]|[ -/]{0,8}[0-~]?)")
LOST = "\ufffd"  # a character lost in encoding
# Numbers written as emoji keycaps (`1️⃣`, `1️⃣0️⃣`, `🔟`), as chat tools number a list.
_KEYCAPS = re.compile("(?:[0-9]\ufe0f?\u20e3)+|\U0001f51f")
# How a markdown export dresses a line the format writes plain: a heading, bold.
DRESSING = r"(?:#{1,6}\s*)?(?:\*\*)?"
# A UTF-8 file with at most this many stray bytes, and one for every 100 of its other
# characters at most, is read with them lost; more, and it is no UTF-8 (GBK, a binary).
_STRAY_BYTES = 16
_STRAY_SHARE = 100
# Control characters other than tab, LF, VT, FF and CR (and NUL: see _NULS).
_CONTROL = re.compile(r"[\x01-\x08\x0e-\x1f\x7f]")
_CONTROL_BYTES = bytes([*range(0x01, 0x09), *range(0x0E, 0x20), 0x7F])
# A text digest has next to no control characters; this share means it is not one.
_BINARY_CONTROL_SHARE = 0.1
# NUL bytes in text are damage: the padding a crash or a preallocating copier leaves at the
# end (or as a hole), a stray one from a broken transfer. Text that is UTF-8 without them,
# with a run of them at most every _NUL_SPACING other bytes, is read without them (the
# parser warns on each line). UTF-16 or UTF-32 without their mark hold a NUL every few
# bytes, and images and archives are no UTF-8 around theirs: binary, as before.
_NULS = re.compile(r"\x00+")
_NUL_RUNS = re.compile(rb"\x00+")
_NUL_SPACING = 100
# A run this long inside the text is a hole: a block of the file that came back as zeros
# (a damaged copy, an interrupted write); the text that was there is lost.
_HOLE = re.compile(r"\x00{64,}")

# Ideographs, kana, CJK punctuation and full-width forms: no space is written between them.
CJK_CHARS = r"\u2e80-\u9fff\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef"  # for a [class]
_CJK = re.compile(f"[{CJK_CHARS}]")

TAB_WIDTH = 4


def list_number(digits: int) -> str:
    """The pattern of a list item's number however it is written (`5.`, `5)`, `(5)`, `５.`,
    `5：`, `5、` (Chinese lists), `5．` or `5。` before a digit too, but not the `1` of
    `1.5`: a decimal point is never written full width); the number is its one group."""
    return rf"[(（\[]?([0-9０-９]{{1,{digits}}})\s*(?:[.:：](?![0-9])|[．。、)）\]])"


def byte_order(data: bytes) -> tuple[str, bytes]:
    """The encoding a file's byte order mark announces (UTF-8 without one), and the bytes
    after the mark."""
    for bom, encoding in _BOMS.items():
        if data.startswith(bom):
            return encoding, data[len(bom) :]
    return "utf-8", data


def without_debris(text: str) -> str:
    for char in _DEBRIS:  # a scan each (str.translate takes ten times as long)
        if char in text:
            text = text.replace(char, "")
    if "\x1b" in text:  # colours a terminal's output kept (`\x1b[1mAV-GRPO\x1b[0m`)
        text = _ESCAPE_SEQUENCE.sub("", text)
    if "\u20e3" in text or "\U0001f51f" in text:
        text = _KEYCAPS.sub(_keycap_number, text)
    return text


def _keycap_number(keycaps: re.Match[str]) -> str:
    """`1️⃣` as `1.`, `1️⃣0️⃣` and `🔟` as `10.`: the number a list's item holds."""
    digits = "".join(c for c in keycaps[0] if c.isdigit()) or "10"
    return f"{digits}."


def decode_digest(data: bytes) -> str:
    """Decode a digest file: UTF-8 (a BOM dropped; stray NUL bytes kept, for
    `parse_digest` to remove where it warns), or UTF-16 after its BOM; anything else is
    refused."""
    encoding, body = byte_order(data)
    offset, data = len(data) - len(body), body
    if not data:
        raise DigestParseError("file is empty")
    if encoding == "utf-8" and b"\x00" in data and not stray_nuls(data):
        raise DigestParseError("file is binary, not a text digest")
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:
        repaired = _stray_bytes_replaced(data) if encoding == "utf-8" else None
        if repaired is None:
            raise _not_decoded(data, encoding, exc, offset) from None
        text = repaired
    if not text.strip():
        raise DigestParseError("file holds only whitespace")
    nuls = text.count("\x00")  # strays in UTF-8, which parse_digest removes
    controls = (  # in UTF-8 each is its one byte: counted in C, not by a scan of the text
        len(data) - len(data.translate(None, _CONTROL_BYTES))
        if encoding == "utf-8"
        else len(_CONTROL.findall(text))
    )
    if (nuls and encoding != "utf-8") or controls > (len(text) - nuls) * _BINARY_CONTROL_SHARE:
        raise DigestParseError("file is binary, not a text digest")
    return text


def refuse_mostly_lost(text: str) -> None:
    """Text of which more than a hundredth was lost in encoding (`\ufffd`) is refused: a
    few lost characters are read past (with a warning), whole fields of them are not."""
    lost = text.count(LOST)
    if lost * _STRAY_SHARE > len(text) - lost:
        raise DamagedText(_MOSTLY_LOST.format(lost), text.count("\n", 0, text.find(LOST)) + 1)


_MOSTLY_LOST = (
    "the file's text holds {:,} characters lost in encoding (`\ufffd`, from here on: a tool "
    "read it as another encoding, such as GBK, and saved it again): deliver the original file"
)


def stray_nuls(data: bytes) -> bool:
    """Whether the NUL bytes in UTF-8 data are damage to text that is read without them
    (see _NULS), rather than the mark of a binary file or of a wider encoding."""
    body = data.rstrip(b"\x00")  # padding, however long, is one piece of damage
    rest = body.replace(b"\x00", b"")
    if len(_NUL_RUNS.findall(body)) * _NUL_SPACING > len(rest):
        return False
    return _stray_bytes_replaced(rest) is not None


def nul_hole(text: str) -> tuple[int, int] | None:
    """The line (1-based) and length of the first hole of NUL bytes inside the text
    (`_HOLE`; the padding it may end in aside, a line break after that padding too), or
    None."""
    hole = _HOLE.search(text.rstrip("\x00\r\n"))
    if hole is None:
        return None
    return _line_breaks(text, 0, hole.start()) + 1, hole.end() - hole.start()


def without_nuls(text: str) -> tuple[str, list[int], tuple[int, int] | None]:
    """The text without its NUL bytes; the lines (1-based) that held them, padding aside;
    and where the NUL padding the text ends in begins (its line) and its length, or None."""
    if "\x00" not in text:
        return text, [], None
    body = text.rstrip("\x00")
    lines: list[int] = []
    line, counted = 1, 0
    for run in _NULS.finditer(body):  # lines counted on from the run before: linear
        line += _line_breaks(body, counted, run.start())
        counted = run.start()
        if not lines or lines[-1] != line:
            lines.append(line)
    padding = None
    if len(body) < len(text):
        padding = (line + _line_breaks(body, counted, len(body)), len(text) - len(body))
    return body.replace("\x00", ""), lines, padding


def _line_breaks(text: str, start: int, end: int) -> int:
    """How many lines end in `text[start:end]`: at LF, CRLF or a lone CR, as `digest_lines`
    splits them."""
    crlf = text.count("\r\n", start, end)
    return text.count("\n", start, end) + text.count("\r", start, end) - crlf


_MANGLED_LAYERS = 3  # tools in a row that misread a file, undone at most


def unmangled(text: str, layers: int = _MANGLED_LAYERS) -> str | None:
    """The text before it was mangled, when it is UTF-8 that a tool read as Windows-1252
    or Latin-1 and saved again (mojibake: `æœ¬æ–‡` for `本文`), once or by tools in a row
    (`Ã¦Å“Â¬` for `本`), up to `layers` times; else None. Only text with no CJK but with
    the look of UTF-8's lead bytes for it is tried, and only a result that is strict UTF-8
    holding CJK is taken, which other text never is. Mangled text that lost bytes on the
    way (written as `?` or `�`, or dropped: what Windows-1252 lacks) is refused: about one
    Chinese character in seven would be lost."""
    data = _as_misread(text)
    if data is None:
        return None
    try:
        mended = data.decode("utf-8")
    except UnicodeDecodeError:
        chinese = len(_CJK.findall(data.decode("utf-8", errors="replace")))
        lines = [line for line in text.splitlines() if _MOJIBAKE_LEAD.search(line)]
        mangled = len(lines) >= _MANGLED_LINES or any(map(_was_chinese, lines))
        if chinese >= _MANGLED_CJK and mangled:
            raise DamagedText(MANGLED_LOSSILY, 1) from None
        return None  # a mangled fragment in English text (a name, a dataset) stays as is
    if has_cjk(mended) or layers <= 1:
        return mended if has_cjk(mended) else None
    return unmangled(mended, layers - 1)  # mangled again before: the next layer


def unmangled_lines(text: str) -> tuple[str, list[int]]:
    """The text with each run of such mojibake (see `unmangled`) read as the UTF-8 it was,
    where the rest is not: real Chinese beside a claim pasted from a garbled view, fields a
    pipeline fetched as Latin-1 written into its own template (`摘要：æ\x91\x98…`); and
    the lines mended. Once a run reads back as Chinese, so do the file's other runs that
    read back as strict UTF-8 (a formula's `∈` and `θ` among them)."""
    if not any(lead in text for lead in _MOJIBAKE_LEADS):  # most files: a search in C each
        return text, []
    lines = text.split("\n")
    if not _mended_lines(lines, chinese_only=True):
        return text, []
    mended = _mended_lines(lines, chinese_only=False)
    for index, read in mended.items():
        lines[index] = read
    return "\n".join(lines), sorted(index + 1 for index in mended)


def _mended_lines(lines: list[str], *, chinese_only: bool) -> dict[int, str]:
    """The lines holding mojibake that reads back as Chinese (or, not `chinese_only`, as any
    strict UTF-8), each as it reads back."""
    lead = _MOJIBAKE_LEAD if chinese_only else _UTF8_LEAD
    mended = {}
    for index, line in enumerate(lines):
        if lead.search(line):
            # Cut at the real Chinese: each piece between is mended on its own.
            pieces = _CJK_PIECES.split(line)
            pieces[::2] = (_mended_piece(piece, lead, chinese_only) for piece in pieces[::2])
            if (read := "".join(pieces)) != line:
                mended[index] = read
    return mended


def _mended_piece(piece: str, lead: re.Pattern[str], chinese_only: bool) -> str:
    data = _as_misread(piece, lead)
    with contextlib.suppress(UnicodeDecodeError):
        if data is not None and (has_cjk(read := data.decode("utf-8")) or not chinese_only):
            return read
    return piece


def _was_chinese(line: str) -> bool:
    """Whether a mangled line was Chinese (a field: an abstract, an analysis), not English
    with a name pasted in: most of its letters read back as Chinese."""
    data = _as_misread(line)
    if data is None:
        return False
    cjk, letters = cjk_share(data.decode("utf-8", errors="replace"))
    return cjk >= _MANGLED_CJK and 2 * cjk >= letters


def lossy_mojibake(text: str) -> list[int]:
    """The numbers of the lines still holding mojibake that lost bytes on the way (see
    `unmangled`): Chinese that cannot be read back, where the rest of the file could."""
    if not any(lead in text for lead in _MOJIBAKE_LEADS):  # most files: a search in C each
        return []
    return [
        number
        for number, line in enumerate(text.split("\n"), 1)
        if _MOJIBAKE_LEAD.search(line) and any(map(lost_in_mangling, _CJK_PIECES.split(line)[::2]))
    ]


def lost_in_mangling(text: str) -> bool:
    """Whether the text holds Chinese mangled as `unmangled` reads it, with bytes lost on
    the way, however little: in a file that cannot be read, that is why."""
    data = _as_misread(text)
    if data is None:
        return False
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return has_cjk(data.decode("utf-8", errors="replace"))
    return False


def _as_misread(text: str, lead: re.Pattern[str] | None = None) -> bytes | None:
    """The bytes a tool read as Windows-1252 to write `text`, if it has the look of such
    mojibake (of Chinese, or of any character's `lead`); else None."""
    if has_cjk(text) or not (lead or _MOJIBAKE_LEAD).search(text):  # the first scan ends early
        return None
    try:  # a byte the tool could not read may have become `�` as well as `?`
        return text.replace("\ufffd", "?").encode("cp1252", errors=_C1_AS_BYTES)
    except UnicodeError:
        return None


# A file mangled lossily, not a garbled fragment pasted into English text: this much
# Chinese in what is left of it, on this many lines at least or on a line that was Chinese.
_MANGLED_CJK, _MANGLED_LINES = 10, 3
MANGLED_LOSSILY = (
    "the file's text is UTF-8 that a tool read as Windows-1252 and saved again, losing "
    "the bytes that encoding lacks, so its Chinese cannot be read back whole: deliver "
    "the original file"
)


def unescaped(text: str) -> tuple[str, int | None]:
    """The text with the HTML entities an exporter wrote (`&quot;`, `&amp;`, `&#39;`) as
    the characters they stand for, and the line of the first (None: there was none). Only
    whole entities with their `;` are read; one standing for a line break becomes a space,
    so that every line keeps its number."""
    first = _ENTITY.search(text)
    if first is None:
        return text, None
    return _ENTITY.sub(_character, text), text.count("\n", 0, first.start()) + 1


def untagged(text: str) -> tuple[str, int | None]:
    """The text without the HTML formatting tags an exporter wrote (`<br>`, `<p>`, `<b>`),
    and the line of the first (None: there was none). Only these tags are markup (`<think>`
    in a quote is text); a line break or block becomes a space, so no two words join and
    every line keeps its number."""
    first = _TAG.search(text)
    if first is None:
        return text, None
    return _TAG.sub(_tag_as_text, text), text.count("\n", 0, first.start()) + 1


def _tag_as_text(tag: re.Match[str]) -> str:
    return " " if tag["name"].lower() in _BLOCK_TAGS else ""


_TAG = re.compile(
    r"</?(?P<name>p|br|div|b|strong|i|em|u|span|font|sup|sub)(?:\s[^<>\n]{0,200})?/?>",
    re.IGNORECASE,
)
_BLOCK_TAGS = frozenset({"p", "br", "div"})


def _character(entity: re.Match[str]) -> str:
    character = html.unescape(entity[0])
    return " " if character in ("\n", "\r") else character


_ENTITY = re.compile(r"&(?:[A-Za-z][A-Za-z0-9]{1,31}|#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6});")


def _c1_as_bytes(error: UnicodeError) -> tuple[bytes, int]:
    """Windows-1252 leaves five bytes undefined; the tools that read them keep them as the
    C1 control characters of the same number, so they go back to those bytes."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    chars = error.object[error.start : error.end]
    if any(ord(char) > 0xFF for char in chars):
        raise error
    return chars.encode("latin-1"), error.end


_C1_AS_BYTES = "paperbot-c1-as-bytes"
codecs.register_error(_C1_AS_BYTES, _c1_as_bytes)
# What UTF-8's lead bytes of CJK (0xE2-0xEF) look like read as Windows-1252, each followed by
# a continuation byte's look (0x80-0xBF: C1, Windows-1252's punctuation, Latin-1's symbols).
_MOJIBAKE_LEAD = re.compile("[\u00e2-\u00ef][\u0080-\u00bf\u0152-\u2122]")
_MOJIBAKE_LEADS = "".join(map(chr, range(0xE2, 0xF0)))  # twice as fast to look for alone
# The same of any character's lead byte (0xC2-0xF4: two to four bytes long).
_UTF8_LEAD = re.compile("[\u00c2-\u00f4][\u0080-\u00bf\u0152-\u2122]")
_CJK_PIECES = re.compile(f"([{CJK_CHARS}]+)")  # real Chinese, kept apart as it is


def _not_decoded(
    data: bytes, encoding: str, error: UnicodeDecodeError, offset: int
) -> DigestParseError:
    """The error for a file that is not the encoding it claims, with where and a hint."""
    line = data[: error.start].decode(encoding, errors="replace").count("\n") + 1
    hint = _guess_encoding(data) if encoding == "utf-8" else ""
    name = "UTF-8" if encoding == "utf-8" else "UTF-16"
    return DigestParseError(
        f"file is not valid {name} (byte 0x{data[error.start]:02x} at offset "
        f"{error.start + offset})" + hint,
        line,
    )


def _stray_bytes_replaced(data: bytes) -> str | None:
    """UTF-8 with a few stray bytes among much valid text (a Windows-1252 quote pasted in,
    a character cut by a broken transfer), read with those bytes as '�' (the parser warns
    where); None when the file is not UTF-8 at all."""
    text = data.decode("utf-8", errors="replace")
    stray = text.count(LOST) - data.count(LOST.encode())
    return text if stray <= _STRAY_BYTES and stray * _STRAY_SHARE <= len(text) - stray else None


def _guess_encoding(data: bytes) -> str:
    """A hint for the commonest mistake: a Chinese digest saved in a Chinese encoding. GBK
    first, the commonest; Big5 (traditional script) before GB18030, which reads nearly
    any bytes."""
    for codec, name in (("gbk", "GBK"), ("big5", "Big5"), ("gb18030", "GB18030")):
        try:
            data.decode(codec)
        except UnicodeDecodeError:
            continue
        return f"; it reads as {name}: save it as UTF-8"
    return ""


def digest_lines(text: str) -> list[str]:
    """Lines without CR or trailing whitespace, and without `_DEBRIS` anywhere (a BOM goes
    wherever it is, not only first); indentation is kept (quotes need it). CR alone and
    Unicode's line and paragraph separators (which tools built on JavaScript strings write)
    end a line as LF does."""
    text = without_debris(text)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = text.replace("\u2028", "\n").replace("\u2029", "\n")
    return [line.rstrip() for line in text.split("\n")]


def indent_of(line: str) -> int:
    if not line[:1].isspace():  # most lines: asked of every one, answered at once
        return 0
    prefix = line[: len(line) - len(line.lstrip())]
    return len(prefix.expandtabs(TAB_WIDTH))


def lines_starting(lines: Sequence[str], start: int, starts: tuple[str, ...]) -> Iterator[int]:
    """The indexes from `start` of the lines whose text (leading spaces aside) starts with
    one of `starts`: the lines a scan of a whole file for a rare kind of line (a header)
    needs to look at, found in C, at half the cost of testing each line in Python."""
    stripped = map(str.lstrip, itertools.islice(lines, start, None))
    flags = map(str.startswith, stripped, itertools.repeat(starts))
    return itertools.compress(itertools.count(start), flags)


class Paragraph(NamedTuple):  # a tuple: the parser makes one for every paragraph
    """Consecutive non-blank lines; `line` is the 1-based number of the first one."""

    line: int
    lines: tuple[str, ...]

    @property
    def text(self) -> str:
        return join_lines(self.lines)


def paragraphs(lines: Sequence[str], start: int = 0, end: int | None = None) -> list[Paragraph]:
    """Split `lines[start:end]` at blank lines (lines are already right-stripped)."""
    result: list[Paragraph] = []
    block: list[str] = []
    first = start
    for index in range(start, len(lines) if end is None else end):
        line = lines[index]
        if line.strip():
            if not block:
                first = index
            block.append(line)
        elif block:
            result.append(Paragraph(first + 1, tuple(block)))
            block = []
    if block:
        result.append(Paragraph(first + 1, tuple(block)))
    return result


def join_lines(lines: Iterable[str]) -> str:
    """Undo line wrapping: one space between the lines, none between two Chinese
    characters, so re-wrapping a paragraph never changes its text."""
    if len(lines := tuple(lines)) == 1:  # this format's paragraphs: one line each
        return " ".join(lines[0].split())
    parts: list[str] = []
    previous = ""
    for raw in lines:
        piece = " ".join(raw.split())
        if not piece:
            continue
        if previous and not (is_cjk(previous[-1]) and is_cjk(piece[0])):
            parts.append(" ")
        parts.append(piece)
        previous = piece
    return "".join(parts)


def is_cjk(char: str) -> bool:
    return _CJK.match(char) is not None


NOT_LETTER = re.compile(r"[\W\d_]+")


def has_cjk(text: str) -> bool:
    return not text.isascii() and _CJK.search(text) is not None  # isascii: a flag, no scan


def cjk_share(text: str) -> tuple[int, int]:
    """How many of the text's letters are CJK, and how many letters it has (one regex
    pass each instead of a call per character: the parser asks this of every paragraph)."""
    letters = NOT_LETTER.sub("", text)
    return len(letters) - len(_CJK.sub("", letters)), len(letters)
