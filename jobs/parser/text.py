"""Bytes to text, and the line and paragraph handling both formats share.

Real exports come with a BOM, CRLF line ends, trailing spaces and stray blank lines;
`digest_lines` removes all of that in one place, so the format parsers never see it.
"""

import re
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from .errors import DigestParseError

_BOM = b"\xef\xbb\xbf"
# Control characters other than tab, LF, VT, FF and CR.
_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1f\x7f]")
# A text digest has next to no control characters; this share means it is not one.
_BINARY_CONTROL_SHARE = 0.1

# Ideographs, kana, CJK punctuation and full-width forms: no space is written between them.
_CJK = re.compile(r"[\u2e80-\u9fff\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef]")

TAB_WIDTH = 4


def decode_digest(data: bytes) -> str:
    """Decode a digest file: UTF-8, an optional BOM dropped; anything else is refused."""
    offset = 0
    if data.startswith(_BOM):
        data, offset = data[len(_BOM) :], len(_BOM)
    if not data:
        raise DigestParseError("file is empty")
    if b"\x00" in data:
        raise DigestParseError("file is binary, not a text digest")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        byte = data[exc.start]
        raise DigestParseError(
            f"file is not valid UTF-8 (byte 0x{byte:02x} at offset {exc.start + offset})"
            + _guess_encoding(data),
            line,
        ) from None
    if not text.strip():
        raise DigestParseError("file holds only whitespace")
    if len(_CONTROL.findall(text)) > len(text) * _BINARY_CONTROL_SHARE:
        raise DigestParseError("file is binary, not a text digest")
    return text


def _guess_encoding(data: bytes) -> str:
    """A hint for the commonest mistake: a Chinese digest saved as GBK."""
    try:
        data.decode("gbk")
    except UnicodeDecodeError:
        return ""
    return "; it reads as GBK: save it as UTF-8"


def digest_lines(text: str) -> list[str]:
    """Lines without BOM, CR or trailing whitespace; indentation is kept (quotes need it).
    Every U+FEFF goes, not only the first: concatenated exports carry one per file."""
    text = text.replace("\ufeff", "")
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return [line.rstrip() for line in text.split("\n")]


def indent_of(line: str) -> int:
    prefix = line[: len(line) - len(line.lstrip())]
    return len(prefix.expandtabs(TAB_WIDTH))


class Paragraph(NamedTuple):  # a tuple: the parser makes one for every paragraph
    """Consecutive non-blank lines; `line` is the 1-based number of the first one."""

    line: int
    lines: tuple[str, ...]

    @property
    def text(self) -> str:
        return join_lines(self.lines)


def paragraphs(lines: Sequence[str], start: int = 0) -> list[Paragraph]:
    """Split `lines[start:]` at blank lines (lines are already right-stripped)."""
    result: list[Paragraph] = []
    block: list[str] = []
    first = start
    for index in range(start, len(lines)):
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


_NOT_LETTER = re.compile(r"[\W\d_]+")


def has_cjk(text: str) -> bool:
    return _CJK.search(text) is not None


def cjk_share(text: str) -> tuple[int, int]:
    """How many of the text's letters are CJK, and how many letters it has (one regex
    pass each instead of a call per character: the parser asks this of every paragraph)."""
    letters = _NOT_LETTER.sub("", text)
    return len(letters) - len(_CJK.sub("", letters)), len(letters)
