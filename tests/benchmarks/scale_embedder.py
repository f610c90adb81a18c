"""An embedder for latency and memory benchmarks at scale (`PAPERBOT_EMBEDDER=
tests.benchmarks.scale_embedder:make`): queries through the real model, as `serve` runs
it, and passages as deterministic pseudo-random unit vectors of the model's shape.

Embedding 1.3 million claims with the real model would take days on 2 cores (about 7 a
second); the index's size, build and search cost depend on the vectors' count, dimension
and type, not on what they mean. The floor is below any cosine, so every search by meaning
returns its full 100 nearest items, each checked against the store: the dense leg's worst
case. Relevance is measured elsewhere (bench_relevance), with the real model throughout.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import numpy as np

from storage.embedders import E5Embedder, Vectors


class ScaleEmbedder:
    name = "bench-e5-queries-random-passages"
    version = "1"
    floor = -1.0

    def __init__(self) -> None:
        self._model = E5Embedder(threads=1)
        self.dim = self._model.dim

    def embed_queries(self, texts: Sequence[str]) -> Vectors:
        return self._model.embed_queries(texts)

    def embed_passages(self, texts: Sequence[str]) -> Vectors:
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        for i, text in enumerate(texts):
            seed = int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little")
            row = np.random.default_rng(seed).standard_normal(self.dim).astype(np.float32)
            out[i] = row / np.linalg.norm(row)
        return out


def make() -> ScaleEmbedder:
    return ScaleEmbedder()
