"""How the newest matching claims are ordered: a BM25-like score computed from each claim's
own indexed text, the same on both stores.

Each term's occurrences in the claim's text (its tokens as a phrase; a hyphenated word
written as one counts too), saturating, normalised by the text's length; ties go to the
newer claim. Why not FTS5's bm25(): it counts every match of every term in the whole index
to weigh them (its cost grows with the corpus: 30 ms for a common word at 1.3 million
claims), and PostgreSQL's ts_rank would order differently. Every hit holds every term, so
leaving out the term weights changes little.

Words typed in a form other than their stem (`benchmarks`, `AIME`) are indexed as written
too (storage/search_text.py), and a claim holding them so gains what the saturating count
can give at most (2.2): a word as typed never ranks below its other forms (`aim` for
`AIME`). A word typed as its stem (`benchmark`) cannot tell its forms apart in the index;
all of them rank alike.

Scored here rather than in SQL: SQL has no way to count a substring but to remove it and
compare lengths, a pass over the text for each word and translation (the window of a
two-word search at 10,000 papers on SQLite: 21 ms in SQL, 11 ms read and scored here). The
work is bounded by the window's claims and the query's terms (storage/search_text.py caps
both); it runs in a worker thread.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from storage.search_text import Query

# What a word's translation counts for in a claim's score (held or not), against 1 for each
# occurrence of the word as typed: a claim in the language asked ranks first.
TRANSLATED_WEIGHT = 0.5
RELATED_WEIGHT = 0.25  # a word of the typed one's group (`speedup` for `faster`)
SATURATION = 2.2  # the most a term's count gives; a word as typed earns this much more
AVERAGE_LENGTH = 400.0  # of a claim's indexed text, in characters


@dataclass(frozen=True)
class _Term:
    counted: tuple[str, ...]  # each occurrence counts 1 (` token ` padded with spaces)
    held: tuple[tuple[str, float], ...]  # translations and related words: their weight if held
    exact: tuple[str, ...]  # the words as typed, sharing SATURATION


def _padded(tokens: Iterable[str], *, prefix: bool = False) -> str:
    return " " + " ".join(tokens) + ("" if prefix else " ")


def _terms(query: Query) -> list[_Term]:
    terms = []
    for term in query.terms:
        counted = [_padded(term.tokens, prefix=term.prefix)]
        if term.joined is not None:  # `xplanner` for `x-planner`
            counted.append(_padded([term.joined]))
        held = tuple(
            (_padded(other.tokens), RELATED_WEIGHT if other.related else TRANSLATED_WEIGHT)
            for other in term.also
        )
        terms.append(_Term(tuple(counted), held, tuple(_padded([w]) for w in term.exact)))
    return terms


def _shared(text: str, needles: tuple[str, ...]) -> float:
    """SATURATION shared among the needles, for each one `text` holds."""
    share = SATURATION / len(needles)
    score = 0.0
    for needle in needles:
        if needle in text:
            score += share
    return score


def rank(query: Query, claims: Iterable[tuple[int, str]]) -> list[int]:
    """The ids of `claims` (id, indexed text), best first."""
    terms = _terms(query)
    bonus = tuple(_padded(phrase.tokens) for phrase in query.bonus)  # Chinese runs as typed
    scored = []
    for claim_id, indexed in claims:
        text = f" {indexed} "
        length = 1.2 * (0.25 + 0.75 * len(indexed) / AVERAGE_LENGTH)
        score = 0.0
        for term in terms:
            count = float(sum(text.count(needle) for needle in term.counted))
            # Words standing in for the typed one count once, the best of them: a claim
            # saying the same thing twice (`时延`, `latency`) is no better a hit.
            count += max((weight for needle, weight in term.held if needle in text), default=0)
            score += count * SATURATION / (count + length)
            if term.exact:
                score += _shared(text, term.exact)
        if bonus:
            score += _shared(text, bonus)
        scored.append((-score, -claim_id))
    scored.sort()
    return [-negated for _, negated in scored]
