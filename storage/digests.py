"""The daily summary's ledger: which papers are new for a channel, and which period and
papers each post covered. A (channel, period) row is claimed before anything is sent, so
one firing posts at most once per channel; (channel, paper) is unique, so no paper is
posted to a channel twice."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from storage.models import DigestPost, DigestPostPaper, Paper, utcnow
from storage.search import PaperDetails, papers_details

# A channel's first summary covers what arrived in this window, not the whole store.
FIRST_POST_WINDOW = timedelta(days=7)
# A claimed post older than this is taken to have died with its process.
IN_FLIGHT = timedelta(minutes=10)


@dataclass(frozen=True)
class Pending:
    papers: list[PaperDetails]
    since: datetime


async def pending(session: AsyncSession, channel: str, *, now: datetime) -> Pending:
    """Papers first ingested after the channel's last successful post (or, for its first
    post, in the last week) that were never posted to it, oldest first."""
    since = await last_post_claimed_at(session, channel) or now - FIRST_POST_WINDOW
    papers = await papers_details(session, list((await unsent(session, channel, since)).values()))
    return Pending(papers, since)


async def unsent(session: AsyncSession, ledger: str, since: datetime) -> dict[int, str]:
    """Papers (id → key) first ingested after `since` and never recorded under `ledger`,
    oldest first."""
    sent = select(DigestPostPaper.paper_id).where(DigestPostPaper.channel == ledger)
    rows = await session.execute(
        select(Paper.id, Paper.key)
        .where(Paper.first_ingested_at > since, Paper.id.not_in(sent))
        .order_by(Paper.first_ingested_at, Paper.id)
    )
    return dict(rows.all())


async def last_post_claimed_at(session: AsyncSession, ledger: str) -> datetime | None:
    """When the last successful post under `ledger` was claimed. What it listed was read in
    that same transaction, and writers take turns, so every paper ingested before this
    time was considered then; later papers are new (`posted_at`, set after the Slack
    calls, would skip papers ingested while they ran)."""
    last = await session.execute(
        select(func.max(DigestPost.created_at)).where(
            DigestPost.channel == ledger, DigestPost.status == "posted"
        )
    )
    return last.scalar_one()


async def busy(session: AsyncSession, ledger: str, period: str) -> bool:
    """Whether `period` is claimed under `ledger` already, or another post under it is
    under way (claimed, neither posted nor failed, and recent enough that its process is
    taken to be alive): either way, nothing is to be posted now."""
    found = await session.execute(
        select(DigestPost.id).where(
            DigestPost.channel == ledger,
            (DigestPost.period == period)
            | ((DigestPost.status == "claimed") & (DigestPost.created_at > utcnow() - IN_FLIGHT)),
        )
    )
    return found.first() is not None


async def claimed_ledgers(session: AsyncSession, period: str) -> set[str]:
    """Every ledger that has claimed `period` already (one query for a whole job run)."""
    rows = await session.execute(select(DigestPost.channel).where(DigestPost.period == period))
    return set(rows.scalars())


async def claim(session: AsyncSession, channel: str, period: str) -> int | None:
    """Claim (channel, period) for posting; None when that period is already claimed."""
    try:
        async with session.begin_nested():
            row = DigestPost(channel=channel, period=period, status="claimed", attempts=1)
            session.add(row)
    except IntegrityError:
        return None
    return row.id


async def posted(
    session: AsyncSession, post_id: int, channel: str, ts: str, paper_ids: list[int]
) -> None:
    await session.execute(
        update(DigestPost)
        .where(DigestPost.id == post_id)
        .values(status="posted", slack_ts=ts, posted_at=utcnow(), error=None)
    )
    if paper_ids:
        await session.execute(
            insert(DigestPostPaper),
            [{"post_id": post_id, "paper_id": p, "channel": channel} for p in paper_ids],
        )


async def failed(session: AsyncSession, post_id: int, error: str) -> None:
    await session.execute(
        update(DigestPost).where(DigestPost.id == post_id).values(status="failed", error=error)
    )


@dataclass(frozen=True)
class LatestPost:
    channel: str
    posted_at: datetime
    papers: list[PaperDetails]


async def latest_post(session: AsyncSession, channel: str) -> LatestPost | None:
    """The channel's last posted summary and the papers it listed."""
    post = (
        await session.execute(
            select(DigestPost)
            .where(DigestPost.channel == channel, DigestPost.status == "posted")
            .order_by(DigestPost.posted_at.desc())
            .limit(1)
        )
    ).scalar_one_or_none()
    if post is None or post.posted_at is None:
        return None
    keys = await session.execute(
        select(Paper.key)
        .join(DigestPostPaper, DigestPostPaper.paper_id == Paper.id)
        .where(DigestPostPaper.post_id == post.id)
        .order_by(Paper.first_ingested_at, Paper.id)
    )
    papers = await papers_details(session, list(keys.scalars()))
    return LatestPost(channel, post.posted_at, papers)
