"""Counts for `paperbot status`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from storage import ledger, vectors
from storage.embedders import Embedder
from storage.loading import kept_warnings
from storage.models import CLAIM_FROM_REVIEW, Claim, Document, IngestRun, LedgerPost, Paper

MAX_WARNED_FILES = 100  # status lists the warnings of this many files at most


@dataclass(frozen=True)
class StoreStatus:
    documents: int
    papers: int
    claims: int
    database: str
    last_ingest: dict[str, Any] | None
    last_digest: dict[str, Any] | None  # the newest summary post: posted, failed or in flight
    # Files loaded all but a part: {"path", "warning"} for each part left out.
    warnings: list[dict[str, str]] = field(default_factory=list)
    # Files whose newest version was refused because it would remove papers or claims:
    # {"path", "would_lose"}; the store keeps what the version before held.
    suspect: list[dict[str, str]] = field(default_factory=list)
    embedder: str = "none"  # the model search by meaning uses, or why there is none
    vectors_waiting: int | None = None  # claims and papers without a vector of that model


def ingest_run_summary(run: IngestRun) -> dict[str, Any]:
    return {
        "id": run.id,
        "trigger": run.trigger,
        "triggered_by": run.triggered_by,
        "forced": run.forced,
        "status": run.status,
        "started_at": run.started_at.isoformat(),
        "finished_at": run.finished_at.isoformat() if run.finished_at else None,
        "documents": {
            "new": run.documents_new,
            "changed": run.documents_changed,
            "unchanged": run.documents_unchanged,
            "failed": run.documents_failed,
        },
        "papers": {"new": run.papers_new, "updated": run.papers_updated},
        "errors": run.errors,
    }


async def store_status(
    session: AsyncSession, embedder: Embedder | None = None, embedder_description: str = "none"
) -> StoreStatus:
    async def count(model: type[Any], *where: Any) -> int:
        query = select(func.count()).select_from(model).where(*where)
        return (await session.execute(query)).scalar_one()

    last = (
        await session.execute(select(IngestRun).order_by(IngestRun.id.desc()).limit(1))
    ).scalar_one_or_none()
    post = (
        await session.execute(
            select(LedgerPost)
            .where(ledger.is_summary(LedgerPost.owner))
            .order_by(LedgerPost.id.desc())
            .limit(1)
        )
    ).scalar_one_or_none()
    bind = session.get_bind()
    warned = await session.execute(
        select(Document.path, Document.error)
        .where(Document.status == "ok", Document.error.is_not(None))
        .order_by(Document.path)
        .limit(MAX_WARNED_FILES)
    )
    warnings = [
        {"path": path, "warning": line}
        for path, error in warned
        for line in kept_warnings((error or "").splitlines())  # rows stored before the cap
    ]
    refused = await session.execute(
        select(Document.path, Document.error)
        .where(Document.status == "suspect")
        .order_by(Document.path)
        .limit(MAX_WARNED_FILES)
    )
    suspect = [  # worded as `ingest --json` words it (older rows begin "would remove")
        {"path": path, "would_lose": (error or "").removeprefix("would remove ")}
        for path, error in refused
    ]
    return StoreStatus(
        documents=await count(Document),
        papers=await count(Paper),
        claims=await count(Claim, Claim.source == CLAIM_FROM_REVIEW),  # numbered claims only
        database=bind.dialect.name,
        last_ingest=ingest_run_summary(last) if last else None,
        last_digest=None
        if post is None
        else {
            "channel": post.owner,
            "period": post.period,
            "status": post.status,
            "slack_ts": post.slack_ts,
            "error": post.error,
            "attempts": post.attempts,
            "posted_at": post.posted_at.isoformat() if post.posted_at else None,
        },
        warnings=warnings,
        suspect=suspect,
        embedder=embedder_description,
        vectors_waiting=None if embedder is None else await vectors.waiting(session, embedder),
    )
