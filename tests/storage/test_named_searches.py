"""`/claims` with a word that names a paper: that paper's claims first, matched by the other
words (a claim seldom names its own paper), then the rest as found by all the words."""

from __future__ import annotations

import pytest
from sqlalchemy.ext.asyncio import AsyncSession

from storage.search import ClaimPage, find_claim, lookup_paper, search_claims


def papers_of(page: ClaimPage) -> list[str]:
    return [hit.paper.address or "" for hit in page.hits]


@pytest.mark.parametrize("typed", ["ENEAS 延迟", "延迟 eneas", "延迟, ENEAS."])
async def test_the_named_papers_claims_come_first_matched_by_the_other_words(
    seeded: AsyncSession, typed: str
) -> None:
    page = await search_claims(seeded, typed)
    assert [p.name for p in page.first] == ["ENEAS"]
    assert page.hits and set(papers_of(page)) == {"ENEAS"}
    assert all("延迟" in hit.text_zh for hit in page.hits)
    unnamed = await search_claims(seeded, "延迟 paper:ENEAS")  # the same claims, filtered
    assert [h.claim_id for h in page.hits] == [h.claim_id for h in unnamed.hits]
    assert not unnamed.first  # a `paper:` filter already says which paper


async def test_a_name_alone_lists_all_its_claims_then_the_claims_that_mention_it(
    seeded: AsyncSession,
) -> None:
    pages = [await search_claims(seeded, "x-planner", page=n) for n in (1, 2)]
    hits = [hit for page in pages for hit in page.hits]
    assert pages[0].total == pages[1].total == len(hits)  # the true total, over two pages
    assert len({hit.claim_id for hit in hits}) == len(hits)  # no claim twice
    own = [hit for hit in hits if hit.paper.name == "X-Planner"]
    assert [hit.number for hit in own] == list(range(1, 11))  # all ten, in order, first
    assert hits[: len(own)] == own
    assert all("X-Planner" in hit.text_zh + hit.quote_en for hit in hits[len(own) :])


@pytest.mark.parametrize("typed", ["OneStreamer", "onestreamer", "2610.01762"])
async def test_a_paper_is_named_by_its_titles_coined_word_or_its_arxiv_id(
    seeded: AsyncSession, typed: str
) -> None:
    page = await search_claims(seeded, typed)
    assert [p.arxiv_id for p in page.first] == ["2610.01762"]
    assert papers_of(page)[:5] == ["2610.01762"] * 5  # its five findings first
    found = await lookup_paper(seeded, typed)
    assert [p.arxiv_id for p in found.papers] == ["2610.01762"]
    addressed = await find_claim(seeded, f"{typed}#a2")
    assert addressed is not None and [h.number for h in addressed.hits] == [2]


@pytest.mark.parametrize(
    "typed",
    [
        '"X-Planner"',  # quoted: a phrase to match, not a paper to list
        "BERTScore -X-Planner",  # excluded
        "BERTScore paper:AV-GRPO",  # a filter says which paper already
        "Position",  # a word that opens titles names none
    ],
)
async def test_quoted_excluded_and_filtered_words_name_no_paper(
    seeded: AsyncSession, typed: str
) -> None:
    page = await search_claims(seeded, typed)
    assert not page.first
    if typed.startswith('"'):
        assert all("X-Planner" in hit.text_zh + hit.quote_en for hit in page.hits)
    if "-X-Planner" in typed:
        assert "X-Planner" not in papers_of(page)


async def test_a_named_papers_claims_keep_the_date_filters(seeded: AsyncSession) -> None:
    page = await search_claims(seeded, "X-Planner until:2000-01-01")
    assert not page.hits and page.total == 0
