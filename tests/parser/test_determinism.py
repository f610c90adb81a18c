"""Same text, same result: twice in a row, through BOM and CRLF, and after re-wrapping."""

import dataclasses
from pathlib import Path

import pytest

from jobs.parser import FORMAT_DEEP_READ, ParsedDigest, decode_digest, parse_digest
from jobs.parser.text import is_cjk
from tests.parser.summary import parse_file, seed_files


@pytest.mark.parametrize("seed", seed_files(), ids=lambda path: path.stem)
def test_parsing_twice_gives_equal_results(seed: Path) -> None:
    text = decode_digest(seed.read_bytes())
    assert parse_digest(text) == parse_digest(text)


@pytest.mark.parametrize("seed", seed_files(), ids=lambda path: path.stem)
def test_bom_crlf_and_trailing_spaces_change_nothing(seed: Path) -> None:
    text = seed.read_text(encoding="utf-8")
    messy = "\ufeff" + "\r\n".join(line + " \t" for line in text.split("\n"))
    assert parse_digest(decode_digest(messy.encode("utf-8"))) == parse_file(seed)


@pytest.mark.parametrize("seed", seed_files(), ids=lambda path: path.stem)
@pytest.mark.parametrize("separator", ["\u2028", "\u2029"], ids=["U+2028", "U+2029"])
def test_unicode_line_separators_end_lines_as_newlines_do(seed: Path, separator: str) -> None:
    """A file a JavaScript tool wrote with Unicode's line (or paragraph) separator for
    each newline reads as the file it was: every paper, claim and section where it was."""
    text = seed.read_text(encoding="utf-8")
    separated = text.replace("\n", separator).encode("utf-8")
    assert parse_digest(decode_digest(separated)) == parse_file(seed)


# HuggingFace entries are line-structured; only the deep-read format wraps paragraphs.
DEEP_READ_SEEDS = [seed for seed in seed_files() if parse_file(seed).format == FORMAT_DEEP_READ]


@pytest.mark.parametrize("width", [16, 40, 72, 100])
@pytest.mark.parametrize("seed", DEEP_READ_SEEDS, ids=lambda path: path.stem)
def test_rewrapping_paragraphs_changes_no_text_and_no_key(seed: Path, width: int) -> None:
    text = seed.read_text(encoding="utf-8")
    original = parse_digest(text)
    joined = "\n".join(part for line in text.split("\n") for part in wrap(line, width))
    rewrapped = parse_digest(joined)
    assert len(text.split("\n")) < len(joined.split("\n")) / 2
    assert without_lines(rewrapped) == without_lines(original)


def wrap(line: str, width: int = 40) -> list[str]:
    """Break a line after `width` characters where a writer could: between two Chinese
    characters, or at a space that does not sit between two of them."""
    body = line.lstrip()
    indent = line[: len(line) - len(body)]
    pieces: list[str] = []
    start = 0
    while len(body) - start > width:
        cut = start + width
        while cut < len(body) - 1 and not breakable(body, cut):
            cut += 1
        if cut >= len(body) - 1:
            break
        pieces.append(body[start:cut])
        start = cut + 1 if body[cut] == " " else cut
    pieces.append(body[start:])
    return [indent + piece for piece in pieces]


def breakable(body: str, at: int) -> bool:
    before, after = body[at - 1], body[at]
    if after == " ":
        return not (is_cjk(before) and is_cjk(body[at + 1])) and body[at + 1] != " "
    return is_cjk(before) and is_cjk(after)


def without_lines(digest: ParsedDigest) -> ParsedDigest:
    papers = tuple(dataclasses.replace(paper, line=0) for paper in digest.papers)
    return dataclasses.replace(digest, papers=papers)
