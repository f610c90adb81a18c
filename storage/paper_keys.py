"""Paper keys and arXiv IDs: the one place that reads and writes them.

A paper's key is `arxiv:<ID>` (the arXiv ID without version), else a hash of the entry's
most stable text, `text:<hex>`. Entries without an arXiv ID are keyed by what routine edits
leave alone:

- a deep read by its first claim's English evidence quote. The quote is copied verbatim
  from the paper, so rewording the Chinese review, splitting or joining paragraphs, blank
  lines, leading spaces, another file name or a second file holding the paper never touch
  it; and it sits right after an anchor (claim 1), so no boundary decision can move it.
  A quote too short to tell papers apart (`N/A`, `—`: what a pipeline writes for a quote
  it could not find, the same in many papers) gives way to the next claim's; a deep read
  without such a quote is keyed by its short quotes and its positioning paragraph, one
  without claims by its positioning.
- an abstract-only entry by its abstract, the only text it has.

Both hash a *fingerprint* of the text: letters and digits only, case folded, so spaces,
punctuation, full-width forms and re-wrapping never change a key. Edits that do change
the keyed text are matched when the file is stored (storage.matching), and keys made by
the first parser version are kept as `legacy_key` aliases, so existing stores map their
rows instead of duplicating them.
"""

import hashlib
import re
import unicodedata
from collections.abc import Iterable, Sequence

# New-style (2609.35259) and old-style (hep-th/9901001, math.GT/0309136) arXiv IDs.
_NEW_STYLE = r"[0-9]{4}\.[0-9]{4,5}"
_OLD_STYLE = r"[a-z][a-z-]*(?:\.[A-Z]{2})?/[0-9]{7}"
_ARXIV_ID = re.compile(
    rf"(?<![0-9.])({_NEW_STYLE})(?:v[0-9]+)?(?![0-9])"
    rf"|(?<![A-Za-z])({_OLD_STYLE})(?:v[0-9]+)?(?![0-9])"
)
# What `/paper` and link unfurls accept as naming one paper: an ID, `arXiv:ID`, or an
# arxiv.org / papers.cool address of one.
_ARXIV_REFERENCE = re.compile(
    r"(?:(?:https?://)?(?:www\.|export\.)?(?:arxiv\.org/(?:abs|pdf)|papers\.cool/arxiv)/"
    rf"|arxiv:)?({_NEW_STYLE}|{_OLD_STYLE})(?:v\d+)?(?:\.pdf)?/?",
    re.IGNORECASE,
)
_PAPER_KEY = re.compile(rf"arxiv:(?:{_NEW_STYLE}|{_OLD_STYLE})|text:[0-9a-f]{{8,64}}")
_ZERO_WIDTH = re.compile("[\u200b\u200c\u200d\u2060\ufeff]")
_NOT_WORD = re.compile(r"[\W_]+")
# ASCII bytes that are no letter or digit: what `fingerprint` drops from ASCII text, where
# NFKC and case folding change nothing but case (the common case, in one pass of C).
_ASCII_NOT_WORD = bytes(code for code in range(128) if not chr(code).isalnum())
_TEXT_KEY_LENGTH = 20
# Letters and digits a quote needs to key a deep read: a real quote is a sentence (60 or
# more in every digest seen), a placeholder for a missing one a few.
KEYED_QUOTE = 20
# Letters and digits of an abstract every copy keeps (`abstract_key`): about 300
# characters of English, so that a copy cut at 400 characters or more is found by it.
ABSTRACT_KEPT = 240


def find_arxiv_id(value: str | None) -> str | None:
    """The arXiv ID (without version) in an ID field or an arXiv / CoolPaper URL."""
    if not value:
        return None
    match = _ARXIV_ID.search(value)
    if match is None:
        return None
    return match.group(1) or match.group(2)


def arxiv_id(text: str) -> str | None:
    """The versionless arXiv ID if `text` is nothing but an ID or an arXiv / papers.cool URL."""
    match = _ARXIV_REFERENCE.fullmatch(text.strip())
    if match is None:
        return None
    archive, slash, number = match.group(1).rpartition("/")
    if not slash:
        return number
    name, dot, subject = archive.partition(".")  # as arXiv writes them: math.GT/0309136
    return f"{name.lower()}{dot}{subject.upper()}/{number}"


def arxiv_key(arxiv_id: str) -> str:
    return f"arxiv:{arxiv_id}"


def arxiv_url(arxiv_id: str) -> str:
    return f"https://arxiv.org/abs/{arxiv_id}"


def is_paper_key(value: str) -> bool:
    """A well-formed paper key (what a button may carry back)."""
    return bool(_PAPER_KEY.fullmatch(value))


def fingerprint(text: str) -> str:
    """Letters and digits only, NFKC, case folded: what a key hashes."""
    if text.isascii():
        return text.encode().translate(None, _ASCII_NOT_WORD).decode().lower()
    return _NOT_WORD.sub("", unicodedata.normalize("NFKC", text)).casefold()


def text_key(text: str) -> str:
    """The key of an entry without an arXiv ID, from its keyed text (see the module)."""
    return _hashed(fingerprint(text))


def deep_read_key(quotes: Iterable[str], otherwise: str) -> str:
    """A deep read's key: from the first of its claims' `quotes` long enough to tell papers
    apart, else from all of them and `otherwise` (its positioning; see the module)."""
    short = []
    for quote in quotes:
        if len(kept := fingerprint(quote)) >= KEYED_QUOTE:
            return _hashed(kept)
        short.append(kept)
    return _hashed("".join(short) + fingerprint(otherwise))


def deep_read_key_apart(quotes: Sequence[str], otherwise: str) -> str:
    """The key of a deep read whose first quote is another paper's (pasted into the wrong
    claim): that of its other quotes."""
    return deep_read_key(quotes[1:], otherwise)


def abstract_key(abstract: str, kept: int = ABSTRACT_KEPT) -> str:
    """The key of an abstract as far as every copy of it holds it: a deep-read digest cuts
    an abstract-only entry's (at 1,000 characters, or sooner: pipelines differ), so its
    first `kept` letters and digits, or all of a shorter one."""
    return _hashed(fingerprint(abstract)[:kept])


def cut_from(copy: str, abstract: str) -> bool:
    """Whether `copy` is `abstract`, whole or cut at its end (as a deep-read digest cuts an
    abstract-only entry's), letters and digits compared: two papers whose abstracts open
    alike share an `abstract_key`, not this."""
    shorter, longer = sorted((fingerprint(copy), fingerprint(abstract)), key=len)
    return longer.startswith(shorter)


def normalise_for_key(text: str) -> str:
    """The first parser version's normalisation: NFKC, no zero-width characters,
    whitespace collapsed, lower case."""
    if not text.isascii():
        text = _ZERO_WIDTH.sub("", unicodedata.normalize("NFKC", text))
    return " ".join(text.split()).lower()


def legacy_key(first_paragraph: str) -> str:
    """The key the first parser version gave an entry: its first paragraph, hashed."""
    return _hashed(normalise_for_key(first_paragraph))


def _hashed(value: str) -> str:
    digest = hashlib.sha256(value.encode("utf-8")).hexdigest()
    return f"text:{digest[:_TEXT_KEY_LENGTH]}"
