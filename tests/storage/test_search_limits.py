"""What one search may cost is bounded whatever is typed: the query keeps to its limits and
says what it left out, and a statement past its time budget ends with a sentence."""

from __future__ import annotations

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from storage import dialect
from storage.search import lookup_paper, search_claims
from storage.search_text import (
    MAX_PHRASE_TOKENS,
    MAX_QUERY_TERMS,
    MAX_QUERY_TOKENS,
    SearchTooCostly,
    parse_query,
)

COMMON = ["the", "of", "and", "in", "to", "we", "model", "a", "is", "on", "for", "with"]


@pytest.mark.parametrize(
    ("typed", "terms", "note"),
    [
        ('"' + " ".join(["a"] * 149) + '"', 1, "Repeated words in a row were searched once."),
        ("模" * 290, 1, "Repeated words in a row were searched once."),
        ("大语言模型的推理加速与显存优化方法研究", 1,
         f"A long phrase is matched on its first {MAX_PHRASE_TOKENS} words."),
        (" ".join(f'"{w} 1 {w}s"' for w in COMMON), MAX_QUERY_TOKENS // 3,
         f"Only the first {MAX_QUERY_TOKENS // 3} search terms were used."),
        (" ".join("模型训练推理显存延迟吞吐量召回率准确率"), MAX_QUERY_TERMS,
         f"Only the first {MAX_QUERY_TERMS} search terms were used."),
        ("AUROC 0.886 AUROC auroc", 2, None),
        ('"median AUROC" 延迟', 2, None),
    ],
)  # fmt: skip
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
        async with dialect.search_budget(seeded, 0.2):
            await seeded.execute(text(slow))
    await seeded.rollback()
    page = await search_claims(seeded, "AUROC")  # the session's connection is fine again
    assert page.hits
