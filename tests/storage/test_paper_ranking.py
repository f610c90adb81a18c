"""How `/paper` orders the papers its words match, on both stores: a paper holding the
words as typed in its names, or a Chinese run as typed in its text, comes before papers
that only hold the words' forms or pieces, however often; papers found through their
claims follow the papers' own matches."""

from __future__ import annotations

import pytest
from sqlalchemy.ext.asyncio import AsyncSession

from storage import search
from storage.search import lookup_paper
from storage.search_text import index_text
from tests.storage.test_search_newest import add_paper as add_claims
from tests.storage.test_search_newest import stored


async def add_paper(
    session: AsyncSession, key: str, title: str, abstract: str, quotes: tuple[str, ...] = ()
) -> None:
    await add_claims(
        session,
        key,
        list(quotes),
        title=title,
        abstract_en=abstract,
        search_head=index_text(title),
        search_body=index_text(abstract),
    )


async def keys(session: AsyncSession, typed: str) -> list[str]:
    return [paper.key for paper in (await lookup_paper(session, typed)).papers]


async def test_names_holding_the_word_as_typed_come_first(session: AsyncSession) -> None:
    # Left to the words' counts, `stem` would rank first.
    await add_paper(session, "stem", "Model", "The model, the model and the model.")
    await add_paper(session, "typed", "World Models for planning and control", "An abstract.")
    await add_paper(session, "body", "Merging", "Models of models: models, models and models.")
    await stored(session)
    assert (await keys(session, "models"))[0] == "typed"
    assert set(await keys(session, "models")) == {"stem", "typed", "body"}


async def test_a_chinese_run_as_typed_comes_first(session: AsyncSession) -> None:
    # Left to the words' counts and nearness, `apart` would rank first.
    await add_paper(session, "apart", "Serving", "降低了延迟。" * 6)
    for key in ("together", "also together"):  # two: neither is pinned as the one typed
        await add_paper(session, key, "Caching", "我们的方法在很多不同的场景里都可以降低延迟。")
    await add_paper(session, "neither", "Other", "吞吐更高。")
    await stored(session)
    assert await keys(session, "降低延迟") == ["also together", "together", "apart"]


async def test_papers_found_through_claims_follow_the_papers_own_matches(
    session: AsyncSession, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(search, "RANK_WINDOW", 3)
    await add_paper(session, "claims only", "Other", "Nothing here.", ("alpha in a claim",))
    await add_paper(session, "own 1", "Alpha one", "alpha")
    await add_paper(session, "own 2", "Alpha two", "alpha and beta")
    await add_paper(session, "own 3", "Alpha three", "alpha")
    await stored(session)
    full = await lookup_paper(session, "alpha")  # the papers' own matches fill the window
    assert {paper.key for paper in full.papers} == {"own 1", "own 2", "own 3"}
    assert full.capped
    freed = await lookup_paper(session, "alpha -beta")
    assert {paper.key for paper in freed.papers} == {"own 1", "own 3", "claims only"}
    assert [p.key for p in freed.papers if p.id in freed.via_claims] == ["claims only"]
