"""Which abstract sentences count as stated results."""

from __future__ import annotations

import pytest

from jobs.findings import result_sentences


@pytest.mark.parametrize(
    ("abstract", "expected"),
    [
        (None, []),
        ("", []),
        (
            "We study memory. Our 4B model achieves the best results on eight benchmarks. "
            "It is simple.",
            ["Our 4B model achieves the best results on eight benchmarks."],
        ),
        (
            "PSTL also outperforms dense state supervision. We release the code.",
            ["PSTL also outperforms dense state supervision."],
        ),
        ("Accuracy rises to 86.20% (from 80.1%).", ["Accuracy rises to 86.20% (from 80.1%)."]),
        (
            "It is faster than the baseline in every setting we tried.",
            ["It is faster than the baseline in every setting we tried."],
        ),
        ("We introduce FlowBalance, a verifier-grounded method.", []),
        ("Up 3%.", []),  # too short to be a finding on its own
        ("Line one\nwraps here with 12 numbers.", ["Line one wraps here with 12 numbers."]),
    ],
)
def test_result_sentences(abstract: str | None, expected: list[str]) -> None:
    assert result_sentences(abstract) == expected
