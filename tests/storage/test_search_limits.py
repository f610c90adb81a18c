"""What one search may cost is bounded whatever is typed: the query keeps to its limits and
says what it left out, and a statement past its time budget ends with a sentence."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import settings as hyp_settings
from hypothesis import strategies as st
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from storage import fulltext
from storage.authors import LONGEST_NAME, MAX_AUTHORS, split_authors
from storage.search import lookup_paper, search_claims
from storage.search_text import (
    MAX_PHRASE_TOKENS,
    MAX_QUERY_CHARS,
    MAX_QUERY_TERMS,
    MAX_QUERY_TOKENS,
    MAX_RELAXED_TERMS,
    BadQuery,
    SearchTooCostly,
    parse_query,
)

COMMON = ["the", "of", "and", "in", "to", "we", "model", "a", "is", "on", "for", "with"]


@pytest.mark.parametrize(
    ("typed", "terms", "note"),
    [
        ('"' + " ".join(["a"] * 149) + '"', 1, "Repeated words in a row were searched once."),
        ("模" * 290, 1, "Repeated words in a row were searched once."),
        (
            '"大语言模型的推理加速与显存优化方法研究"',
            1,
            f"A long phrase is matched on its first {MAX_PHRASE_TOKENS} words.",
        ),
        (
            " ".join(f'"{w} 1 {w}s"' for w in COMMON),
            MAX_QUERY_TOKENS // 3,
            f"Only the first {MAX_QUERY_TOKENS // 3} search terms were used.",
        ),
        (
            " ".join("模型训练推理显存延迟吞吐量召回率准确率"),
            MAX_QUERY_TERMS,
            f"Only the first {MAX_QUERY_TERMS} search terms were used.",
        ),
        ("AUROC 0.886 AUROC auroc", 2, None),
        ('"median AUROC" 延迟', 2, None),
    ],
)
def test_the_query_keeps_to_its_limits_and_says_what_it_left_out(
    typed: str, terms: int, note: str | None
) -> None:
    query = parse_query(typed)
    assert len(query.terms) == terms
    assert all(len(term.tokens) <= MAX_PHRASE_TOKENS for term in query.terms)
    assert sum(len(term.tokens) for term in query.terms) <= MAX_QUERY_TOKENS
    assert query.notes == ((note,) if note else ())


async def test_a_search_is_told_what_was_left_out(seeded: AsyncSession) -> None:
    page = await search_claims(seeded, '"AUROC AUROC AUROC"')
    assert page.hits and page.notes == ("Repeated words in a row were searched once.",)
    found = await lookup_paper(seeded, "GAPO GAPO")  # not a phrase: the same word twice
    assert found.notes == ()


async def test_a_statement_past_the_budget_ends_with_a_sentence(seeded: AsyncSession) -> None:
    slow = (
        "SELECT pg_sleep(3)"
        if seeded.get_bind().dialect.name == "postgresql"
        else "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n)"
        " SELECT count(*) FROM (SELECT x FROM n LIMIT 1000000000)"
    )
    with pytest.raises(SearchTooCostly, match="Try fewer or rarer words"):
        async with fulltext.search_budget(seeded, 0.2):
            await seeded.execute(text(slow))
    # The command goes on (its next "Did you mean"), in the same transaction: PostgreSQL's
    # cancelled statement had aborted it, and every later statement failed.
    page = await search_claims(seeded, "AUROC")
    assert page.hits
    found = await lookup_paper(seeded, "GAPO")
    assert found.one is not None


# Text built from what the search syntax reads: excluded words, quotes, `author:`.
SYNTAX = st.lists(
    st.sampled_from(["-", '"', "“", "”", "author:", " ", "AUROC", "模型", "-x", "a-b", "0.5"])
    | st.text(max_size=6),
    max_size=60,
).map("".join)


@hyp_settings(max_examples=300, deadline=None)
@given(SYNTAX)
def test_excluded_words_and_authors_keep_to_the_same_limits(typed: str) -> None:
    """Whatever mix of `-word`, quotes and `author:` is typed, the query stays within the
    limits of one search (excluded terms count too), or a sentence refuses it."""
    typed = typed[:MAX_QUERY_CHARS]
    try:
        words, names = split_authors(typed)
    except BadQuery as refusal:
        assert str(refusal)
        return
    assert len(names) <= MAX_AUTHORS and all(len(n) <= LONGEST_NAME for n in names)
    query = parse_query(words)
    everything = query.terms + query.excluded
    assert len(everything) <= MAX_QUERY_TERMS
    assert sum(len(term.tokens) for term in everything) <= MAX_QUERY_TOKENS
    assert all(len(term.tokens) <= MAX_PHRASE_TOKENS for term in everything)


@pytest.mark.parametrize(
    "typed",
    [
        " ".join(f"-w{i}" for i in range(40)),
        'AUROC -"' + " ".join(["x"] * 40) + '"',
        "AUROC " + "-" * 250,
        'author:"' + "a" * 98 + '" AUROC',
        "AUROC -" + "模" * 200,
    ],
)
async def test_hostile_exclusions_search_or_refuse_with_a_sentence(
    seeded: AsyncSession, typed: str
) -> None:
    for search in (search_claims, lookup_paper):
        try:
            await search(seeded, typed)
        except BadQuery as refusal:
            assert str(refusal).endswith(".")


@hyp_settings(max_examples=300, deadline=None)
@given(SYNTAX)
def test_searching_all_the_words_but_one_stays_within_a_few_searches(typed: str) -> None:
    """Each term is left out in turn, and only in a query of a few terms: the search for
    all the words but one holds each term at most MAX_RELAXED_TERMS times more."""
    query = parse_query(typed[:MAX_QUERY_CHARS])
    if not query.relaxable:
        assert len(query.terms) < 2 or len(query.terms) > MAX_RELAXED_TERMS
        return
    relaxed = replace(query, all_but_one=True)
    assert not relaxed.relaxable  # never relaxed twice
    for match in (fulltext._fts5, fulltext._tsquery):
        longest = len(match(query)) + 8 * len(query.terms)  # the punctuation between
        assert len(match(relaxed)) <= (MAX_RELAXED_TERMS + 1) * longest


@hyp_settings(max_examples=300, deadline=None)
@given(SYNTAX)
def test_what_postgresql_s_index_is_asked_holds_only_the_query_s_words(typed: str) -> None:
    """Each phrase relaxed for the text index, to its longest word or to all its words,
    asks for words of the query only, and the whole is no longer than the query."""
    try:
        query = parse_query(typed[:MAX_QUERY_CHARS])
    except BadQuery:
        return
    exact = fulltext._tsquery(query)
    words = set(re.findall(r"'([^']*)'", exact))
    for relaxed in (fulltext.A_WORD, fulltext.ITS_WORDS):
        asked = fulltext._tsquery(query, relaxed=relaxed, factored=True)
        assert set(re.findall(r"'([^']*)'", asked)) <= words
        assert len(asked) <= len(exact)
