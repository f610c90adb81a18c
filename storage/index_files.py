"""The indexes of search by meaning, saved to disk so that a restart does not rebuild them.

Building the HNSW index of 1.3 million claims took most of an hour on 2 busy cores
(tests/benchmarks/RESULTS.md); loading it from a file takes seconds. The files are a cache
of the `item_vectors` table, never the truth: they are named after the store, the model
and its version, and a missing, unreadable or foreign file only means a rebuild.

A save writes a new generation (`<key>-<n>-<pid>.claims.usearch`, `...papers.usearch`),
then replaces `<key>.json`, which names the generation and the time up to which it holds
the table's vectors (its watermark), in one rename; older generations are removed after.
So a process reading while another saves sees one whole generation or the one before; two
processes saving at once never write the same file (at worst one removes the other's
files, and the next start rebuilds).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from usearch.index import Index

log = logging.getLogger(__name__)

KINDS = ("claim", "paper")


@dataclass(frozen=True)
class Saved:
    indexes: dict[str, Index]  # kind -> index
    watermark: datetime  # every vector embedded before this is in them


@dataclass(frozen=True)
class IndexFiles:
    directory: Path
    key: str  # names the store, the model and its version

    @classmethod
    def of(cls, directory: Path, store: str, model: str, version: str, dim: int) -> IndexFiles:
        digest = hashlib.sha256(f"{store}\n{model}\n{version}\n{dim}".encode()).hexdigest()
        return cls(directory, digest[:20])

    @property
    def manifest(self) -> Path:
        return self.directory / f"{self.key}.json"

    def _path(self, stem: str, kind: str) -> Path:
        return self.directory / f"{stem}.{kind}s.usearch"

    def load(self, dim: int) -> Saved | None:
        """The last saved indexes, or None when there are none usable. Blocking IO: run
        it in a worker thread."""
        try:
            manifest = json.loads(self.manifest.read_text(encoding="utf-8"))
            stem = str(manifest["stem"])
            watermark = datetime.fromisoformat(manifest["watermark"])
            indexes = {}
            for kind in KINDS:
                index = Index.restore(str(self._path(stem, kind)))
                if index is None or index.ndim != dim:
                    return None
                indexes[kind] = index
        except FileNotFoundError:
            return None
        except (OSError, ValueError, KeyError, TypeError, RuntimeError) as error:
            log.warning("saved index %s unusable (%s): rebuilding", self.manifest, error)
            return None
        return Saved(indexes, watermark)

    def save(self, indexes: dict[str, Index], watermark: datetime) -> None:
        """Write a new generation and point the manifest at it. Blocking IO: run it in a
        worker thread, while nothing adds to the indexes."""
        self.directory.mkdir(parents=True, exist_ok=True)
        generation = self._generation() + 1
        stem = f"{self.key}-{generation}-{os.getpid()}"  # two processes never share a file
        for kind in KINDS:
            indexes[kind].save(str(self._path(stem, kind)))
        manifest = {"generation": generation, "stem": stem, "watermark": watermark.isoformat()}
        temporary = self.manifest.with_suffix(f".{os.getpid()}.tmp")
        temporary.write_text(json.dumps(manifest), encoding="utf-8")
        os.replace(temporary, self.manifest)
        for old in self.directory.glob(f"{self.key}-*.usearch"):
            if not old.name.startswith(f"{stem}."):
                with contextlib.suppress(OSError):
                    old.unlink()

    def _generation(self) -> int:
        try:
            return int(json.loads(self.manifest.read_text(encoding="utf-8"))["generation"])
        except (OSError, ValueError, KeyError, TypeError):
            return 0
