"""Search by meaning in a running bot: the model, the indexes, background embedding.

At start the model is loaded and warmed (one query through it) before the first request,
and the indexes are built from the stored vectors in the background: until they are
ready, and whenever no model is installed, search is lexical only. After each ingest
(`/reingest`, the periodic scan) new claims and papers are embedded in the background,
one run at a time, by a second model instance, so that a user's query never waits for a
batch of passages; the indexes are refreshed when the run ends.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from jobs.embedding import embed_pending
from storage.dense import DenseSearch
from storage.embedders import Embedder, load_embedder

log = logging.getLogger(__name__)


@dataclass
class Meaning:
    description: str = "none: search is lexical only"
    search: DenseSearch | None = None  # queries
    passages: Embedder | None = None  # the background embedding job's own instance
    _running: asyncio.Lock = field(default_factory=asyncio.Lock)
    _again: bool = False

    @classmethod
    def load(cls, spec: str) -> Meaning:
        """The configured embedder, twice (queries, passages), on one thread each."""
        choice = load_embedder(spec, threads=1)
        if choice.embedder is None:
            return cls(choice.description)
        passages = load_embedder(spec, threads=1).embedder
        return cls(choice.description, DenseSearch(choice.embedder), passages)

    async def start(self, sessions: async_sessionmaker[AsyncSession]) -> None:
        """Warm the model; then build the indexes (awaited by `ask` and `shell`, run in
        the background by `serve`)."""
        if self.search is not None:
            await self.search.warm()
            await self.search.load(sessions)

    async def embed(self, sessions: async_sessionmaker[AsyncSession]) -> None:
        """Embed what waits and refresh the indexes. A request while a run is going makes
        that run go once more at its end, so nothing ingested meanwhile waits for the next."""
        if self.search is None or self.passages is None:
            return
        if self._running.locked():
            self._again = True
            return
        async with self._running:
            while True:
                self._again = False
                try:
                    report = await embed_pending(sessions, self.passages)
                    await self.search.refresh(sessions, report.stored)
                except Exception:  # search stays as it was; the next ingest tries again
                    log.exception("embedding for search by meaning failed")
                    return
                if report.embedded:
                    log.info("embedded %d items; %d wait", report.embedded, report.waiting)
                if not self._again:
                    return
