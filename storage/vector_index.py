"""An in-memory approximate nearest-neighbour index over stored vectors (usearch HNSW).

Vectors are held quantised to int8 (one byte a dimension): 1.3 million claims of 384
dimensions take about 0.5 GB, plus the graph (see tests/benchmarks/RESULTS.md for the
measured figures), where float32 would need 2 GB. Cosine similarity is what usearch
computes on them; a search looks at a few hundred graph nodes, not at every vector.

One lock serialises changes and searches: a search takes about a millisecond, and the
large change (the build at start) happens on a fresh index that is swapped in whole.
Callers run these methods in a worker thread, never on the event loop.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray
from usearch.index import Index

CONNECTIVITY = 16  # graph edges a node keeps: memory against recall
EXPANSION_ADD = 40  # candidates looked at when a vector is added: build time against recall
EXPANSION_SEARCH = 128  # candidates looked at by a search: query time against recall


def new_index(dim: int) -> Index:
    return Index(
        ndim=dim,
        metric="cos",
        dtype="i8",
        connectivity=CONNECTIVITY,
        expansion_add=EXPANSION_ADD,
        expansion_search=EXPANSION_SEARCH,
    )


class VectorIndex:
    """Item ids -> vectors, searchable by cosine similarity."""

    def __init__(self, dim: int) -> None:
        self.dim = dim
        self._index = new_index(dim)
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._index)

    @property
    def memory_bytes(self) -> int:
        return int(self._index.memory_usage)

    @property
    def current(self) -> Index:
        """The index itself, to be saved (only while nothing adds to it)."""
        return self._index

    def replace(self, index: Index) -> None:
        """Swap in an index built elsewhere (a build does not hold up searches)."""
        with self._lock:
            self._index = index

    def add(self, ids: Sequence[int], vectors: NDArray[np.float32]) -> None:
        if not len(ids):
            return
        keys = np.asarray(ids, dtype=np.uint64)
        with self._lock:
            present = np.asarray(self._index.contains(keys), dtype=bool)
            if present.any():  # a re-embedded item: its old vector goes first
                self._index.remove(keys[present])
            self._index.add(keys, vectors)

    def search(self, vector: NDArray[np.float32], count: int) -> list[tuple[int, float]]:
        """The `count` nearest items as (id, cosine similarity), most similar first."""
        with self._lock:
            if not len(self._index):
                return []
            found = self._index.search(vector, min(count, len(self._index)))
        return [
            (int(key), 1.0 - float(distance))
            for key, distance in zip(found.keys, found.distances, strict=True)
        ]
