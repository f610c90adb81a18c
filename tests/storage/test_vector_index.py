"""The in-memory index of vectors: what it holds after items are embedded again."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from storage.vector_index import VectorIndex

DIM = 32


def unit_vectors(count: int, seed: int) -> NDArray[np.float32]:
    vectors = np.random.default_rng(seed).normal(size=(count, DIM)).astype(np.float32)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return np.asarray(vectors / norms, dtype=np.float32)


def test_re_added_items_keep_only_their_new_vector() -> None:
    index = VectorIndex(DIM)
    ids = list(range(500))
    index.add(ids, unit_vectors(len(ids), seed=1))
    newer = unit_vectors(len(ids), seed=2)
    index.add(ids, newer)  # every item re-embedded
    assert len(index) == len(ids)
    for item in (0, 250, len(ids) - 1):
        (found, similarity), *_ = index.search(newer[item], 1)
        assert found == item and similarity > 0.99
