"""Saved indexes of search by meaning, on both stores: a restart loads them instead of
rebuilding, catches up with what was embedded since, and a broken file means a rebuild."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import select, update
from sqlalchemy.engine import URL

from jobs.embedding import embed_pending
from jobs.ingest import ingest
from storage import db, vectors
from storage.dense import DenseSearch
from storage.embedders import HashEmbedder
from storage.index_files import IndexFiles
from storage.models import VECTOR_OF_CLAIM, ItemVector
from storage.search import search_claims
from tests.digests import SEEDS


async def seeded_store(url: URL) -> None:
    """The seeds and their stand-in vectors in a test's own database (it writes to it)."""
    async with db.open_engine(url) as engine:
        await db.upgrade(engine)
        await ingest(db.session_factory(engine), [SEEDS])
        await embed_pending(db.session_factory(engine), HashEmbedder())


def files_in(directory: Path, url: URL) -> IndexFiles:
    model = HashEmbedder()
    return IndexFiles.of(directory, str(url), model.name, model.version, model.dim)


def spoil(directory: Path) -> None:
    for saved in directory.glob("*.usearch"):
        saved.write_bytes(b"not an index")


async def test_a_restart_loads_the_saved_index_and_catches_up(
    database_url: URL, tmp_path: Path
) -> None:
    await seeded_store(database_url)
    files = files_in(tmp_path, database_url)
    async with db.open_engine(database_url) as engine:
        sessions = db.session_factory(engine)
        first = DenseSearch(HashEmbedder(), files)
        await first.load(sessions)
        assert files.manifest.is_file()
        counts = (len(first.claims), len(first.papers))

        again = DenseSearch(HashEmbedder(), files)
        assert await again.restore()  # no build: searchable at once
        assert again.ready and (len(again.claims), len(again.papers)) == counts

        # Every vector was embedded within the catch-up's margin, so it reads them all
        # again: it stores none of them a second time, and saves nothing.
        saved = files.manifest.read_text(encoding="utf-8")
        await again.load(sessions)
        assert files.manifest.read_text(encoding="utf-8") == saved

        # A claim re-embedded after the save (by another process, say) is caught up with.
        async with sessions() as session:
            claim_id = (
                await session.execute(
                    select(ItemVector.item_id).where(ItemVector.kind == VECTOR_OF_CLAIM).limit(1)
                )
            ).scalar_one()
        moved = HashEmbedder().embed_passages(["zebra crossing giraffe"])[0]
        async with db.writing(sessions) as session:
            await session.execute(
                update(ItemVector)
                .where(ItemVector.kind == VECTOR_OF_CLAIM, ItemVector.item_id == claim_id)
                .values(vector=vectors.to_bytes(moved), embedded_at=datetime.now(UTC))
            )
        await again.load(sessions)
        assert again.claims.search(moved, 1)[0][0] == claim_id
        async with sessions() as session:
            found = await search_claims(session, "zebra crossing giraffe", dense=again)
        assert found.hits[0].claim_id == claim_id


async def test_a_broken_saved_index_is_rebuilt(database_url: URL, tmp_path: Path) -> None:
    await seeded_store(database_url)
    files = files_in(tmp_path, database_url)
    async with db.open_engine(database_url) as engine:
        await DenseSearch(HashEmbedder(), files).load(db.session_factory(engine))
        spoil(tmp_path)
        rebuilt = DenseSearch(HashEmbedder(), files)
        assert not await rebuilt.restore()
        await rebuilt.load(db.session_factory(engine))
    assert rebuilt.ready and len(rebuilt.claims) > 0
