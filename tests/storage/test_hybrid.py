"""Hybrid search on the seeds, on both stores, with the hashing stand-in (the seeded stores
hold its vectors): fusion, the similarity floor, filters, why each hit matched, bad input."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Sequence
from datetime import date
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.engine import URL
from sqlalchemy.ext.asyncio import AsyncSession

from storage import db, hybrid, vectors
from storage.dense import DenseSearch, query_text
from storage.dialect import backend
from storage.embedders import HashEmbedder, Vectors
from storage.fulltext import ClaimFilter
from storage.hybrid import EXACT_WORDS, SIMILAR_MEANING, fuse
from storage.models import VECTOR_OF_CLAIM, Claim, Paper
from storage.search import ALL_BUT_ONE_WORD, PaperMatches, PaperRef, lookup_paper, search_claims
from storage.search_text import BadQuery
from tests.statements import statements_run


@pytest.fixture
async def dense(seeded_url: URL) -> AsyncIterator[DenseSearch]:
    search = DenseSearch(HashEmbedder())
    async with db.open_engine(seeded_url) as engine:
        await search.load(db.session_factory(engine))
    yield search


def test_rrf_puts_what_both_rankings_agree_on_first_and_says_why() -> None:
    fused = fuse([1, 2, 3], [3, 4])
    assert fused.ids[0] == 3  # in both
    assert fused.ids[1:] == [1, 2, 4]  # 2 and 4 tie (rank 2 of one ranking): lexical first
    assert fused.why == {3: EXACT_WORDS, 1: EXACT_WORDS, 2: EXACT_WORDS, 4: SIMILAR_MEANING}


async def test_a_missing_word_still_finds_claims_by_meaning(
    seeded: AsyncSession, dense: DenseSearch
) -> None:
    lexical = await search_claims(seeded, "AUROC zebra")
    assert lexical.matching_words == 0  # no claim holds both
    found = await search_claims(seeded, "AUROC zebra", dense=dense)
    assert found.hits and found.matching_words == 0
    by_meaning = [hit.matched_by == SIMILAR_MEANING for hit in found.hits]
    assert by_meaning[0] and by_meaning == sorted(by_meaning, reverse=True)  # meaning first
    assert all(hit.matched_by == ALL_BUT_ONE_WORD for hit in found.hits[sum(by_meaning) :])
    assert "auroc" in (found.hits[0].quote_en + found.hits[0].text_zh).lower()


async def test_exact_matches_keep_their_place_and_say_so(
    seeded: AsyncSession, dense: DenseSearch
) -> None:
    lexical = await search_claims(seeded, "AUROC")
    hybrid = await search_claims(seeded, "AUROC", dense=dense)
    assert hybrid.hits[0].claim_id in {hit.claim_id for hit in lexical.hits}
    assert {hit.matched_by for hit in hybrid.hits} <= {EXACT_WORDS, SIMILAR_MEANING}
    exact = [hit.claim_id for hit in hybrid.hits if hit.matched_by == EXACT_WORDS]
    assert set(exact) <= {hit.claim_id for hit in lexical.hits}


async def test_unrelated_words_find_nothing(seeded: AsyncSession, dense: DenseSearch) -> None:
    assert (await search_claims(seeded, "xyzzy plugh", dense=dense)).hits == []
    assert (await lookup_paper(seeded, "xyzzy plugh", dense=dense)).papers == []


async def test_the_floor_applies_to_exact_cosines_not_to_the_index_approximation(
    seeded: AsyncSession, dense: DenseSearch
) -> None:
    vector = await dense.embed_query("AUROC benchmarks")
    approximate = dict(await asyncio.to_thread(dense.claims.search, vector, 50))
    ids, matrix = await vectors.read(seeded, dense.embedder, VECTOR_OF_CLAIM, ids=list(approximate))
    exact = dict(zip(ids, (matrix @ vector).tolist(), strict=True))
    # A claim the index's int8 copy scores lower than its stored vector does, with the
    # floor between the two: it is similar enough, and must be found.
    underrated = max((i for i in ids if approximate[i] < exact[i] - 1e-4), key=exact.__getitem__)
    dense.embedder.floor = (approximate[underrated] + exact[underrated]) / 2
    near = dict(await dense.nearest(seeded, VECTOR_OF_CLAIM, vector, 50))
    assert near[underrated] == pytest.approx(exact[underrated])
    assert all(score >= dense.embedder.floor for score in near.values())


async def test_filters_hold_for_hits_by_meaning(seeded: AsyncSession, dense: DenseSearch) -> None:
    found = await search_claims(seeded, "AUROC zebra paper:RLCDAlignBench", dense=dense)
    assert found.hits and {hit.paper.name for hit in found.hits} == {"RLCDAlignBench"}
    dated = await search_claims(seeded, "AUROC zebra since:2026-09-20", dense=dense)
    assert all(
        hit.paper.digest_date is not None and hit.paper.digest_date >= date(2026, 9, 20)
        for hit in dated.hits
    )
    none = await search_claims(seeded, "AUROC zebra until:2000-01-01", dense=dense)
    assert none.hits == []


async def test_pages_of_a_hybrid_search_do_not_repeat(
    seeded: AsyncSession, dense: DenseSearch
) -> None:
    first = await search_claims(seeded, "模型", dense=dense)
    second = await search_claims(seeded, "模型", page=2, dense=dense)
    assert first.has_next
    assert not {h.claim_id for h in first.hits} & {h.claim_id for h in second.hits}


async def test_paper_search_by_meaning_says_why(seeded: AsyncSession, dense: DenseSearch) -> None:
    found = await lookup_paper(seeded, "AUROC zebra", dense=dense)
    assert found.papers
    assert {ref.matched_by for ref in found.papers} == {SIMILAR_MEANING}
    assert "RLCDAlignBench" in {ref.name for ref in found.papers}


@pytest.mark.parametrize(
    "typed",
    [
        "",
        "!!! ... ???",
        "的" * 300,
        "😀🎉",
        "AUROC\x00zebra",
        "\x00",
        "paper:GAPO 😀",
        "的 模 😀 zebra",  # all the words but one: a single character, emoji, no match
        '"a b" -c d 的',
    ],
)
async def test_hostile_input_gives_results_or_a_sentence(
    seeded: AsyncSession, dense: DenseSearch, typed: str
) -> None:
    try:
        page = await search_claims(seeded, typed, dense=dense)
    except BadQuery as refusal:
        assert str(refusal).endswith(".")
    else:
        assert page.page == 1
    try:
        await lookup_paper(seeded, typed, dense=dense)
    except BadQuery as refusal:
        assert str(refusal).endswith(".")


def test_the_model_never_sees_control_characters() -> None:
    assert query_text("AUROC\x00zebra\n\t x") == "AUROC zebra x"


async def test_totals_count_the_hits_by_meaning_and_every_page_is_reachable(
    seeded: AsyncSession, dense: DenseSearch
) -> None:
    lexical = await search_claims(seeded, "model")
    first = await search_claims(seeded, "model", dense=dense)
    # The words' own hits, and those by meaning beyond them (the stand-in's approximate
    # neighbours may all be among the words' hits: none added is allowed).
    assert first.total >= lexical.total > 10
    assert len(first.hits) == 10 and first.has_next
    seen = [hit.claim_id for hit in first.hits]
    page = 2
    while True:
        found = await search_claims(seeded, "model", page=page, dense=dense)
        seen += [hit.claim_id for hit in found.hits]
        if not found.has_next:
            break
        page += 1
    assert len(seen) == len(set(seen)) == first.total  # each once, the total as told


async def test_paper_totals_and_pages_count_papers_found_by_meaning(
    seeded: AsyncSession, dense: DenseSearch
) -> None:
    lexical = await lookup_paper(seeded, "agent")
    hybrid = await lookup_paper(seeded, "agent", dense=dense)
    assert hybrid.total >= lexical.total
    pages = [hybrid.papers]
    for number in range(2, (hybrid.total + 9) // 10 + 1):
        pages.append((await lookup_paper(seeded, "agent", page=number, dense=dense)).papers)
    ids = [ref.id for refs in pages for ref in refs]
    assert len(ids) == len(set(ids)) == hybrid.total
    assert {ref.matched_by for refs in pages for ref in refs} <= {EXACT_WORDS, SIMILAR_MEANING}


async def test_a_name_the_words_match_once_opens_its_card_whatever_is_near_it(
    seeded: AsyncSession, dense: DenseSearch
) -> None:
    found = await lookup_paper(seeded, "WanPE-397B", dense=dense)
    assert found.one is not None and found.one.name == "WanPE"


@pytest.mark.parametrize(("why", "opens"), [(EXACT_WORDS, True), (SIMILAR_MEANING, False)])
def test_a_single_paper_found_by_meaning_alone_is_listed_not_opened(why: str, opens: bool) -> None:
    """`/paper 股票价格预测` must not open the one paper nearest to it in meaning as if it
    were the answer: it is listed, marked _similar meaning_."""
    ref = PaperRef(1, "text:x", "deep_read", None, None, "自主数学发现", None, None, why)
    found = PaperMatches("text", [ref], by_words=0 if why == SIMILAR_MEANING else 1)
    assert (found.one is ref) == opens


class CountingEmbedder(HashEmbedder):
    """The stand-in, counting the queries it is asked to embed."""

    def __init__(self) -> None:
        super().__init__()
        self.queries = 0

    def embed_queries(self, texts: Sequence[str]) -> Vectors:
        self.queries += len(texts)
        return super().embed_queries(texts)


async def test_next_page_and_a_repeated_search_do_not_embed_the_query_again(
    seeded_url: URL,
) -> None:
    model = CountingEmbedder()
    search = DenseSearch(model)
    async with db.open_engine(seeded_url) as engine, db.session_factory(engine)() as session:
        await search.load(db.session_factory(engine))
        first = await search_claims(session, "model", dense=search)
        second = await search_claims(session, "model", page=2, dense=search)
        again = await search_claims(session, "  model ", dense=search)
    assert model.queries == 1
    assert first.hits and second.hits and again.hits == first.hits


class SlowEmbedder(CountingEmbedder):
    """Counts its queries, and takes its time over them (a model under load)."""

    def __init__(self, *, fail_first: bool = False) -> None:
        super().__init__()
        self.fail_first = fail_first

    def embed_queries(self, texts: Sequence[str]) -> Vectors:
        time.sleep(0.2)
        if self.fail_first:
            self.fail_first = False
            raise RuntimeError("the model failed")
        return super().embed_queries(texts)


async def test_searches_of_the_same_words_at_once_share_one_embedding(seeded_url: URL) -> None:
    model = SlowEmbedder()
    search = DenseSearch(model)
    async with db.open_engine(seeded_url) as engine:
        sessions = db.session_factory(engine)
        await search.load(sessions)

        async def claims(text: str) -> list[int]:
            async with sessions() as session:
                found = await search_claims(session, text, dense=search)
            return [hit.claim_id for hit in found.hits]

        first, second = await asyncio.gather(claims("AUROC"), claims(" AUROC"))
        cancelled = asyncio.ensure_future(claims("benchmark accuracy"))
        await asyncio.sleep(0.05)  # the model is at work for it
        cancelled.cancel()
        after = await claims("benchmark accuracy")
    assert model.queries == 2  # AUROC once; the cancelled search's words once, not again
    assert first and first == second
    assert cancelled.cancelled() and after


async def test_a_failed_embedding_is_not_kept(seeded: AsyncSession, seeded_url: URL) -> None:
    model = SlowEmbedder(fail_first=True)
    search = DenseSearch(model)
    async with db.open_engine(seeded_url) as engine:
        await search.load(db.session_factory(engine))
    with pytest.raises(RuntimeError):
        await search_claims(seeded, "AUROC", dense=search)
    assert (await search_claims(seeded, "AUROC", dense=search)).hits
    assert model.queries == 1


SINCE = date(2026, 9, 20)


async def claims_since(session: AsyncSession, since: date) -> set[int]:
    rows = await session.execute(
        select(Claim.id).join(Paper, Paper.id == Claim.paper_id).where(Paper.digest_date >= since)
    )
    return set(rows.scalars())


async def test_the_size_of_a_date_range_is_counted_up_to_the_exact_limit(
    seeded: AsyncSession, monkeypatch: pytest.MonkeyPatch
) -> None:
    inside = len(await claims_since(seeded, SINCE))
    assert inside > 3
    assert await hybrid._in_dates(seeded, ClaimFilter(since=SINCE)) == inside
    assert await hybrid._in_dates(seeded, ClaimFilter(until=date(2000, 1, 1))) == 0
    monkeypatch.setattr(hybrid, "EXACT_FILTER_LIMIT", 2)
    assert await hybrid._in_dates(seeded, ClaimFilter(since=SINCE)) == 3  # just past it


async def test_a_narrow_date_range_is_searched_without_the_index(
    seeded: AsyncSession, dense: DenseSearch, monkeypatch: pytest.MonkeyPatch
) -> None:
    searched: list[int] = []
    index_search = dense.claims.search

    def counted(vector: Vectors, count: int) -> list[tuple[int, float]]:
        searched.append(count)
        return index_search(vector, count)

    monkeypatch.setattr(dense.claims, "search", counted)
    dated = await search_claims(seeded, "AUROC zebra since:2026-09-20", dense=dense)
    assert dated.hits and searched == []
    await search_claims(seeded, "AUROC zebra", dense=dense)
    assert searched == [hybrid.FUSION_DEPTH]


async def test_a_wide_date_range_keeps_the_nearest_claims_inside_it(
    seeded: AsyncSession, dense: DenseSearch, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past the exact limit, the index's nearest claims inside the range are kept, in the
    index's order, and scored on their stored vectors: the same claims however many of
    the nearest are checked first."""
    monkeypatch.setattr(hybrid, "EXACT_FILTER_LIMIT", 0)
    monkeypatch.setattr(hybrid, "FUSION_DEPTH", 5)
    vector = await dense.embed_query("AUROC benchmarks")
    nearest = await asyncio.to_thread(dense.claims.search, vector, hybrid.FILTERED_DEPTH)
    inside = await claims_since(seeded, SINCE)
    kept = [(item, score) for item, score in nearest if item in inside][:5]
    assert len(kept) == 5 and len(inside) < len(nearest)  # the range leaves some out
    expected = [item for item, _ in await dense.rescored(seeded, VECTOR_OF_CLAIM, vector, kept)]
    assert expected
    where = ClaimFilter(since=SINCE)
    for first in (1, 3, 300):
        monkeypatch.setattr(hybrid, "FIRST_INSIDE", first)
        found = await hybrid._dense_claims(seeded, dense, vector, nearest, where, exact=False)
        assert found == expected, first
    wide = await search_claims(seeded, "AUROC zebra since:2026-09-20", dense=dense)
    assert wide.hits and {hit.claim_id for hit in wide.hits} <= inside


@pytest.mark.parametrize(
    ("since", "until"), [(SINCE, None), (None, SINCE), (SINCE, date(2026, 9, 30))]
)
async def test_a_date_range_reads_the_vectors_of_its_claims(
    seeded: AsyncSession, dense: DenseSearch, since: date | None, until: date | None
) -> None:
    ids, matrix = await vectors.claim_vectors_where(
        seeded, dense.embedder, paper_ids=None, since=since, until=until, limit=5_000
    )
    dates = [Paper.digest_date >= since] if since else []
    dates += [Paper.digest_date <= until] if until else []
    rows = await seeded.execute(select(Claim.id).join(Paper).where(*dates))
    inside = sorted(rows.scalars())
    assert inside and sorted(ids) == inside
    expected_ids, expected = await vectors.read(seeded, dense.embedder, VECTOR_OF_CLAIM, ids=inside)
    assert dict(zip(ids, matrix.tolist(), strict=True)) == dict(
        zip(expected_ids, expected.tolist(), strict=True)
    )


async def test_the_claim_vectors_of_papers_are_read_through_the_papers_index(
    seeded: AsyncSession, dense: DenseSearch
) -> None:
    """An `author:` or `paper:` filter searches its papers' claims by meaning exactly.
    Their vectors are found by paper: SQLite chose to walk every claim vector in key order
    instead (`/claims latency author:Wang` at 100,000 papers: 850 ms, now 110 ms)."""
    rows = await seeded.execute(select(Claim.paper_id, Claim.id).order_by(Claim.id))
    by_paper: dict[int, list[int]] = {}
    for paper_id, claim_id in rows:
        by_paper.setdefault(paper_id, []).append(claim_id)
    papers = sorted(by_paper)[1::3]
    async with statements_run(seeded) as statements:
        ids, matrix = await vectors.claim_vectors_where(
            seeded, dense.embedder, paper_ids=papers, since=None, until=None, limit=5_000
        )
    assert sorted(ids) == sorted(claim for paper in papers for claim in by_paper[paper])
    expected_ids, expected = await vectors.read(seeded, dense.embedder, VECTOR_OF_CLAIM, ids=ids)
    assert dict(zip(ids, matrix.tolist(), strict=True)) == dict(
        zip(expected_ids, expected.tolist(), strict=True)
    )
    if backend(seeded) == "sqlite":
        ((statement, parameters),) = statements
        raw = await (await seeded.connection()).get_raw_connection()
        driver: Any = raw.driver_connection
        cursor = await driver.execute(f"EXPLAIN QUERY PLAN {statement}", parameters)
        plan = " ".join(str(row[-1]) for row in await cursor.fetchall())
        assert "SEARCH item_vectors USING INDEX ix_item_vectors_paper_id" in plan, plan
