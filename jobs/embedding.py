"""The embedding job: vectors for the claims and papers that lack a current one.

Batched and resumable: each batch is read, embedded in a worker thread (the model is CPU
work and must never run on the event loop) and committed on its own, so a run that is
stopped keeps what it stored and the next run continues with what is left. `paperbot
ingest` runs it before it exits; `serve` runs it in the background after each ingest.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from storage import db, vectors
from storage.db import Sessions
from storage.embedders import Embedder

log = logging.getLogger(__name__)

# Small batches: a batch holds the model (and so one core's worth of a query's wait)
# for about a second at most, and a stopped run loses at most that much work.
BATCH = 16

Progress = Callable[[int, int], None]  # (done, total)
Pause = Callable[[], Awaitable[None]]


@dataclass
class EmbedReport:
    embedded: int = 0
    batches: int = 0
    waiting: int | None = None  # items still without a vector when the run ended, if counted
    stored: set[tuple[str, int]] = field(default_factory=set)  # (kind, id) given a vector


async def embed_pending(
    sessions: Sessions,
    embedder: Embedder,
    *,
    batch: int = BATCH,
    progress: Progress | None = None,
    max_batches: int | None = None,
    pause: Pause | None = None,
) -> EmbedReport:
    """Embed everything that waits (at most `max_batches` batches), claims first. With
    `pause`, awaited before each step (a window of ids looked through, a batch embedded),
    the run gives way to other work, and counts nothing: a count reads every item at once."""
    report = EmbedReport()
    total = 0
    if progress:
        async with sessions() as session:
            total = await vectors.waiting(session, embedder)
        progress(0, total)
    for kind in vectors.KINDS:
        after: int | None = 0
        while after is not None and (max_batches is None or report.batches < max_batches):
            if pause is not None:
                await pause()
            read_at = datetime.now(UTC)
            async with sessions() as session:
                items, window_end = await vectors.pending(session, embedder, kind, after, batch)
            if not items:
                after = window_end  # nothing waits in this window: the next one, if any
                continue
            texts = [item.text for item in items]
            matrix = await asyncio.to_thread(embedder.embed_passages, texts)
            async with db.writing(sessions) as session:
                report.embedded += await vectors.save(session, embedder, items, matrix, read_at)
            report.stored.update((item.kind, item.item_id) for item in items)
            report.batches += 1
            after = items[-1].item_id
            if progress:
                progress(min(report.embedded, total), total)
    if pause is None:
        async with sessions() as session:
            report.waiting = await vectors.waiting(session, embedder)
    return report
