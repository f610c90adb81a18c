"""RESULTS.md is written by several benchmarks, each into its own section between
`<!-- name -->` and `<!-- /name -->` markers; every other part of the file is kept."""

from __future__ import annotations

from pathlib import Path

RESULTS = Path(__file__).with_name("RESULTS.md")


def write_section(name: str, body: str) -> None:
    start, end = f"<!-- {name} -->", f"<!-- /{name} -->"
    section = f"{start}\n{body.strip()}\n{end}"
    text = RESULTS.read_text(encoding="utf-8") if RESULTS.exists() else ""
    if start in text and end in text:
        text = text[: text.index(start)] + section + text[text.index(end) + len(end) :]
    else:
        text = text.rstrip() + "\n\n" + section + "\n"
    RESULTS.write_text(text, encoding="utf-8")
