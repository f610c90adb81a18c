"""The newest matches of a word, whichever way the store finds them: PostgreSQL walks the
ids for a common word, reads a rarer one from the text index (among the newest ids first,
then all of them when those hold too few), and every way finds the same claims."""

from __future__ import annotations

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from storage import fulltext
from storage.dialect import backend
from storage.models import Claim, Paper
from storage.search_text import index_text, parse_query

CLAIMS = 600
WINDOW = 20


def words_of(i: int) -> str:
    """Claim i (oldest first) holds `common` every other time, `middle` one time in ten,
    `fading` every other time among the oldest 200 only, and `rare` in five claims."""
    words = ["filler"]
    if i % 2 == 0:
        words.append("common")
    if i % 10 == 0:
        words.append("middle")
    if i < 200 and i % 2 == 1:
        words.append("fading")
    if i % 120 == 7:
        words.append("rare")
    return " ".join(words)


@pytest.fixture
async def store(session: AsyncSession) -> AsyncSession:
    paper = Paper(key="p", kind="huggingface", title="A paper")
    session.add(paper)
    await session.flush()
    for i in range(CLAIMS):
        quote = words_of(i)
        session.add(
            Claim(
                paper_id=paper.id,
                number=i + 1,
                text_zh="",
                quote_en=quote,
                search_text=index_text(quote),
            )
        )
    await session.commit()
    if backend(session) == "postgresql":  # the planner's statistics, as autovacuum keeps them
        await session.execute(text("ANALYZE claims"))
        await session.commit()
    return session


@pytest.mark.parametrize("word", ["common", "middle", "fading", "rare"])
async def test_the_newest_matches_are_found_whichever_way(store: AsyncSession, word: str) -> None:
    ids = list((await store.execute(text("SELECT id FROM claims ORDER BY id"))).scalars())
    matching = [claim_id for i, claim_id in enumerate(ids) if word in words_of(i).split()]
    newest = set(sorted(matching, reverse=True)[:WINDOW])
    query = parse_query(word, translate=False)

    ranked = await fulltext.match_claims(
        store, query, fulltext.ClaimFilter(), limit=WINDOW, offset=0, window=WINDOW
    )
    assert set(ranked.ids) == newest
    assert ranked.total == len(newest)

    papers, counted = await fulltext.papers_by_claims(store, query, window=WINDOW)
    assert counted == len(newest)
    assert len(papers) == 1
