"""`/claims` that finds fewer than a page holding every word lists, after those, the claims
holding all the words but one: a reader's wording seldom matches a claim's word for word.
`/paper` does the same when no paper holds every word."""

from __future__ import annotations

import pytest
from sqlalchemy.ext.asyncio import AsyncSession

from storage.search import ALL_BUT_ONE_WORD, PAGE_SIZE, ClaimHit, lookup_paper, search_claims
from tests.storage.test_search import all_claims


async def ids(session: AsyncSession, typed: str) -> set[int]:
    return {hit.claim_id for hit in await all_claims(session, typed)}


@pytest.mark.parametrize("typed", ["hallucination robot", "latency robot", "robot 幻觉"])
async def test_no_claim_holds_both_words_so_the_claims_holding_either_are_listed(
    seeded: AsyncSession, typed: str
) -> None:
    first, second = typed.split()
    either = await ids(seeded, first) | await ids(seeded, second)
    hits = await all_claims(seeded, typed)
    page = await search_claims(seeded, typed)
    assert page.matching_words == 0 and page.all_but_one == page.total == len(either)
    assert [hit.claim_id for hit in hits if hit.claim_id in either] == [h.claim_id for h in hits]
    assert {hit.claim_id for hit in hits} == either and len(hits) == len(either)  # none twice
    assert {hit.matched_by for hit in hits} == {ALL_BUT_ONE_WORD}


def holds(hit: ClaimHit) -> tuple[bool, bool]:
    """Whether a hit of `latency F1` holds each word (latency in either language)."""
    text = (hit.text_zh + hit.quote_en).lower()
    return any(w in text for w in ("latenc", "延迟", "时延")), "f1" in text


async def test_the_claims_holding_every_word_come_first(seeded: AsyncSession) -> None:
    hits = await all_claims(seeded, "latency F1")
    page = await search_claims(seeded, "latency F1")
    every = page.matching_words
    assert 0 < every < PAGE_SIZE and page.total == len(hits) > every
    assert all(holds(hit) == (True, True) and not hit.matched_by for hit in hits[:every])
    for hit in hits[every:]:
        assert hit.matched_by == ALL_BUT_ONE_WORD and sum(holds(hit)) == 1, hit


async def test_a_search_that_fills_a_page_lists_only_claims_holding_every_word(
    seeded: AsyncSession,
) -> None:
    page = await search_claims(seeded, "模型 训练")
    assert page.total >= PAGE_SIZE and page.all_but_one == 0
    assert all(hit.matched_by is None for hit in page.hits)


@pytest.mark.parametrize(
    "typed",
    [
        "hallucination",  # one word: nothing to leave out
        "hallucination robot -Enoki",  # an excluded word stays excluded
        '"hallucination robot"',  # a phrase is one term
        "hallucination robot paper:ENEAS",  # a filter still applies
        "hallucination robot grasping latency benchmark",  # more words than are left out
    ],
)
async def test_what_all_but_one_word_never_changes(seeded: AsyncSession, typed: str) -> None:
    hits = await all_claims(seeded, typed)
    page = await search_claims(seeded, typed)
    assert page.total == len(hits)
    if "-Enoki" in typed:
        assert hits and all(hit.paper.name != "Enoki" for hit in hits)
    elif "paper:" in typed:
        assert hits and all(hit.paper.name == "ENEAS" for hit in hits)
    else:
        assert page.all_but_one == 0


async def paper_ids(session: AsyncSession, typed: str) -> list[int]:
    found = await lookup_paper(session, typed)
    assert not found.has_next  # one page: the seeds hold 36 papers
    return [ref.id for ref in found.papers]


@pytest.mark.parametrize("typed", ["hallucination robot", "humanoid zebra", "HalluEntity zebra"])
async def test_no_paper_holds_every_word_so_the_papers_holding_all_but_one_are_listed(
    seeded: AsyncSession, typed: str
) -> None:
    first, second = typed.split()
    either = set(await paper_ids(seeded, first)) | set(await paper_ids(seeded, second))
    found = await lookup_paper(seeded, typed)
    assert found.matching_words == 0 and found.all_but_one == found.total == len(either)
    assert {ref.id for ref in found.papers} == either
    assert {ref.matched_by for ref in found.papers} == {ALL_BUT_ONE_WORD}
    assert found.one is None  # a paper holding part of the words opens no card


async def test_papers_holding_every_word_are_all_that_is_listed(seeded: AsyncSession) -> None:
    found = await lookup_paper(seeded, "hallucination detection")
    assert found.total and found.all_but_one == 0
    assert all(ref.matched_by is None for ref in found.papers)


async def test_asked_not_to_only_what_holds_every_word_is_listed(seeded: AsyncSession) -> None:
    # How "Did you mean" weighs a correction: by what holds every word, nothing more.
    assert (await search_claims(seeded, "hallucination robot", all_but_one=False)).total == 0
    assert (await lookup_paper(seeded, "hallucination robot", all_but_one=False)).total == 0
