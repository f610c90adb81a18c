"""The daily summary's ledger: which papers are new for a channel, and which period and
papers each post covered. A (channel, period) row is claimed before anything is sent, so
one firing posts at most once per channel; (channel, paper) is unique, so no paper is
posted to a channel twice. A post counts as sent once Slack accepted its first message;
its thread replies are tracked one by one, so missing ones are sent later, in the same
thread, and never the whole post again."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from sqlalchemy import func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from storage.models import DigestPost, DigestPostPaper, Paper, utcnow
from storage.search import PaperDetails, papers_details

# A channel's first summary covers what arrived in this window, not the whole store.
FIRST_POST_WINDOW = timedelta(days=7)
# A post being sent for longer than this is taken to have died with its process.
IN_FLIGHT = timedelta(minutes=10)

Payload = dict[str, Any]


@dataclass(frozen=True)
class Pending:
    paper_ids: list[int]  # every paper new for the channel, oldest first
    papers: list[PaperDetails]  # the newest of them, loaded to be listed, oldest first
    earliest: date | None  # the earliest digest date among all of them
    since: datetime


async def pending(session: AsyncSession, channel: str, *, now: datetime, listed: int) -> Pending:
    """Papers first ingested after the channel's last successful post (or, for its first
    post, in the last week) that were never posted to it, oldest first; the cards of the
    newest `listed` of them."""
    since = await last_post_claimed_at(session, channel) or now - FIRST_POST_WINDOW
    sent = select(DigestPostPaper.paper_id).where(DigestPostPaper.channel == channel)
    rows = (
        await session.execute(
            select(Paper.id, Paper.key, Paper.digest_date)
            .where(Paper.first_ingested_at > since, Paper.id.not_in(sent))
            .order_by(Paper.first_ingested_at, Paper.id)
        )
    ).all()
    papers = await papers_details(session, [key for _, key, _ in rows[-listed:]] if listed else [])
    earliest = min((day for _, _, day in rows if day is not None), default=None)
    return Pending([paper_id for paper_id, _, _ in rows], papers, earliest, since)


async def unrecorded(session: AsyncSession, ledger: str, paper_ids: list[int]) -> list[int]:
    """Those of `paper_ids` never recorded under `ledger`, in the order given. The ledger is
    read over the ids' range, so no query binds a parameter per paper."""
    if not paper_ids:
        return []
    rows = await session.execute(
        select(DigestPostPaper.paper_id).where(
            DigestPostPaper.channel == ledger,
            DigestPostPaper.paper_id.between(min(paper_ids), max(paper_ids)),
        )
    )
    recorded = set(rows.scalars())
    return [paper_id for paper_id in paper_ids if paper_id not in recorded]


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


def _being_sent() -> Any:
    return DigestPost.sending_since > utcnow() - IN_FLIGHT


async def busy(session: AsyncSession, ledger: str, period: str) -> bool:
    """Whether `period` is claimed under `ledger` already, or a post under it is being
    sent (its first message or its thread replies, recently enough that its process is
    taken to be alive): either way, nothing is to be posted now."""
    found = await session.execute(
        select(DigestPost.id).where(
            DigestPost.channel == ledger, (DigestPost.period == period) | _being_sent()
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
            row = DigestPost(channel=channel, period=period, status="claimed", attempts=1,
                             sending_since=utcnow())  # fmt: skip
            session.add(row)
    except IntegrityError:
        return None
    return row.id


async def posted(
    session: AsyncSession, post_id: int, ledger: str, *, ts: str, slack_channel: str,
    paper_ids: list[int], replies: list[Payload],
) -> None:  # fmt: skip
    """Slack accepted the post's first message: the post and every paper it covers are
    recorded, its thread replies are still to be sent."""
    await session.execute(
        update(DigestPost)
        .where(DigestPost.id == post_id)
        .values(status="posted", slack_ts=ts, slack_channel=slack_channel, posted_at=utcnow(),
                pending_replies=replies or None, error=None)
    )  # fmt: skip
    if paper_ids:
        await session.execute(
            insert(DigestPostPaper),
            [{"post_id": post_id, "paper_id": p, "channel": ledger} for p in paper_ids],
        )


async def reply_sent(session: AsyncSession, post_id: int, left: list[Payload]) -> None:
    """One more thread reply was accepted; `left` are still to be sent."""
    await session.execute(
        update(DigestPost).where(DigestPost.id == post_id).values(pending_replies=left or None)
    )


async def stop_sending(session: AsyncSession, post_id: int, error: str | None = None) -> None:
    """This process sends no more of the post now (done, failed or stopping): another run
    may take up what is left at once."""
    await session.execute(
        update(DigestPost).where(DigestPost.id == post_id).values(sending_since=None, error=error)
    )


async def failed(session: AsyncSession, post_id: int, error: str) -> None:
    await session.execute(
        update(DigestPost)
        .where(DigestPost.id == post_id)
        .values(status="failed", error=error, sending_since=None)
    )


@dataclass(frozen=True)
class Unfinished:
    """A post whose first message went out while some thread replies did not."""

    id: int
    slack_channel: str
    ts: str
    replies: list[Payload]


def _unfinished(ledger: str) -> Any:
    return select(DigestPost).where(
        DigestPost.channel == ledger,
        DigestPost.status == "posted",
        DigestPost.pending_replies.is_not(None),
        DigestPost.sending_since.is_(None) | ~_being_sent(),
    )


async def has_unfinished(session: AsyncSession, ledger: str) -> bool:
    """A cheap look, without taking the writers' turn, before `take_unfinished`."""
    return (await session.execute(_unfinished(ledger).limit(1))).first() is not None


async def take_unfinished(session: AsyncSession, ledger: str) -> list[Unfinished]:
    """The posts under `ledger` with thread replies to send that no live process is
    sending, marked as being sent by the caller (oldest first)."""
    rows = (await session.execute(_unfinished(ledger).order_by(DigestPost.id))).scalars().all()
    taken = []
    for post in rows:
        post.sending_since = utcnow()
        post.attempts += 1
        if post.slack_channel and post.slack_ts and post.pending_replies:
            taken.append(Unfinished(post.id, post.slack_channel, post.slack_ts,
                                    list(post.pending_replies)))  # fmt: skip
    await session.flush()
    return taken


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
