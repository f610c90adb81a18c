"""An in-memory approximate nearest-neighbour index over stored vectors (usearch HNSW).

Vectors are held quantised to int8 (one byte a dimension): 1.3 million claims of 384
dimensions take about 0.5 GB, plus the graph (see tests/benchmarks/RESULTS.md for the
measured figures), where float32 would need 2 GB. Cosine similarity is what usearch
computes on them; a search looks at a few hundred graph nodes, not at every vector (but
in a small index, which is searched exactly).

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
# An index of at most this many items is searched exactly, every vector compared (0.5 ms
# at 10,000): a small store's answers never depend on how its graph happened to be built.
EXACT_UP_TO = 10_000
QUANT_STEPS = 127  # int8 steps from 0 to 1 in a stored unit vector
SAME_WITHIN = 1.5  # steps: the int8 copy is truncated, the table's copy is float16


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

    def add(self, ids: Sequence[int], vectors: NDArray[np.float32]) -> int:
        """Add or replace these items' vectors; returns how many it stored. An item that
        already holds its vector is left alone: catching up reads the last minute's
        vectors again, and replacing one in the graph costs about 0.1 ms, under the lock
        searches wait for."""
        if not len(ids):
            return 0
        keys = np.asarray(ids, dtype=np.uint64)
        with self._lock:
            present = np.asarray(self._index.contains(keys), dtype=bool)
            changed = present.copy()
            if present.any():
                changed[present] = ~self._holds(keys[present], vectors[present])
                if changed.any():  # a re-embedded item: its old vector goes first
                    self._index.remove(keys[changed])
            added = changed | ~present
            if added.any():
                self._index.add(keys[added], vectors[added])
            return int(added.sum())

    def _holds(self, keys: NDArray[np.uint64], vectors: NDArray[np.float32]) -> NDArray[np.bool_]:
        """Which of these (present) items the index already holds: within one int8 step in
        every dimension, give or take the table's float16. Storing them again could not
        change a search."""
        held = self._index.get(keys, dtype="f32")  # one row a key, as all are present
        stored = np.vstack(held) * QUANT_STEPS  # type: ignore[arg-type]
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        unit = vectors / np.where(norms > 0, norms, 1) * QUANT_STEPS
        return np.asarray(np.abs(unit - stored).max(axis=1) <= SAME_WITHIN)

    def search(self, vector: NDArray[np.float32], count: int) -> list[tuple[int, float]]:
        """The `count` nearest items as (id, cosine similarity), most similar first."""
        with self._lock:
            size = len(self._index)
            if not size:
                return []
            found = self._index.search(vector, min(count, size), exact=size <= EXACT_UP_TO)
        return [
            (int(key), 1.0 - float(distance))
            for key, distance in zip(found.keys, found.distances, strict=True)
        ]
