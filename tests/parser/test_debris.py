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
