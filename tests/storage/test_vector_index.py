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


def test_items_added_again_unchanged_are_left_alone() -> None:
    index = VectorIndex(DIM)
    ids = list(range(500))
    vectors = unit_vectors(len(ids), seed=1)
    assert index.add(ids, vectors) == len(ids)
    # As the table gives them back: float16, and not necessarily of unit length.
    assert index.add(ids, 3 * vectors.astype(np.float16).astype(np.float32)) == 0
    newer = vectors.copy()
    newer[:10] = unit_vectors(10, seed=2)
    assert index.add(ids, newer) == 10  # only the re-embedded ones
    assert index.add([*ids, 1000], np.vstack([newer, unit_vectors(1, seed=3)])) == 1
    assert len(index) == len(ids) + 1
    for item in (0, 9, 10, 499):
        (found, similarity), *_ = index.search(newer[item], 1)
        assert found == item and similarity > 0.99


def test_a_small_index_answers_the_same_however_it_was_built() -> None:
    """A moved or rebuilt store holds the same vectors added in another order: a small one
    is searched exactly, so its answers (and every hybrid ranking on them) stay the same."""
    ids = list(range(2_000))
    vectors = unit_vectors(len(ids), seed=3)
    at_once, in_pieces = VectorIndex(DIM), VectorIndex(DIM)
    at_once.add(ids, vectors)
    for start in reversed(range(0, len(ids), 100)):
        in_pieces.add(ids[start : start + 100], vectors[start : start + 100])
    for query in unit_vectors(20, seed=4):
        nearest = at_once.search(query, 100)
        assert nearest == in_pieces.search(query, 100)
        true = np.argsort(-(vectors @ query), kind="stable")[:100]
        assert len({item for item, _ in nearest} & set(true.tolist())) >= 95  # int8 copies
