"""Stable keys: the arXiv ID without version, else a hash of the entry's first paragraph."""

import hashlib
import re
import unicodedata

# New-style (2609.35259, optional v2) and old-style (hep-th/9901001) arXiv identifiers.
_ARXIV_ID = re.compile(
    r"(?<![0-9.])([0-9]{4}\.[0-9]{4,5})(?:v[0-9]+)?(?![0-9])"
    r"|(?<![A-Za-z])([a-z][a-z-]*(?:\.[A-Z]{2})?/[0-9]{7})(?:v[0-9]+)?(?![0-9])"
)
_ZERO_WIDTH = re.compile("[\u200b\u200c\u200d\u2060\ufeff]")
_WHITESPACE = re.compile(r"\s+")
_TEXT_KEY_LENGTH = 20


def find_arxiv_id(value: str | None) -> str | None:
    """The arXiv ID (without version) in an ID field or an arXiv / CoolPaper URL."""
    if not value:
        return None
    match = _ARXIV_ID.search(value)
    if match is None:
        return None
    return match.group(1) or match.group(2)


def arxiv_key(arxiv_id: str) -> str:
    return f"arxiv:{arxiv_id}"


def normalise_for_key(text: str) -> str:
    """NFKC, no zero-width characters, whitespace collapsed, lower case: BOM, CRLF,
    trailing spaces, full-width variants and re-wrapping never change a key."""
    text = _ZERO_WIDTH.sub("", unicodedata.normalize("NFKC", text))
    return _WHITESPACE.sub(" ", text).strip().lower()


def text_key(first_paragraph: str) -> str:
    digest = hashlib.sha256(normalise_for_key(first_paragraph).encode("utf-8")).hexdigest()
    return f"text:{digest[:_TEXT_KEY_LENGTH]}"
