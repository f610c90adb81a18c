"""Invisible characters that copying from web pages leaves (a zero-width space, a word
joiner, direction marks) change nothing: a line holding only them is blank, and a date
line ending in one is still a date."""

from pathlib import Path

import pytest

from jobs.parser import parse_digest
from tests.parser.summary import seed_files

DEBRIS = ["\u200b", "\u2060", "\u200e", "\u200f", "\ufeff"]


@pytest.mark.parametrize("seed", seed_files(), ids=lambda path: path.name)
@pytest.mark.parametrize("debris", DEBRIS, ids=lambda char: f"U+{ord(char):04X}")
def test_debris_at_line_ends_and_on_blank_lines_changes_no_paper(seed: Path, debris: str) -> None:
    text = seed.read_text(encoding="utf-8")
    littered = "\n".join(line + debris for line in text.split("\n"))

    assert parse_digest(littered) == parse_digest(text)


COLOURS = ["\x1b[1m", "\x1b[0m", "\x1b[32m", "\x1b[1;31m", "\x1b[38;5;208m", "\x1b[K", "\x1b(B"]


@pytest.mark.parametrize("seed", seed_files(), ids=lambda path: path.name)
def test_a_terminals_colour_codes_change_no_paper(seed: Path) -> None:
    """Output a terminal coloured, saved as it was (`\\x1b[1mAV-GRPO\\x1b[0m`): the codes
    go, and every name, claim and section reads as without them. Left in, they cut names
    apart (AV-GRPO was named after its first clause) and stayed in the stored text."""
    text = seed.read_text(encoding="utf-8")
    words = text.split(" ")
    coloured = " ".join(
        f"{COLOURS[i % len(COLOURS)]}{word}{COLOURS[1]}" if i % 3 == 0 else word
        for i, word in enumerate(words)
    )

    assert parse_digest(coloured) == parse_digest(text)
