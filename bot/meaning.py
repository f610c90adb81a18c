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
from pathlib import Path

from sqlalchemy.engine import URL

from jobs.embedding import Pause, embed_pending
from storage.db import Sessions
from storage.dense import DenseSearch
from storage.embedders import Embedder, load_embedder
from storage.index_files import IndexFiles

log = logging.getLogger(__name__)


@dataclass
class Meaning:
    description: str = "none: search is lexical only"
    search: DenseSearch | None = None  # queries
    passages: Embedder | None = None  # the background embedding job's own instance
    _running: asyncio.Lock = field(default_factory=asyncio.Lock)
    _again: bool = False

    @classmethod
    def load(cls, spec: str, index_dir: Path | None = None, store: URL | None = None) -> Meaning:
        """The configured embedder, twice (queries, passages), on one thread each; its
        indexes saved under `index_dir` for this `store`."""
        choice = load_embedder(spec, threads=1)
        model = choice.embedder
        if model is None:
            return cls(choice.description)
        passages = load_embedder(spec, threads=1).embedder
        files = None
        if index_dir is not None and store is not None:
            files = IndexFiles.of(
                index_dir, store_identity(store), model.name, model.version, model.dim
            )
        return cls(choice.description, DenseSearch(model, files), passages)

    async def start(self, sessions: Sessions) -> None:
        """Load or build the indexes, then warm the model and them (awaited by `ask` and
        `shell`; `serve` restores saved indexes before it serves and does the rest in the
        background)."""
        if self.search is not None:
            await self.search.load(sessions)
            await self.search.warm()

    async def embed(self, sessions: Sessions, pause: Pause | None = None) -> None:
        """Embed what waits and refresh the indexes, awaiting `pause` before each step. A
        request while a run is going makes that run go once more at its end, so nothing
        ingested meanwhile waits for the next."""
        if self.search is None or self.passages is None:
            return
        if self._running.locked():
            self._again = True
            return
        async with self._running:
            while True:
                self._again = False
                try:
                    report = await embed_pending(sessions, self.passages, pause=pause)
                    await self.search.refresh(sessions)
                except Exception:  # search stays as it was; the next ingest tries again
                    log.exception("embedding for search by meaning failed")
                    return
                if report.embedded:
                    log.info("embedded %d items", report.embedded)
                if not self._again:
                    return


def store_identity(url: URL) -> str:
    """Which store a URL names, whatever the working directory, password left out."""
    if url.get_backend_name() == "sqlite" and url.database and url.database != ":memory:":
        url = url.set(database=str(Path(url.database).resolve()))
    return url.render_as_string(hide_password=True)
