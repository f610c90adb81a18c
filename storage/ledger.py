"""The ledger of summaries and subscription messages: which papers are new for a channel,
and which period and papers each post covered. Its rows belong to an owner: a channel (its
daily summary) or `sub:<subscriber>`. An (owner, period) row is claimed before anything is
sent, so one firing posts at most once per owner; (owner, paper) is unique, so no paper is
sent to an owner twice. A post counts as sent once Slack accepted its first message;
its thread replies are tracked one by one, so missing ones are sent later, in the same
thread, and never the whole post again."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from sqlalchemy import func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from storage.models import LedgerPaper, LedgerPost, Paper, utcnow
from storage.search import PaperDetails, papers_details

# A channel's first summary covers what arrived in this window, not the whole store.
FIRST_POST_WINDOW = timedelta(days=7)
# A post being sent for longer than this is taken to have died with its process.
IN_FLIGHT = timedelta(minutes=10)

Payload = dict[str, Any]
_SUBSCRIBER = "sub:"


def subscriber_owner(subscriber: str) -> str:
    """The owner a subscriber's messages are recorded under (a channel's is itself)."""
    return f"{_SUBSCRIBER}{subscriber}"


def is_summary(owner: Any) -> Any:
    """A condition on an owner column: a channel's summary, not a subscription message."""
    return ~owner.startswith(_SUBSCRIBER)


@dataclass(frozen=True)
class Pending:
    paper_ids: list[int]  # every paper new for the channel, oldest first
    papers: list[PaperDetails]  # the newest of them, loaded to be listed, oldest first
    earliest: date | None  # the earliest digest date among all of them


async def pending(session: AsyncSession, channel: str, *, now: datetime, listed: int) -> Pending:
    """Papers first ingested after the channel's last successful post (or, for its first
    post, in the last week) that were never posted to it, oldest first; the cards of the
    newest `listed` of them."""
    since = await last_post_claimed_at(session, channel) or now - FIRST_POST_WINDOW
    sent = select(LedgerPaper.paper_id).where(LedgerPaper.owner == channel)
    rows = (
        await session.execute(
            select(Paper.id, Paper.key, Paper.digest_date)
            .where(Paper.first_ingested_at > since, Paper.id.not_in(sent))
            .order_by(Paper.first_ingested_at, Paper.id)
        )
    ).all()
    papers = await papers_details(session, [key for _, key, _ in rows[-listed:]] if listed else [])
    earliest = min((day for _, _, day in rows if day is not None), default=None)
    return Pending([paper_id for paper_id, _, _ in rows], papers, earliest)


async def unrecorded(session: AsyncSession, owner: str, paper_ids: list[int]) -> list[int]:
    """Those of `paper_ids` never recorded under `owner`, in the order given. The ledger is
    read over the ids' range, so no query binds a parameter per paper."""
    if not paper_ids:
        return []
    rows = await session.execute(
        select(LedgerPaper.paper_id).where(
            LedgerPaper.owner == owner,
            LedgerPaper.paper_id.between(min(paper_ids), max(paper_ids)),
        )
    )
    recorded = set(rows.scalars())
    return [paper_id for paper_id in paper_ids if paper_id not in recorded]


async def last_post_claimed_at(session: AsyncSession, owner: str) -> datetime | None:
    """When the last successful post of `owner` was claimed. What it listed was read in
    that same transaction, and writers take turns, so every paper ingested before this
    time was considered then; later papers are new (`posted_at`, set after the Slack
    calls, would skip papers ingested while they ran)."""
    last = await session.execute(
        select(func.max(LedgerPost.created_at)).where(
            LedgerPost.owner == owner, LedgerPost.status == "posted"
        )
    )
    return last.scalar_one()


def _being_sent() -> Any:
    return LedgerPost.sending_since > utcnow() - IN_FLIGHT


async def busy(session: AsyncSession, owner: str, period: str) -> bool:
    """Whether `period` is claimed by `owner` already, or a post of it is being
    sent (its first message or its thread replies, recently enough that its process is
    taken to be alive): either way, nothing is to be posted now."""
    found = await session.execute(
        select(LedgerPost.id).where(
            LedgerPost.owner == owner, (LedgerPost.period == period) | _being_sent()
        )
    )
    return found.first() is not None


async def claimed_owners(session: AsyncSession, period: str) -> set[str]:
    """Every owner that has claimed `period` already (one query for a whole job run)."""
    rows = await session.execute(select(LedgerPost.owner).where(LedgerPost.period == period))
    return set(rows.scalars())


async def claim(session: AsyncSession, owner: str, period: str) -> int | None:
    """Claim (owner, period) for posting; None when that period is already claimed."""
    try:
        async with session.begin_nested():
            row = LedgerPost(
                owner=owner, period=period, status="claimed", attempts=1, sending_since=utcnow()
            )
            session.add(row)
    except IntegrityError:
        return None
    return row.id


async def posted(
    session: AsyncSession,
    post_id: int,
    owner: str,
    *,
    ts: str,
    slack_channel: str,
    paper_ids: list[int],
    replies: list[Payload],
) -> None:
    """Slack accepted the post's first message: the post and every paper it covers are
    recorded, its thread replies are still to be sent."""
    await session.execute(
        update(LedgerPost)
        .where(LedgerPost.id == post_id)
        .values(
            status="posted",
            slack_ts=ts,
            slack_channel=slack_channel,
            posted_at=utcnow(),
            pending_replies=replies or None,
            error=None,
        )
    )
    if paper_ids:
        await session.execute(
            insert(LedgerPaper),
            [{"post_id": post_id, "paper_id": p, "owner": owner} for p in paper_ids],
        )


async def reply_sent(session: AsyncSession, post_id: int, left: list[Payload]) -> None:
    """One more thread reply was accepted; `left` are still to be sent."""
    await session.execute(
        update(LedgerPost).where(LedgerPost.id == post_id).values(pending_replies=left or None)
    )


async def stop_sending(session: AsyncSession, post_id: int, error: str | None = None) -> None:
    """This process sends no more of the post now (done, failed or stopping): another run
    may take up what is left at once."""
    await session.execute(
        update(LedgerPost).where(LedgerPost.id == post_id).values(sending_since=None, error=error)
    )


async def failed(session: AsyncSession, post_id: int, error: str) -> None:
    await session.execute(
        update(LedgerPost)
        .where(LedgerPost.id == post_id)
        .values(status="failed", error=error, sending_since=None)
    )


@dataclass(frozen=True)
class Unfinished:
    """A post whose first message went out while some thread replies did not."""

    id: int
    slack_channel: str
    ts: str
    replies: list[Payload]


def _unfinished(owner: str) -> Any:
    return select(LedgerPost).where(
        LedgerPost.owner == owner,
        LedgerPost.status == "posted",
        LedgerPost.pending_replies.is_not(None),
        LedgerPost.sending_since.is_(None) | ~_being_sent(),
    )


async def has_unfinished(session: AsyncSession, owner: str) -> bool:
    """A cheap look, without taking the writers' turn, before `take_unfinished`."""
    return (await session.execute(_unfinished(owner).limit(1))).first() is not None


async def take_unfinished(session: AsyncSession, owner: str) -> list[Unfinished]:
    """The posts of `owner` with thread replies to send that no live process is
    sending, marked as being sent by the caller (oldest first)."""
    rows = (await session.execute(_unfinished(owner).order_by(LedgerPost.id))).scalars().all()
    taken = []
    for post in rows:
        post.sending_since = utcnow()
        post.attempts += 1
        if post.slack_channel and post.slack_ts and post.pending_replies:
            taken.append(
                Unfinished(post.id, post.slack_channel, post.slack_ts, list(post.pending_replies))
            )
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
            select(LedgerPost)
            .where(LedgerPost.owner == channel, LedgerPost.status == "posted")
            .order_by(LedgerPost.posted_at.desc())
            .limit(1)
        )
    ).scalar_one_or_none()
    if post is None or post.posted_at is None:
        return None
    keys = await session.execute(
        select(Paper.key)
        .join(LedgerPaper, LedgerPaper.paper_id == Paper.id)
        .where(LedgerPaper.post_id == post.id)
        .order_by(Paper.first_ingested_at, Paper.id)
    )
    papers = await papers_details(session, list(keys.scalars()))
    return LatestPost(channel, post.posted_at, papers)
