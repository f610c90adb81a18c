"""Search by meaning: the query model and in-memory indexes of the stored vectors.

One `DenseSearch` per process. `restore` loads the indexes (claims, papers) saved by an
earlier start (storage/index_files.py); without them `load` builds both from the
`item_vectors` table, reading it in batches and adding them in a worker thread, and until
one of them is done `ready` is False and search is lexical only. The indexes hold every
vector embedded before their `watermark`: `load` and `refresh` read only the rows embedded
since (an index on `embedded_at`), whichever process embedded them, so a scan of every id
at 1.3 million claims never holds the event loop. Items deleted since the start stay in
the index until it is rebuilt, harmlessly: every hit by meaning is checked against the
claims and papers tables before it is shown. `warm` runs one query through the model and
the index, so that the first user's query does not pay for either's start.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

import numpy as np
from numpy.typing import NDArray
from sqlalchemy.ext.asyncio import AsyncSession

from storage import vectors
from storage.db import Sessions
from storage.embedders import Embedder, describe
from storage.index_files import IndexFiles
from storage.models import VECTOR_OF_CLAIM, VECTOR_OF_PAPER
from storage.vector_index import EXPANSION_SEARCH, VectorIndex, new_index

log = logging.getLogger(__name__)

LOAD_BATCH = 20_000  # vectors read from the table at once while building (about 15 MB)
READ_BY_ID = 2_000  # vectors read at once while catching up
CATCH_UP_MARGIN = timedelta(minutes=1)  # a batch is committed seconds after its stamp
QUERY_CACHE = 512  # query vectors kept (1.5 KB each for the e5 model)
SAVE_AFTER = 10_000  # vectors added since the last save that make a refresh save again
_CONTROLS = re.compile(r"[\x00-\x1f\x7f]+")


def _retrieved(vector: asyncio.Future[NDArray[np.float32]]) -> None:
    """Mark a failed embedding's error as seen: the search that awaits it reports it, and
    one begun early for a search that did not need it in the end has nobody to."""
    if not vector.cancelled():
        vector.exception()


def query_text(words: str) -> str:
    """What the model is given for a search: the words as typed, control characters
    (NUL included) as spaces; already at most 300 characters (storage/search_text.py)."""
    return " ".join(_CONTROLS.sub(" ", words).split())


@dataclass
class DenseSearch:
    embedder: Embedder
    files: IndexFiles | None = None  # where the indexes are saved between starts
    claims: VectorIndex = field(init=False)
    papers: VectorIndex = field(init=False)
    ready: bool = False
    watermark: datetime | None = None  # the indexes hold every vector embedded before it

    def __post_init__(self) -> None:
        self.claims = VectorIndex(self.embedder.dim)
        self.papers = VectorIndex(self.embedder.dim)
        self._refreshing = asyncio.Lock()
        self._unsaved = 0  # vectors added since the indexes were last saved
        self._queries: OrderedDict[str, asyncio.Future[NDArray[np.float32]]] = OrderedDict()

    @property
    def description(self) -> str:
        return describe(self.embedder)

    def index(self, kind: str) -> VectorIndex:
        return self.claims if kind == VECTOR_OF_CLAIM else self.papers

    async def warm(self) -> None:
        vector = await self.embed_query("warm up")
        for index in (self.claims, self.papers):
            await asyncio.to_thread(index.search, vector, 100)

    async def nearest(
        self, session: AsyncSession, kind: str, vector: NDArray[np.float32], count: int
    ) -> list[tuple[int, float]]:
        """The items of `kind` among the `count` nearest to `vector` in the index that
        reach the embedder's floor (see `rescored`)."""
        found = await asyncio.to_thread(self.index(kind).search, vector, count)
        return await self.rescored(session, kind, vector, found)

    async def rescored(
        self,
        session: AsyncSession,
        kind: str,
        vector: NDArray[np.float32],
        found: Sequence[tuple[int, float]],
    ) -> list[tuple[int, float]]:
        """The items the index `found` near `vector` that reach the embedder's floor, as
        (id, cosine similarity), most similar first, scored on their stored vectors: the
        index's int8 copies put e5's cosines about 0.015 low and swap close neighbours,
        which the floor, set on exact cosines, cannot allow for. Items deleted since the
        index was refreshed have no stored vector, so they drop out here."""
        if not found:
            return []
        ids, matrix = await vectors.read(
            session, self.embedder, kind, ids=[item for item, _ in found]
        )
        return self.scored(ids, matrix, vector)

    def scored(
        self, ids: Sequence[int], matrix: NDArray[np.float32], vector: NDArray[np.float32]
    ) -> list[tuple[int, float]]:
        """Items by their stored vectors' cosine to `vector`, those at or above the floor,
        most similar first."""
        scores = (matrix @ vector).tolist() if len(ids) else []
        floor = self.embedder.floor
        ranked = sorted(zip(ids, scores, strict=True), key=lambda pair: -pair[1])
        return [(item, score) for item, score in ranked if score >= floor]

    def start_query(self, words: str) -> asyncio.Future[NDArray[np.float32]]:
        """The query's vector, computed in a worker thread (CPU work over user text) from
        now on if not already: a search can begin it before it needs it, and a second
        search of the same words shares it. The newest QUERY_CACHE are kept, so that Next
        page and a repeated search do not pay for the model again; a failed one is not."""
        text = query_text(words)
        vector = self._queries.get(text)
        if vector is None or vector.cancelled() or (vector.done() and vector.exception()):
            vector = asyncio.ensure_future(asyncio.to_thread(self._embed, text))
            vector.add_done_callback(_retrieved)
            self._queries[text] = vector
            if len(self._queries) > QUERY_CACHE:
                self._queries.popitem(last=False)
        self._queries.move_to_end(text)
        return vector

    async def embed_query(self, words: str) -> NDArray[np.float32]:
        # Shielded: a search cancelled meanwhile leaves the vector to others waiting for it.
        return await asyncio.shield(self.start_query(words))

    def _embed(self, text: str) -> NDArray[np.float32]:
        vector: NDArray[np.float32] = self.embedder.embed_queries([text])[0]
        return vector

    async def restore(self) -> bool:
        """Load the saved indexes, if any: search by meaning is ready on them at once
        (`load` then adds what was embedded since). Seconds where a build takes an hour
        at 1.3 M claims; `serve` awaits it before it serves."""
        if self.ready or self.files is None:
            return self.ready
        saved = await asyncio.to_thread(self.files.load, self.embedder.dim)
        if saved is None:
            return False
        for kind, index in saved.indexes.items():
            index.expansion_search = EXPANSION_SEARCH  # type: ignore[misc]  # not in the file
            self.index(kind).replace(index)
        self.watermark, self.ready = saved.watermark, True
        log.info(
            "search by meaning: loaded %d claims and %d papers from %s",
            len(self.claims),
            len(self.papers),
            self.files.directory,
        )
        return True

    async def load(self, sessions: Sessions) -> None:
        """The saved indexes brought up to date, or, without them, both indexes built from
        the table (searches stay lexical until then); saved when anything was added."""
        async with self._refreshing:
            if not await self.restore():
                started = datetime.now(UTC)
                for kind in (VECTOR_OF_CLAIM, VECTOR_OF_PAPER):
                    built = new_index(self.embedder.dim)
                    after = 0
                    while True:
                        async with sessions() as session:
                            ids, matrix = await vectors.read(
                                session, self.embedder, kind, after=after, limit=LOAD_BATCH
                            )
                        if not ids:
                            break
                        keys = np.asarray(ids, dtype=np.uint64)
                        await asyncio.to_thread(built.add, keys, matrix)
                        after = ids[-1]
                    self.index(kind).replace(built)
                self.watermark, self.ready = started, True
                self._unsaved = len(self.claims) + len(self.papers) or 1
            await self._catch_up(sessions)
            await self._save(force=True)
        log.debug(
            "search by meaning ready: %s, %d claims and %d papers",
            self.description,
            len(self.claims),
            len(self.papers),
        )

    async def refresh(self, sessions: Sessions) -> None:
        """Add what was embedded since the indexes were last brought up to date (by this
        process or another on the same store), replacing older vectors of the same items;
        saved once enough has changed."""
        async with self._refreshing:
            if self.ready:
                await self._catch_up(sessions)
                await self._save(force=False)

    async def _catch_up(self, sessions: Sessions) -> None:
        """Read the vectors embedded since the watermark (less a margin: a batch is stamped
        when it is read, and committed a few seconds later) into the indexes."""
        if self.watermark is None:
            return
        started = datetime.now(UTC)
        since = self.watermark - CATCH_UP_MARGIN
        for kind in (VECTOR_OF_CLAIM, VECTOR_OF_PAPER):
            after = 0
            while True:
                async with sessions() as session:
                    ids, matrix = await vectors.read_since(
                        session, self.embedder, kind, since, after=after, limit=READ_BY_ID
                    )
                if not ids:
                    break
                self._unsaved += await asyncio.to_thread(self.index(kind).add, ids, matrix)
                after = ids[-1]
        self.watermark = started

    async def _save(self, *, force: bool) -> None:
        """Write the indexes to their files when anything changed (`force`) or when enough
        did: a save of 1.3 M vectors writes about 0.8 GB."""
        if self.files is None or self.watermark is None or not self._unsaved:
            return
        if not force and self._unsaved < SAVE_AFTER:
            return
        indexes = {VECTOR_OF_CLAIM: self.claims.current, VECTOR_OF_PAPER: self.papers.current}
        try:
            await asyncio.to_thread(self.files.save, indexes, self.watermark)
        except OSError as error:  # a cache: the next start rebuilds or catches up
            log.warning("saving the index for search by meaning failed: %s", error)
            return
        self._unsaved = 0
