"""How text is indexed and how queries are read: one tokenizer for both databases.

Text is normalised (NFKC, case folded, accents and zero-width characters removed) and cut
into tokens: decimal numbers, runs of letters and digits, and, for Chinese/Japanese/Korean
runs, overlapping two-character pieces plus the run's last character. The indexed form is
those tokens joined by spaces, which SQLite FTS5 (unicode61, `.` kept inside tokens) and
PostgreSQL (`to_tsvector('simple', …)`) both split back into exactly the same tokens, so
both stores match the same rows.

Why pieces of two: Chinese has no spaces, and people search one- and two-character words
(`延迟`, `显存`). A two-character query is one piece; a longer one is a phrase of adjacent
pieces; a single character is a prefix of a piece (the run's last character is indexed on
its own so that it is the start of something too).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass

_CJK = (
    "\u3040-\u30ff"  # Hiragana, Katakana
    "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"  # Han
    "\uac00-\ud7af"  # Hangul
    "\U00020000-\U0003ffff"  # Han extensions
)
# Decimal numbers stay whole (`0.886`, `2609.35259`): split at the dot, `0` would be in
# every number and phrase queries over it slow. PostgreSQL's parser keeps them whole too.
_WORD = rf"\d+(?:\.\d+)+|[^\W_{_CJK}]+"
_TOKEN = re.compile(rf"[{_CJK}]+|{_WORD}")
_TOKEN_KIND = re.compile(rf"([{_CJK}]+)|({_WORD})")
_CJK_RUN = re.compile(rf"[{_CJK}]+")
_QUOTED = re.compile(r'"([^"]*)"|“([^”]*)”|(\S+)')

_ASCII_CONTROLS = {code: " " for code in (*range(0x20), 0x7F)}

# What one search may ask of the database, whatever is typed in 300 characters: each
# phrase is matched on its first tokens, and the terms and their tokens are counted.
MAX_QUERY_CHARS = 300
MAX_QUERY_TERMS = 12
MAX_PHRASE_TOKENS = 8
MAX_QUERY_TOKENS = 24


@functools.cache
def _cleaning_table() -> dict[int, str | None]:
    """Built once, on first use: accents, zero-width/format characters and lone surrogates
    are dropped; control characters (NUL included, which PostgreSQL refuses) become spaces.
    Marks, format and control characters all live in planes 0, 1 and 14."""
    table: dict[int, str | None] = {}
    for plane in (range(0, 0x20000), range(0xE0000, 0xE1000)):
        for code in plane:
            category = unicodedata.category(chr(code))
            if category in ("Mn", "Cf", "Cs"):
                table[code] = None
            elif category == "Cc":
                table[code] = " "
    return table


def normalise(text: str) -> str:
    """Fold width, case and accents; drop zero-width characters; controls become spaces."""
    if text.isascii():  # the common case, and nothing to fold but case and controls
        return text.lower().translate(_ASCII_CONTROLS)
    text = unicodedata.normalize("NFKD", text.casefold()).translate(_cleaning_table())
    return unicodedata.normalize("NFKC", text)


def _run_tokens(run: str, *, indexing: bool) -> list[str]:
    if not _CJK_RUN.fullmatch(run):
        return [run]
    if len(run) == 1:
        return [run]
    pieces = [run[i : i + 2] for i in range(len(run) - 1)]
    return [*pieces, run[-1]] if indexing else pieces


def index_text(*parts: str | None) -> str:
    """The text stored in the search column for the given fields."""
    tokens: list[str] = []
    for cjk, word in _TOKEN_KIND.findall(normalise(" ".join(p for p in parts if p))):
        if word:
            tokens.append(word)
        else:  # what _run_tokens(cjk, indexing=True) gives, inlined: ingest's hot path
            tokens.extend(map(str.__add__, cjk, cjk[1:]))
            tokens.append(cjk[-1])
    return " ".join(tokens)


@dataclass(frozen=True)
class Term:
    """One thing every hit must contain: adjacent tokens, or a prefix of one token."""

    tokens: tuple[str, ...]
    prefix: bool = False
    runs: tuple[str, ...] = ()  # the normalised words as typed, for highlighting


@dataclass(frozen=True)
class Query:
    terms: tuple[Term, ...]
    notes: tuple[str, ...] = ()  # what was left out of the search, told to the user

    @property
    def empty(self) -> bool:
        return not self.terms


class BadQuery(ValueError):
    """Search input that cannot be used; the message is a sentence for the user."""


class QueryTooLong(BadQuery):
    pass


class SearchTooCostly(BadQuery):
    def __init__(self) -> None:
        super().__init__(
            "That search needs more work than one search may take. Try fewer or rarer "
            "words, or narrow it with `paper:` or `since:`."
        )


def parse_query(text: str) -> Query:
    """Read what a user typed as data: every word must match, "quoted words" as a phrase.

    Nothing here is ever passed to the database as syntax: terms are made of tokens,
    which hold letters and digits only.
    """
    if len(text) > MAX_QUERY_CHARS:
        raise QueryTooLong(
            f"The search is {len(text):,} characters long; keep it under {MAX_QUERY_CHARS}."
        )
    terms: list[Term] = []
    for match in _QUOTED.finditer(normalise(text)):
        chunk = next(group for group in match.groups() if group is not None)
        runs = _TOKEN.findall(chunk)
        if not runs:
            continue
        if len(runs) == 1 and len(runs[0]) == 1 and _CJK_RUN.fullmatch(runs[0]):
            terms.append(Term(tuple(runs), prefix=True, runs=tuple(runs)))  # one character
            continue
        # A word or "quoted words" is a phrase: its tokens must be adjacent, as indexed.
        # A Chinese run followed by more text ends there in the index too, so its last
        # character (indexed on its own) follows its pieces; a final run may continue.
        tokens: list[str] = []
        for i, run in enumerate(runs):
            tokens.extend(_run_tokens(run, indexing=i < len(runs) - 1))
        terms.append(Term(tuple(tokens), runs=tuple(runs)))
    return _bounded(terms)


def _bounded(terms: list[Term]) -> Query:
    """The terms within the limits of one search, with a note for each thing left out:
    a phrase's repeated tokens collapse to one (`a a a` is `a`), a long phrase keeps its
    first tokens, repeated terms count once, and the terms stop at the limits."""
    notes: dict[str, None] = {}
    kept: dict[tuple[tuple[str, ...], bool], Term] = {}
    total = 0
    for term in terms:
        tokens, runs = _collapsed(term.tokens), _collapsed(term.runs)[:MAX_PHRASE_TOKENS]
        if len(tokens) < len(term.tokens):
            notes["Repeated words in a row were searched once."] = None
        if len(tokens) > MAX_PHRASE_TOKENS:
            notes[f"A long phrase is matched on its first {MAX_PHRASE_TOKENS} words."] = None
            tokens = tokens[:MAX_PHRASE_TOKENS]
        if (tokens, term.prefix) in kept:
            continue
        if len(kept) == MAX_QUERY_TERMS or total + len(tokens) > MAX_QUERY_TOKENS:
            notes[f"Only the first {len(kept)} search terms were used."] = None
            break
        total += len(tokens)
        kept[tokens, term.prefix] = Term(tokens, term.prefix, runs)
    return Query(terms=tuple(kept.values()), notes=tuple(notes))


def _collapsed(items: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(item for i, item in enumerate(items) if i == 0 or item != items[i - 1])


def highlight_spans(text: str, query: Query) -> list[tuple[int, int]]:
    """Where the query's words stand in `text`: sorted, non-overlapping (start, end) pairs.

    Best effort on the original text: words are matched case-insensitively with any
    punctuation between their parts, so `0.886` is found for the query `0.886`.
    """
    spans: list[tuple[int, int]] = []
    for term in query.terms:
        pattern = r"[\W_]*".join(re.escape(run) for run in term.runs)
        spans.extend(
            m.span() for m in re.finditer(pattern, text, re.IGNORECASE) if m.end() > m.start()
        )
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged
