"""RESULTS.md: each benchmark owns a section between its own two markers."""

from __future__ import annotations

from pathlib import Path

RESULTS = Path(__file__).with_name("RESULTS.md")


def write_section(section: str, start: str, end: str) -> None:
    """Replace what stands between `start` and `end` (markers included in `section`), or
    add the section at the end the first time."""
    text = RESULTS.read_text(encoding="utf-8")
    if start in text:
        text = text[: text.index(start)] + section + text[text.index(end) + len(end) :]
    else:
        text = text.rstrip() + "\n\n" + section + "\n"
    RESULTS.write_text(text, encoding="utf-8")


def show(section: str, start: str, end: str, *, write: bool) -> int:
    """Print the section, and with `write` put it into RESULTS.md; exit status 0."""
    print(section)
    if write:
        write_section(section, start, end)
    return 0
