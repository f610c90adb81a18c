"""Stored vectors (the `item_vectors` table): what is embedded, what still waits, reading
them back for the in-memory index.

What is embedded is the English side, which worked best for queries in either language:
a claim's evidence quote (`quote_en`; for an abstract's result sentence, the sentence),
and a paper's title with its English abstract. Chinese text is not embedded: on the seeds,
a Chinese review or a claim's Chinese statement came out close to every Chinese query and
crowded the English abstracts out. So a deep read without English text is embedded by its
name only, and is found by meaning through its claims' English quotes; a claim whose quote
is a table row is embedded as it is (found by its numbers and Chinese words, lexically).

The stored version is the model's version and TEXT_VERSION: changing what is embedded
makes every vector stale, as a new model does.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

import numpy as np
from numpy.typing import NDArray
from sqlalchemy import ColumnElement, Select, and_, delete, func, insert, or_, select, text
from sqlalchemy.ext.asyncio import AsyncSession

from storage import digest_dates
from storage.dialect import backend, id_in
from storage.embedders import Embedder
from storage.models import VECTOR_OF_CLAIM, VECTOR_OF_PAPER, Claim, ItemVector, Paper

KINDS = (VECTOR_OF_CLAIM, VECTOR_OF_PAPER)
TEXT_VERSION = "t2"
MAX_TEXT_CHARS = 2000  # the model reads ~512 tokens; the rest would only cost time


def claim_text(text_zh: str, quote_en: str) -> str:
    """What a claim is embedded by: its English quote (its statement if it has none)."""
    return (quote_en or text_zh)[:MAX_TEXT_CHARS]


def paper_text(
    title: str | None,
    name: str | None,
    subtitle: str | None,
    abstract_en: str | None,
    positioning: str | None,
) -> str:
    if abstract_en or title:
        parts = (title or name, abstract_en)
        return ". ".join(part for part in parts if part)[:MAX_TEXT_CHARS]
    return name or (subtitle or positioning or "")[:100]


def to_bytes(vector: NDArray[np.float32]) -> bytes:
    return np.asarray(vector, dtype=np.float16).tobytes()


def from_bytes(blobs: Sequence[bytes], dim: int) -> NDArray[np.float32]:
    """Stored vectors as a float32 matrix; a blob of another size (another model's) is
    left as zeros, which no search finds."""
    size = dim * 2
    if all(len(blob) == size for blob in blobs):  # the usual case: one conversion
        joined = np.frombuffer(b"".join(blobs), dtype=np.float16)
        return joined.reshape(len(blobs), dim).astype(np.float32)
    out = np.zeros((len(blobs), dim), dtype=np.float32)
    for i, blob in enumerate(blobs):
        if len(blob) == size:
            out[i] = np.frombuffer(blob, dtype=np.float16)
    return out


@dataclass(frozen=True)
class Pending:
    """An item that needs a vector: its key, its paper and the text to embed."""

    kind: str
    item_id: int
    paper_id: int
    text: str


def stored_version(embedder: Embedder) -> str:
    return f"{embedder.version}/{TEXT_VERSION}"


def _current(embedder: Embedder) -> list[ColumnElement[bool]]:
    return [ItemVector.model == embedder.name, ItemVector.model_version == stored_version(embedder)]


# A batch looks for what waits among the next PENDING_WINDOW ids only, both sides of the
# join bounded: PostgreSQL's generic plan expects almost every row to have its vector and
# sorted every remaining claim for each batch (430 ms a batch at 10,000 papers). Looking
# through 1.58 million claims that all have theirs (a start at 100,000 papers): windows
# of 1,000 ids 5.2 µs an id on PostgreSQL, 4.5 on SQLite; of 4,000 2.6 and 2.5 µs, each
# window under 20 ms.
PENDING_WINDOW = 4_000


def _ids_between(column: Any, after: int, upto: int | None) -> list[ColumnElement[bool]]:
    return [column > after] + ([column <= upto] if upto is not None else [])


def _missing_claims(
    embedder: Embedder, after: int = 0, upto: int | None = None
) -> Select[*tuple[Any, ...]]:
    vector = and_(
        ItemVector.kind == VECTOR_OF_CLAIM,
        ItemVector.item_id == Claim.id,
        *_ids_between(ItemVector.item_id, after, upto),
    )
    return (
        select(Claim.id, Claim.paper_id, Claim.text_zh, Claim.quote_en)
        .outerjoin(ItemVector, vector)
        .where(
            *_ids_between(Claim.id, after, upto),
            or_(ItemVector.item_id.is_(None), ~and_(*_current(embedder))),
        )
    )


def _missing_papers(
    embedder: Embedder, after: int = 0, upto: int | None = None
) -> Select[*tuple[Any, ...]]:
    vector = and_(
        ItemVector.kind == VECTOR_OF_PAPER,
        ItemVector.item_id == Paper.id,
        *_ids_between(ItemVector.item_id, after, upto),
    )
    return (
        select(
            Paper.id, Paper.title, Paper.name, Paper.subtitle, Paper.abstract_en, Paper.positioning
        )
        .outerjoin(ItemVector, vector)
        .where(
            *_ids_between(Paper.id, after, upto),
            or_(
                ItemVector.item_id.is_(None),
                ~and_(*_current(embedder)),
                Paper.updated_at > ItemVector.embedded_at,
            ),
        )
    )


async def waiting(session: AsyncSession, embedder: Embedder) -> int:
    """How many claims and papers have no current vector."""
    total = 0
    for query in (_missing_claims(embedder), _missing_papers(embedder)):
        total += (
            await session.execute(select(func.count()).select_from(query.subquery()))
        ).scalar_one()
    return int(total)


async def pending(
    session: AsyncSession, embedder: Embedder, kind: str, after: int, limit: int
) -> tuple[list[Pending], int | None]:
    """Up to `limit` items of `kind` without a current vector among the next PENDING_WINDOW
    ids after `after`, in id order, and the last id of that window (None: it reached the
    newest). One window a call, so that a caller can give way between windows."""
    table = Claim if kind == VECTOR_OF_CLAIM else Paper
    ends = select(table.id).where(table.id > after).order_by(table.id)
    upto = (await session.execute(ends.offset(PENDING_WINDOW - 1).limit(1))).scalar()
    if kind == VECTOR_OF_CLAIM:
        claims = _missing_claims(embedder, after, upto).order_by(Claim.id).limit(limit)
        found = [
            Pending(kind, i, p, claim_text(zh, en))
            for i, p, zh, en in await session.execute(claims)
        ]
    else:
        papers = _missing_papers(embedder, after, upto).order_by(Paper.id).limit(limit)
        found = [
            Pending(kind, row[0], row[0], paper_text(*row[1:]))
            for row in await session.execute(papers)
        ]
    return found, upto


async def save(
    session: AsyncSession,
    embedder: Embedder,
    items: Sequence[Pending],
    vectors: NDArray[np.float32],
    read_at: datetime,
) -> int:
    """Store the items' vectors, replacing older ones; items deleted since they were read
    are skipped. `read_at` is when their text was read: a paper changed after it is
    embedded again. Returns how many were stored."""
    stored = 0
    for kind in KINDS:
        mine = [
            (item, vector) for item, vector in zip(items, vectors, strict=True) if item.kind == kind
        ]
        if not mine:
            continue
        ids = [item.item_id for item, _ in mine]
        table = Claim if kind == VECTOR_OF_CLAIM else Paper
        alive = set((await session.execute(select(table.id).where(table.id.in_(ids)))).scalars())
        await session.execute(
            delete(ItemVector).where(ItemVector.kind == kind, ItemVector.item_id.in_(ids))
        )
        rows = [
            {
                "kind": kind,
                "item_id": item.item_id,
                "paper_id": item.paper_id,
                "claim_id": item.item_id if kind == VECTOR_OF_CLAIM else None,
                "model": embedder.name,
                "model_version": stored_version(embedder),
                "vector": to_bytes(vector),
                "embedded_at": read_at,
            }
            for item, vector in mine
            if item.item_id in alive
        ]
        if rows:
            await session.execute(insert(ItemVector), rows)
        stored += len(rows)
    return stored


async def read(
    session: AsyncSession,
    embedder: Embedder,
    kind: str,
    *,
    after: int = 0,
    limit: int | None = None,
    ids: Sequence[int] | None = None,
) -> tuple[list[int], NDArray[np.float32]]:
    """Current vectors of `kind` in id order: after `after` (at most `limit`), or of `ids`."""
    query = select(ItemVector.item_id, ItemVector.vector).where(
        ItemVector.kind == kind, *_current(embedder)
    )
    # Not both: with `item_id > 0` beside the list SQLite scans every id of the kind.
    if ids is not None:
        query = query.where(id_in(session, ItemVector.item_id, ids))
    else:
        query = query.where(ItemVector.item_id > after)
    rows = (await session.execute(query.order_by(ItemVector.item_id).limit(limit))).all()
    return [row[0] for row in rows], from_bytes([row[1] for row in rows], embedder.dim)


async def read_claims(
    session: AsyncSession, embedder: Embedder, ids: Sequence[int]
) -> tuple[list[int], list[int], NDArray[np.float32]]:
    """Current vectors of these claims, in id order, with each claim's paper: the claim
    ids, their papers' ids and the vectors."""
    query = (
        select(ItemVector.item_id, Claim.paper_id, ItemVector.vector)
        .join(Claim, Claim.id == ItemVector.item_id)
        .where(
            ItemVector.kind == VECTOR_OF_CLAIM,
            *_current(embedder),
            id_in(session, ItemVector.item_id, ids),
        )
    )
    rows = (await session.execute(query.order_by(ItemVector.item_id))).all()
    matrix = from_bytes([row[2] for row in rows], embedder.dim)
    return [row[0] for row in rows], [row[1] for row in rows], matrix


async def read_since(
    session: AsyncSession,
    embedder: Embedder,
    kind: str,
    since: datetime,
    *,
    after: int,
    limit: int,
) -> tuple[list[int], NDArray[np.float32]]:
    """Current vectors of `kind` embedded at or after `since`, in id order after `after`
    (at most `limit`): what a saved or running index has not seen yet."""
    query = select(ItemVector.item_id, ItemVector.vector).where(
        ItemVector.kind == kind,
        ItemVector.item_id > after,
        ItemVector.embedded_at >= since,
        *_current(embedder),
    )
    rows = (await session.execute(query.order_by(ItemVector.item_id).limit(limit))).all()
    return [row[0] for row in rows], from_bytes([row[1] for row in rows], embedder.dim)


async def claim_vectors_where(
    session: AsyncSession,
    embedder: Embedder,
    *,
    paper_ids: Sequence[int] | None,
    since: date | None,
    until: date | None,
    limit: int,
    ids: Sequence[int] | None = None,
) -> tuple[list[int], NDArray[np.float32]]:
    """Current claim vectors of these papers and digest dates (at most `limit`, in no
    particular order): the candidates of an exact search under a narrow filter; or,
    given `ids` (a few hundred), which of these claims are inside the dates."""
    if ids is None and paper_ids is None and backend(session) == "sqlite":
        return await _sqlite_claim_vectors_dated(session, embedder, since, until, limit)
    # Papers' claims are found by the papers' index: SQLite would rather walk every claim
    # vector in key order (kind first) testing each one's paper, 550 ms for an author's
    # 2,000 papers at 100,000 papers, against 11 ms. `kind || ''` is no indexed column.
    kind = ItemVector.kind if paper_ids is None else ItemVector.kind.concat("")
    query = (
        select(ItemVector.item_id, ItemVector.vector)
        .join(Paper, Paper.id == ItemVector.paper_id)
        .where(kind == VECTOR_OF_CLAIM, *_current(embedder))
    )
    if ids is not None:
        query = query.where(id_in(session, ItemVector.item_id, ids))
    if paper_ids is not None:
        query = query.where(ItemVector.paper_id.in_(list(paper_ids)))
    query = query.where(*digest_dates.within(since, until))
    rows = (await session.execute(query.limit(limit))).all()
    return [row[0] for row in rows], from_bytes([row[1] for row in rows], embedder.dim)


async def _sqlite_claim_vectors_dated(
    session: AsyncSession, embedder: Embedder, since: date | None, until: date | None, limit: int
) -> tuple[list[int], NDArray[np.float32]]:
    """A date range's claim vectors on SQLite, read from the range's papers (`CROSS JOIN`
    keeps that order): SQLite would rather read every claim vector and look up its paper's
    date (150 ms for a day's 1,200 claims at 10,000 papers, against 3 ms)."""
    dates, bounds = digest_dates.within_sql("p", since, until)
    params: dict[str, Any] = {
        "kind": VECTOR_OF_CLAIM,
        "model": embedder.name,
        "version": stored_version(embedder),
        "limit": limit,
        **bounds,
    }
    rows = await session.execute(
        text(
            "SELECT v.item_id, v.vector FROM papers p CROSS JOIN item_vectors v"
            " ON v.paper_id = p.id"
            " WHERE v.kind = :kind AND v.model = :model AND v.model_version = :version"
            f"{dates} ORDER BY v.item_id LIMIT :limit"
        ),
        params,
    )
    found = rows.all()
    return [row[0] for row in found], from_bytes([row[1] for row in found], embedder.dim)
