"""Each seed parses to exactly its checked-in golden summary, and each case to its JSON.

After an intended change: `python -m tests.parser.update_golden [--cases]`, then read the
diff.
"""

import json
from pathlib import Path

import pytest

from tests.parser.summary import (
    CASES,
    GOLDEN,
    case_files,
    case_summary,
    golden_summary,
    parse_file,
    seed_files,
)


@pytest.mark.parametrize("seed", seed_files(), ids=lambda path: path.stem)
def test_seed_matches_golden_file(seed: Path) -> None:
    expected = json.loads((GOLDEN / f"{seed.stem}.json").read_text(encoding="utf-8"))
    assert golden_summary(parse_file(seed)) == expected


@pytest.mark.parametrize("case", case_files(), ids=lambda path: path.stem)
def test_case_matches_expected_json(case: Path) -> None:
    expected = json.loads(case.with_suffix(".json").read_text(encoding="utf-8"))
    assert case_summary(parse_file(case)) == expected


def test_every_seed_and_case_has_its_expectation() -> None:
    assert len(seed_files()) == 3
    assert {path.stem for path in GOLDEN.glob("*.json")} == {path.stem for path in seed_files()}
    assert all(case.with_suffix(".json").exists() for case in case_files())


@pytest.mark.parametrize(
    ("case", "marker"),
    [
        ("bom", b"\xef\xbb\xbf2026"),
        ("crlf", b"\r\n\r\n"),
        ("trailing_spaces", b"\t \n"),
        ("extra_blank_lines", b"\n\n\n\n"),
    ],
)
def test_messy_cases_are_still_messy(case: str, marker: bytes) -> None:
    # An editor or a git setting that "fixes" these files would make their tests vacuous.
    assert marker in (CASES / f"{case}.txt").read_bytes()
