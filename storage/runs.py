"""The ingest-runs table: every ingest is recorded with who started it and what it did."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncSession

from storage.models import IngestRun, utcnow


async def start_run(
    session: AsyncSession, *, trigger: str, triggered_by: str | None, forced: bool
) -> IngestRun:
    run = IngestRun(trigger=trigger, triggered_by=triggered_by, forced=forced, status="running")
    session.add(run)
    await session.flush()
    return run


async def finish_run(
    session: AsyncSession,
    run_id: int,
    *,
    documents: Mapping[str, int],
    papers: Mapping[str, int],
    errors: Sequence[Mapping[str, str]],
    interrupted: bool = False,
) -> None:
    if interrupted:
        status = "interrupted"
    elif not errors:
        status = "ok"
    else:
        loaded = documents["new"] + documents["changed"] + documents["unchanged"]
        status = "partial" if loaded else "failed"
    await session.execute(
        update(IngestRun)
        .where(IngestRun.id == run_id)
        .values(
            status=status,
            finished_at=utcnow(),
            documents_new=documents["new"],
            documents_changed=documents["changed"],
            documents_unchanged=documents["unchanged"],
            documents_failed=documents["failed"],
            papers_new=papers["new"],
            papers_updated=papers["updated"],
            errors=[dict(error) for error in errors],
        )
    )
