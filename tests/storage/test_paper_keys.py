"""Paper keys are hashes of normalised text: the shortcuts for ASCII text (most abstracts
and quotes) must give exactly what the definitions give, or a re-ingest would key every
paper anew and duplicate it."""

import re
import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from storage.paper_keys import fingerprint, legacy_key, normalise_for_key, text_key

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
