"""NUL bytes in a text digest are damage (the padding a crash or a preallocating copier
leaves at the end, a stray byte from a broken transfer): the file is read without them, with
a warning on each line that held them. A file they make no text of (UTF-16 or UTF-32
without their mark, an image, an archive) is still refused as binary."""

import os
import time
import zlib

import pytest

from jobs.parser import DigestParseError, decode_digest, parse_digest
from tests.parser.summary import seed_files

DEEP_READ, HUGGINGFACE = (
    next(s.read_text(encoding="utf-8") for s in seed_files() if s.name.startswith(prefix))
    for prefix in ("004", "002")
)
IN_LINE = "NUL bytes in this line (left by a damaged copy or transfer): read without them"
PADDING = (
    "the file ends in {:,} NUL bytes from here (the padding a crash or a preallocating copy "
    "leaves): left out"
)
BINARY = "file is binary, not a text digest"


def parsed(data: bytes) -> tuple[object, list[str]]:
    """The papers read from a file's bytes, and its warnings."""
    digest = parse_digest(decode_digest(data))
    return digest.papers, [str(warning) for warning in digest.warnings]


def line_of(text: str, word: str) -> int:
    return text.count("\n", 0, text.index(word)) + 1


@pytest.mark.parametrize("text", [DEEP_READ, HUGGINGFACE], ids=["deep reads", "HuggingFace"])
def test_a_nul_byte_inside_a_line_is_left_out_with_a_warning_on_its_line(text: str) -> None:
    word = "ENEAS" if text is DEEP_READ else "Arxiv ID"
    damaged = text.replace(word, word[:3] + "\x00" + word[3:], 1).encode()

    papers, warnings = parsed(damaged)

    assert papers == parse_digest(text).papers
    assert warnings == [f"line {line_of(text, word)}: {IN_LINE}"]


@pytest.mark.parametrize("size", [1, 4096, 8192])
@pytest.mark.parametrize("ending", ["", "\n"], ids=["no newline", "newline"])
def test_nul_padding_at_the_end_is_left_out_with_one_warning(size: int, ending: str) -> None:
    text = DEEP_READ + ending

    papers, warnings = parsed(text.encode() + b"\x00" * size)

    assert papers == parse_digest(DEEP_READ).papers
    assert warnings == [f"line {text.count(chr(10)) + 1}: {PADDING.format(size)}"]


@pytest.mark.parametrize("size", [64, 512, 4096])
@pytest.mark.parametrize("text", [DEEP_READ, HUGGINGFACE], ids=["deep reads", "HuggingFace"])
def test_a_hole_of_nul_bytes_inside_the_text_fails_the_file_on_its_line(
    text: str, size: int
) -> None:
    """A block of the file that came back as zeros (a damaged copy): the text that was
    there is lost, so the file is refused, on the hole's line, rather than read glued."""
    data = text.encode()
    middle = data.index(b"\n", len(data) // 2) + 1  # a line's start, half way in
    damaged = data[:middle] + b"\x00" * size + data[middle + size :]

    with pytest.raises(DigestParseError) as error:
        parse_digest(decode_digest(damaged))

    assert error.value.line == data.count(b"\n", 0, middle) + 1
    assert f"{size:,} NUL bytes in a row inside the text" in str(error.value)


@pytest.mark.parametrize("after", ["\n", "\r\n", "\n\x00\x00\n"])
def test_nul_padding_with_a_line_break_after_it_is_no_hole(after: str) -> None:
    papers, _ = parsed(DEEP_READ.encode() + b"\x00" * 4096 + after.encode())

    assert papers == parse_digest(DEEP_READ).papers


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"], ids=["LF", "CRLF", "CR"])
def test_each_line_holding_nul_bytes_is_named_once_whatever_its_line_ends(newline: str) -> None:
    lines = DEEP_READ.split("\n")
    for index in (0, 10, 14):  # the date line, then twice in one line
        lines[index] = lines[index][:4] + "\x00" + lines[index][4:8] + "\x00\x00" + lines[index][8:]
    damaged = newline.join(lines).encode("utf-8") + b"\x00" * 512

    papers, warnings = parsed(b"\xef\xbb\xbf" + damaged)

    assert papers == parse_digest(DEEP_READ).papers
    assert warnings == [
        f"line 1: {IN_LINE}",
        f"line 11: {IN_LINE}",
        f"line 15: {IN_LINE}",
        f"line {len(lines)}: {PADDING.format(512)}",
    ]


PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + zlib.compress(os.urandom(20_000))
BINARIES = {
    "UTF-16 without its mark": DEEP_READ.encode("utf-16-le"),
    "UTF-16 big-endian without its mark": DEEP_READ.encode("utf-16-be"),
    "UTF-32": DEEP_READ.encode("utf-32"),
    "an image": PNG,
    "a digest holding an image": DEEP_READ.encode() + PNG,
    "NULs among control characters": b"2026-01-01\n\x00\x01\x02",
    "a NUL every few characters": ("2026-01-01\n\n" + "本文\x00" * 1000).encode(),
}


@pytest.mark.parametrize("data", BINARIES.values(), ids=BINARIES.keys())
def test_nul_bytes_in_what_is_no_utf_8_text_are_still_binary(data: bytes) -> None:
    with pytest.raises(DigestParseError) as caught:
        decode_digest(data)
    assert str(caught.value) == BINARY


def test_a_file_of_many_nul_runs_is_read_in_linear_time() -> None:
    """A NUL after every 100 characters, on 50,000 lines: their lines are counted in one
    pass, not once for each (which took minutes)."""
    line = "本文提出 X。" + "a" * 100 + "\x00"
    data = ("2026-01-01\n\n" + "\n".join([line] * 50_000)).encode()

    started = time.perf_counter()
    with pytest.raises(DigestParseError, match=r"^line 3: paragraph belongs to no paper"):
        parse_digest(decode_digest(data))  # no paper in it: what matters is the time
    assert time.perf_counter() - started < 5.0
