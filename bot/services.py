"""What the listeners need, built once per process and passed down (nothing global)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from dataclasses import dataclass, field
from typing import Any

from bot import memory
from bot.fairness import SearchGate
from bot.meaning import Meaning
from bot.settings import Settings
from jobs.ingest import IngestGuard, IngestReport, ingest, spawned_parser
from storage.db import Sessions
from storage.dense import DenseSearch
from storage.suggestions import Suggester

log = logging.getLogger(__name__)


@dataclass
class Services:
    settings: Settings
    sessions: Sessions
    ingest_guard: IngestGuard = field(default_factory=IngestGuard)
    searches: SearchGate = field(default_factory=SearchGate)
    # "Did you mean" words; each vocabulary loaded is kept out of full collections.
    suggester: Suggester = field(default_factory=lambda: Suggester(on_loaded=memory.settle))
    meaning: Meaning = field(default_factory=Meaning)  # search by meaning, when a model runs
    # `ask` and `shell`: Slack is a local stand-in, so nothing may be recorded as posted.
    offline: bool = False
    _tasks: set[asyncio.Task[Any]] = field(default_factory=set)
    _embedding: set[asyncio.Task[Any]] = field(default_factory=set)

    @property
    def work_deadline(self) -> float:
        """How long a command's work may take before the user is told it failed."""
        return self.settings.command_timeout

    @property
    def dense(self) -> DenseSearch | None:
        return self.meaning.search

    async def ingest_digest_folder(
        self, trigger: str, triggered_by: str | None = None, *, force: bool = False
    ) -> IngestReport:
        """Ingest the digest folder, its files parsed in processes of their own, then embed
        what it added in the background. The caller holds `ingest_guard`."""
        settings = self.settings
        with spawned_parser() as parser:
            report = await ingest(
                self.sessions,
                [settings.digest_dir],
                force=force,
                trigger=trigger,
                triggered_by=triggered_by,
                max_file_mb=settings.max_file_mb,
                settle_seconds=settings.settle_seconds,
                parse_pool=parser,
            )
        self.embed_in_background()
        return report

    def embed_in_background(self) -> None:
        """Vectors for what an ingest added (or what waits at start), without holding up
        anything else: each step of it waits until no search runs."""
        if self.meaning.search is not None:
            self.embedding_work(self.meaning.embed(self.sessions, self.searches.quiet), "embedding")

    def embedding_work(self, work: Coroutine[Any, Any, Any], name: str) -> None:
        """Background work for search by meaning: tracked, and stopped at once at
        shutdown (it is resumable: the next start continues where it stopped)."""
        task = self.spawn(work, name)
        self._embedding.add(task)
        task.add_done_callback(self._embedding.discard)

    def stop_embedding(self) -> None:
        for task in list(self._embedding):
            task.cancel()

    def is_admin(self, user_id: str) -> bool:
        return user_id in self.settings.admins

    def spawn(self, work: Coroutine[Any, Any, Any], name: str) -> asyncio.Task[Any]:
        """Run work in the background, tracked so that shutdown can wait for it."""
        task = asyncio.create_task(work, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def drain(self, grace: float) -> None:
        """Let background work finish; cancel what is still running after `grace` seconds."""
        pending = set(self._tasks)
        if not pending:
            return
        _, still = await asyncio.wait(pending, timeout=grace)
        for task in still:
            log.warning("cancelling %s at shutdown", task.get_name())
            task.cancel()
        if still:
            await asyncio.wait(still, timeout=5)
