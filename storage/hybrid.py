"""Hybrid retrieval: the lexical ranking fused with the ranking by meaning.

Fusion is reciprocal rank fusion (RRF): an item scores 1 / (60 + rank) in each ranking
it is in, and the sum orders the page; ties go to the better lexical rank. RRF needs no
calibration between BM25-like scores and cosine similarities, and an item both rankings
agree on rises above either alone. Each ranking is fused to a depth of 100 (deeper for
later pages of the lexical one, so that every lexical match stays reachable page by page).

The dense ranking keeps only items at or above the embedder's similarity floor, so a
search for something the store does not hold is not filled with its nearest noise. It
respects the same filters as the lexical one: a paper filter, or a date range holding at
most 5,000 claims, is searched exactly over the stored vectors of those claims; a wider
range takes the 1,000 nearest claims and keeps the nearest 100 inside it. The range's size
is counted while the model embeds the query, so that a narrow range does not search the
index at all; the nearest inside a wide one are read with their stored vectors, in the
index's order, the first few hundred first (a wide range usually holds 100 of them).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray
from sqlalchemy import func, select, true
from sqlalchemy.ext.asyncio import AsyncSession

from storage import digest_dates, vectors
from storage.dense import DenseSearch
from storage.dialect import backend
from storage.fulltext import ClaimFilter, Ranked, search_budget
from storage.models import VECTOR_OF_CLAIM, VECTOR_OF_PAPER, Claim, Paper

RRF_K = 60
FUSION_DEPTH = 100
FILTERED_DEPTH = 1_000
EXACT_FILTER_LIMIT = 5_000
# The nearest claims a wide date range is first checked against: a range holding half the
# store or more usually has FUSION_DEPTH of them inside it. The rest of the FILTERED_DEPTH
# are read only when it has not (a second statement, as many as checking all at once took).
FIRST_INSIDE = 300
EXACT_WORDS = "exact words"
SIMILAR_MEANING = "similar meaning"

Lexical = Callable[[int, int], Awaitable[Ranked]]  # (limit, offset) -> ids best first, total


@dataclass(frozen=True)
class Fused:
    ids: list[int]
    why: dict[int, str] = field(default_factory=dict)  # id -> EXACT_WORDS | SIMILAR_MEANING
    total: int = -1  # how many either leg finds in all (-1: as many as `ids`)
    by_meaning_only: int = 0  # how many of `total` only the ranking by meaning finds

    def __post_init__(self) -> None:
        if self.total < 0:
            object.__setattr__(self, "total", len(self.ids))


def fuse(lexical: Sequence[int], dense: Sequence[int]) -> Fused:
    """Reciprocal rank fusion of two rankings (ids, best first)."""
    scores: dict[int, float] = {}
    for ranking in (lexical, dense):
        for rank, item in enumerate(ranking, 1):
            scores[item] = scores.get(item, 0.0) + 1.0 / (RRF_K + rank)
    lexical_rank = {item: rank for rank, item in enumerate(lexical)}
    order = sorted(scores, key=lambda i: (-scores[i], lexical_rank.get(i, len(lexical))))
    why = {i: EXACT_WORDS if i in lexical_rank else SIMILAR_MEANING for i in order}
    return Fused(order, why)


def depth(offset: int, limit: int) -> int:
    return max(FUSION_DEPTH, offset + limit)


async def claim_page(
    session: AsyncSession,
    dense: DenseSearch,
    words: str,
    where: ClaimFilter,
    lexical: Lexical,
    *,
    offset: int,
    limit: int,
    budget: float,
) -> Fused:
    """One page (`limit` ids from `offset`) of the fused ranking of claims, and the total:
    the lexical matches (counted within their window) plus the hits by meaning that are
    not among the lexical matches read. Counting a date range's claims may take `budget`
    seconds at most, as a search does."""
    # The query's vector and its nearest claims, in worker threads while the SQL runs: the
    # size of a date range first (a narrow one, like a paper filter, is searched exactly
    # over its claims' vectors and needs no index), then the lexical search.
    dated = where.since is not None or where.until is not None
    count: asyncio.Future[int] = asyncio.get_running_loop().create_future()
    meaning = asyncio.ensure_future(_by_meaning(dense, words, count))
    try:
        exact = where.paper_ids is not None
        if dated and not exact:
            async with search_budget(session, budget):  # and planned for its dates
                exact = await _in_dates(session, where) <= EXACT_FILTER_LIMIT
        count.set_result(0 if exact else FILTERED_DEPTH if dated else FUSION_DEPTH)
        lexical_ranked = await lexical(depth(offset, limit), 0)
        vector, nearest = await meaning
        dense_ids = await _dense_claims(session, dense, vector, nearest, where, exact=exact)
    finally:
        drop_search(meaning)
    fused = fuse(lexical_ranked.ids, dense_ids)
    added = len(fused.ids) - len(lexical_ranked.ids)
    return Fused(fused.ids[offset : offset + limit], fused.why, lexical_ranked.total + added, added)


Nearest = list[tuple[int, float]]  # (id, similarity), the most similar first


async def _by_meaning(
    dense: DenseSearch, words: str, count: Awaitable[int]
) -> tuple[NDArray[np.float32], Nearest]:
    """The query's vector and the `count` claims nearest to it in the index (`count` is
    known once the filters were looked at, while the model embeds the query)."""
    vector = await dense.embed_query(words)
    wanted = await count
    nearest = await asyncio.to_thread(dense.claims.search, vector, wanted) if wanted else []
    return vector, nearest


PaperSearch = tuple[NDArray[np.float32], Nearest, Nearest]  # the query's vector, papers, claims


def start_paper_search(dense: DenseSearch, words: str) -> asyncio.Task[PaperSearch]:
    """The papers and the claims nearest to the query, looked up meanwhile: the model and
    the index run in worker threads, so they overlap with the lexical search's SQL
    instead of adding to it. Give the task to `paper_ranking`, and to `drop_search`
    when done, in case the search stopped early."""
    return asyncio.ensure_future(_papers_by_meaning(dense, words))


async def _papers_by_meaning(dense: DenseSearch, words: str) -> PaperSearch:
    vector = await dense.embed_query(words)

    def nearest() -> PaperSearch:
        papers = dense.papers.search(vector, FUSION_DEPTH)
        return vector, papers, dense.claims.search(vector, FUSION_DEPTH)

    return await asyncio.to_thread(nearest)


def drop_search(searching: asyncio.Future[Any]) -> None:
    """Forget a search by meaning no longer needed: cancelled if still running, its error
    (if any) already told by the search that stopped early."""
    if not searching.done():
        searching.cancel()
    elif not searching.cancelled():
        searching.exception()  # retrieved, so asyncio does not log it a second time


async def paper_ranking(
    session: AsyncSession,
    dense: DenseSearch,
    searching: Awaitable[PaperSearch],
    lexical_ids: Sequence[int],
) -> Fused:
    """The whole fused ranking of papers, given the lexical one and the papers and claims
    nearest to the query (`start_paper_search`). A paper's place by meaning is the best of
    its own vector (title and abstract) and its claims' vectors."""
    vector, papers, claims = await searching
    best = dict(await dense.rescored(session, VECTOR_OF_PAPER, vector, papers))
    if claims:  # their stored vectors and their papers, read at once
        ids, owners, matrix = await vectors.read_claims(
            session, dense.embedder, [item for item, _ in claims]
        )
        near = dict(dense.scored(ids, matrix, vector))
        for claim_id, paper_id in zip(ids, owners, strict=True):  # in id order
            if claim_id in near:
                best[paper_id] = max(best.get(paper_id, near[claim_id]), near[claim_id])
    return fuse(lexical_ids, sorted(best, key=lambda i: -best[i]))


async def _dense_claims(
    session: AsyncSession,
    dense: DenseSearch,
    vector: NDArray[np.float32],
    nearest: Nearest,
    where: ClaimFilter,
    *,
    exact: bool,
) -> list[int]:
    """Claims by meaning, best first, at or above the floor and inside the filter: for a
    paper or a narrow date range (`exact`), those of the stored vectors of its claims
    nearest to `vector`; otherwise the `nearest` found in the index, inside the range
    if there is one."""
    if exact:
        ids, matrix = await vectors.claim_vectors_where(
            session,
            dense.embedder,
            paper_ids=where.paper_ids,
            since=where.since,
            until=where.until,
            limit=EXACT_FILTER_LIMIT,
        )
        return [item for item, _ in dense.scored(ids, matrix, vector)[:FUSION_DEPTH]]
    if where.since is not None or where.until is not None:
        ids, matrix = await _nearest_inside(session, dense, nearest, where)
        return [item for item, _ in dense.scored(ids, matrix, vector)]
    return [item for item, _ in await dense.rescored(session, VECTOR_OF_CLAIM, vector, nearest)]


async def _nearest_inside(
    session: AsyncSession, dense: DenseSearch, nearest: Nearest, where: ClaimFilter
) -> tuple[list[int], NDArray[np.float32]]:
    """The first FUSION_DEPTH claims of `nearest` inside the date range that have a stored
    vector, with those vectors, in id order: the first FIRST_INSIDE of `nearest` checked
    first, the rest only when these hold too few."""
    order = [item for item, _ in nearest]
    found: list[int] = []
    rows: list[NDArray[np.float32]] = []
    for chunk in (order[:FIRST_INSIDE], order[FIRST_INSIDE:]):
        if not chunk or len(found) >= FUSION_DEPTH:
            break
        ids, matrix = await vectors.claim_vectors_where(
            session,
            dense.embedder,
            ids=chunk,
            paper_ids=None,
            since=where.since,
            until=where.until,
            limit=len(chunk),
        )
        place = {item: row for row, item in enumerate(ids)}
        kept = [item for item in chunk if item in place][: FUSION_DEPTH - len(found)]
        found += kept
        rows.append(matrix[[place[item] for item in kept]])
    if not found:
        return [], np.zeros((0, dense.embedder.dim), dtype=np.float32)
    # In id order, as stored vectors are read elsewhere: equal scores keep that order.
    by_id = sorted(range(len(found)), key=found.__getitem__)
    return [found[i] for i in by_id], np.concatenate(rows)[by_id]


async def _in_dates(session: AsyncSession, where: ClaimFilter) -> int:
    """How many claims the date range holds, counted up to just past the exact limit.

    The count stops early only if the papers in the range are read first, each followed by
    its claims; PostgreSQL would rather merge all the claims' paper ids with the papers of
    the range (7 ms against 1.5 ms for a wide range at 10,000 papers), so there the claims
    are a lateral subquery it cannot merge (`OFFSET 0`)."""
    dates = digest_dates.within(where.since, where.until)
    if backend(session) == "postgresql":
        ranged = select(Paper.id.label("paper_id")).where(*dates).subquery()
        claims = select(Claim.id).where(Claim.paper_id == ranged.c.paper_id).offset(0).lateral()
        inside = select(claims.c.id).select_from(ranged).join(claims, true())
    else:
        inside = select(Claim.id).join(Paper, Paper.id == Claim.paper_id).where(*dates)
    capped = inside.limit(EXACT_FILTER_LIMIT + 1).subquery()
    return int((await session.execute(select(func.count()).select_from(capped))).scalar_one())
