"""Paper keys are hashes of normalised text: the shortcuts for ASCII text (most abstracts
and quotes) must give exactly what the definitions give, or a re-ingest would key every
paper anew and duplicate it."""

import re
import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from storage.paper_keys import (
    deep_read_key,
    fingerprint,
    legacy_key,
    normalise_for_key,
    text_key,
)

# ASCII most of the time, with the characters the definitions treat apart: full-width
# forms, zero-width characters, Unicode spaces and separators, accents, Chinese.
_AWKWARD = "\u3000\u00a0\u2028\u0085\x1c\x1f\u200b\ufeff\u2060ＡＢ１２é\u0301延迟_-.,"
_TEXT = st.text(
    alphabet=st.one_of(st.characters(max_codepoint=127), st.sampled_from(_AWKWARD)),
    max_size=40,
)


def _fingerprint_defined(text: str) -> str:
    return re.sub(r"[\W_]+", "", unicodedata.normalize("NFKC", text)).casefold()


def _normalised_defined(text: str) -> str:
    text = re.sub("[\u200b\u200c\u200d\u2060\ufeff]", "", unicodedata.normalize("NFKC", text))
    return re.sub(r"\s+", " ", text).strip().lower()


@settings(max_examples=300)
@given(_TEXT)
def test_fingerprint_is_letters_and_digits_nfkc_case_folded(text: str) -> None:
    assert fingerprint(text) == _fingerprint_defined(text)


@settings(max_examples=300)
@given(_TEXT)
def test_first_version_normalisation_is_kept(text: str) -> None:
    assert normalise_for_key(text) == _normalised_defined(text)


def test_keys_ignore_spacing_punctuation_and_width() -> None:
    quote = "Peak memory drops from 45 GB to 39 GB."
    assert text_key(quote) == text_key("  peak MEMORY drops, from 45GB to 39 gb")
    assert text_key(quote) == text_key("Ｐｅａｋ memory drops from ４５ GB to 39 GB")
    assert text_key(quote) != text_key("Peak memory drops from 45 GB to 38 GB.")
    assert legacy_key("A  b\u200b c") == legacy_key("a b c ")


QUOTE = "Peak calibration memory drops from 45 GB to 39 GB."


def test_a_deep_read_is_keyed_by_its_first_quote_long_enough_to_tell_papers_apart() -> None:
    assert deep_read_key([QUOTE, "Other."], "定位。") == text_key(QUOTE)
    assert deep_read_key(["N/A", QUOTE], "定位。") == text_key(QUOTE)  # a placeholder first
    # Only placeholders: they and the positioning, so two papers' keys differ by the latter.
    assert deep_read_key(["N/A", "—"], "定位一。") != deep_read_key(["N/A", "—"], "定位二。")
    assert deep_read_key([], "定位。") == text_key("定位。")  # no claims: the positioning
