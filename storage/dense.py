"""Search by meaning: the query model and in-memory indexes of the stored vectors.

One `DenseSearch` per process. `load` builds both indexes (claims, papers) from the
`item_vectors` table, reading it in batches and adding them in a worker thread; until it
is done `ready` is False and search is lexical only. `refresh` adds (or replaces) what an
embedding run stored, reading only those rows: a scan of every id at 1.3 million claims
would hold the event loop for seconds. Items deleted since the start stay in the index
until the next one, harmlessly: every hit by meaning is checked against the claims and
papers tables before it is shown. `warm` runs one query through the model, so that the
first user's query does not pay for the model's start.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Collection
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from storage import vectors
from storage.embedders import Embedder, describe
from storage.models import VECTOR_OF_CLAIM, VECTOR_OF_PAPER
from storage.vector_index import VectorIndex, new_index

log = logging.getLogger(__name__)

LOAD_BATCH = 20_000  # vectors read from the table at once while building (about 15 MB)
READ_BY_ID = 2_000  # ids bound in one query, well under both stores' limits
_CONTROLS = re.compile(r"[\x00-\x1f\x7f]+")


def query_text(words: str) -> str:
    """What the model is given for a search: the words as typed, control characters
    (NUL included) as spaces; already at most 300 characters (storage/search_text.py)."""
    return " ".join(_CONTROLS.sub(" ", words).split())


@dataclass
class DenseSearch:
    embedder: Embedder
    claims: VectorIndex = field(init=False)
    papers: VectorIndex = field(init=False)
    ready: bool = False

    def __post_init__(self) -> None:
        self.claims = VectorIndex(self.embedder.dim)
        self.papers = VectorIndex(self.embedder.dim)
        self._refreshing = asyncio.Lock()

    @property
    def description(self) -> str:
        return describe(self.embedder)

    def index(self, kind: str) -> VectorIndex:
        return self.claims if kind == VECTOR_OF_CLAIM else self.papers

    async def warm(self) -> None:
        await asyncio.to_thread(self.embedder.embed_queries, ["warm up"])

    async def embed_query(self, words: str) -> NDArray[np.float32]:
        """The query's vector, computed in a worker thread (CPU work over user text)."""
        matrix = await asyncio.to_thread(self.embedder.embed_queries, [query_text(words)])
        vector: NDArray[np.float32] = matrix[0]
        return vector

    async def load(self, sessions: async_sessionmaker[AsyncSession]) -> None:
        """Build both indexes from the table; searches stay lexical until it is done."""
        async with self._refreshing:
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
            self.ready = True
        log.debug(
            "search by meaning ready: %s, %d claims and %d papers",
            self.description, len(self.claims), len(self.papers),
        )  # fmt: skip

    async def refresh(
        self, sessions: async_sessionmaker[AsyncSession], changed: Collection[tuple[str, int]]
    ) -> None:
        """Read these (kind, id) items' vectors into the indexes, replacing older ones."""
        async with self._refreshing:
            for kind in (VECTOR_OF_CLAIM, VECTOR_OF_PAPER):
                index = self.index(kind)
                new = sorted(item for k, item in changed if k == kind)
                for start in range(0, len(new), READ_BY_ID):
                    async with sessions() as session:
                        ids, matrix = await vectors.read(
                            session, self.embedder, kind, ids=new[start : start + READ_BY_ID]
                        )
                    await asyncio.to_thread(index.add, ids, matrix)
