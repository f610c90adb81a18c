"""A file's warnings as stored and reported: its first hundred, then how many more."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from storage.loading import WARNINGS_KEPT, kept_warnings

_MORE = re.compile(r"and ([\d,]+) more warnings like these \(`paperbot ingest --check` lists")


@given(st.integers(0, 3 * WARNINGS_KEPT), st.text(max_size=20))
def test_the_first_warnings_are_kept_and_the_rest_counted(count: int, text: str) -> None:
    warnings = [f"line {line}: {text}" for line in range(count)]

    kept = kept_warnings(warnings)

    assert len(kept) <= WARNINGS_KEPT + 1
    assert kept_warnings(kept) == kept  # kept again (as `status` reads them) as they are
    more = _MORE.match(kept[-1]) if len(kept) > WARNINGS_KEPT else None
    if more is None:
        assert kept == warnings
    else:
        assert kept[:-1] == warnings[:WARNINGS_KEPT]
        assert WARNINGS_KEPT + int(more.group(1).replace(",", "")) == len(warnings)
