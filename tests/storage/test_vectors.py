"""Stored vectors on both stores: embedding what waits, resuming, staleness, deletion."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path

import pytest
from sqlalchemy import delete, func, select, update
from sqlalchemy.ext.asyncio import AsyncEngine

from jobs.embedding import embed_pending
from jobs.ingest import ingest
from storage import db, vectors
from storage.db import Sessions
from storage.embedders import EmbedderUnavailable, HashEmbedder, Vectors, load_embedder
from storage.models import Claim, ItemVector, Paper, utcnow
from tests.digests import SEEDS

SEED_ITEMS = 184 + 36  # claims (numbered and abstract sentences) and papers


class CountingEmbedder(HashEmbedder):
    """The stand-in, counting what it is asked to embed."""

    def __init__(self, version: str = "1") -> None:
        super().__init__()
        self.version = version
        self.texts: list[str] = []

    def embed_passages(self, texts: Sequence[str]) -> Vectors:
        self.texts += texts
        return super().embed_passages(texts)


async def seeded_sessions(engine: AsyncEngine) -> Sessions:
    sessions = db.session_factory(engine)
    report = await ingest(sessions, [SEEDS])
    assert not report.errors
    return sessions


async def stored(sessions: Sessions) -> int:
    async with sessions() as session:
        return int(
            (await session.execute(select(func.count()).select_from(ItemVector))).scalar_one()
        )


async def test_everything_waits_then_one_run_embeds_it_all(engine: AsyncEngine) -> None:
    sessions = await seeded_sessions(engine)
    embedder = CountingEmbedder()
    async with sessions() as session:
        assert await vectors.waiting(session, embedder) == SEED_ITEMS
    report = await embed_pending(sessions, embedder)
    assert (report.embedded, report.waiting) == (SEED_ITEMS, 0)
    assert await stored(sessions) == SEED_ITEMS
    assert (await embed_pending(sessions, embedder)).embedded == 0


async def test_a_stopped_run_continues_and_embeds_nothing_twice(engine: AsyncEngine) -> None:
    sessions = await seeded_sessions(engine)
    embedder = CountingEmbedder()
    first = await embed_pending(sessions, embedder, batch=16, max_batches=1)
    assert first.embedded == 16 and first.waiting == SEED_ITEMS - 16
    rest = await embed_pending(sessions, embedder)
    assert rest.embedded == SEED_ITEMS - 16
    assert len(embedder.texts) == SEED_ITEMS  # nothing embedded twice


async def test_a_run_that_gives_way_waits_for_its_pause_before_each_step(
    engine: AsyncEngine,
) -> None:
    """`serve`'s background run: nothing is read or embedded while its pause holds (a
    search runs), and once let through it embeds the same as a run in the foreground."""
    sessions = await seeded_sessions(engine)
    embedder, open_, pauses = CountingEmbedder(), asyncio.Event(), 0

    async def pause() -> None:
        nonlocal pauses
        pauses += 1
        await open_.wait()

    run = asyncio.create_task(embed_pending(sessions, embedder, batch=64, pause=pause))
    await asyncio.sleep(0.2)
    assert (pauses, embedder.texts, await stored(sessions)) == (1, [], 0)
    open_.set()
    report = await run
    assert (report.embedded, report.waiting) == (SEED_ITEMS, None)  # counted nothing
    assert await stored(sessions) == SEED_ITEMS
    # A step is a window of ids looked through or a batch embedded: each gave way first.
    batches = -(-184 // 64) + -(-36 // 64)
    assert pauses >= batches + 2


async def test_another_model_version_makes_every_vector_stale(engine: AsyncEngine) -> None:
    sessions = await seeded_sessions(engine)
    await embed_pending(sessions, CountingEmbedder("1"))
    newer = CountingEmbedder("2")
    async with sessions() as session:
        assert await vectors.waiting(session, newer) == SEED_ITEMS
    assert (await embed_pending(sessions, newer)).embedded == SEED_ITEMS
    assert await stored(sessions) == SEED_ITEMS  # replaced, not added


async def test_a_changed_paper_waits_again(engine: AsyncEngine) -> None:
    sessions = await seeded_sessions(engine)
    embedder = CountingEmbedder()
    await embed_pending(sessions, embedder)
    async with db.writing(sessions) as session:
        await session.execute(update(Paper).where(Paper.name == "GAPO").values(updated_at=utcnow()))
    async with sessions() as session:
        assert await vectors.waiting(session, embedder) == 1


async def test_deleted_papers_and_claims_take_their_vectors_along(
    engine: AsyncEngine, tmp_path: Path
) -> None:
    sessions = await seeded_sessions(engine)
    await embed_pending(sessions, CountingEmbedder())
    async with db.writing(sessions) as session:
        gapo = (await session.execute(select(Paper.id).where(Paper.name == "GAPO"))).scalar_one()
        claims = (
            await session.execute(select(func.count()).where(Claim.paper_id == gapo))
        ).scalar_one()
        await session.execute(delete(Paper).where(Paper.id == gapo))
    assert await stored(sessions) == SEED_ITEMS - claims - 1
    async with db.writing(sessions) as session:
        await session.execute(
            delete(Claim).where(Claim.id == select(func.min(Claim.id)).scalar_subquery())
        )
    assert await stored(sessions) == SEED_ITEMS - claims - 2


def test_the_english_side_is_embedded() -> None:
    prose = "Enoki improves over the strongest prior detectors by a wide margin."
    assert vectors.claim_text("中文", prose) == prose
    assert vectors.paper_text("A Title", "Name", "副标题", "An abstract.", "定位") == (
        "A Title. An abstract."
    )
    assert vectors.paper_text(None, "Enoki", "副标题", None, "定位") == "Enoki"


def test_a_team_plugs_in_its_own_model_by_factory() -> None:
    plugged = load_embedder("storage.embedders:HashEmbedder")
    assert isinstance(plugged.embedder, HashEmbedder)
    assert plugged.description == "hash-bag-of-words (3)"
    with pytest.raises(EmbedderUnavailable, match="did not return an embedder"):
        load_embedder("builtins:object")
    assert load_embedder("none").embedder is None
