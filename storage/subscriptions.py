"""Subscriptions: the words a user or a channel follows, and which new papers match them.

A subscriber's deliveries are recorded in the summary ledger (storage/digests.py) under
`sub:<subscriber>`: one post per day, and never the same paper twice.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from storage import dialect, digests
from storage.models import Subscription
from storage.search import PaperDetails, papers_details
from storage.search_text import BadQuery, parse_query

MAX_PER_SUBSCRIBER = 20
MAX_WORDS = 200


def ledger(subscriber: str) -> str:
    return f"sub:{subscriber}"


def is_user(subscriber: str) -> bool:
    """A user (who gets a direct message), not a channel."""
    return subscriber.startswith(("U", "W"))


@dataclass(frozen=True)
class Followed:
    id: int
    subscriber: str
    words: str
    post_time: str | None  # "08:30" for a channel with its own time
    created_by: str

    @property
    def is_user(self) -> bool:
        return is_user(self.subscriber)


@dataclass(frozen=True)
class Match:
    """A new paper for a subscriber, and which of their subscriptions it matches."""

    paper: PaperDetails
    words: list[str]


def _followed(row: Subscription) -> Followed:
    return Followed(row.id, row.subscriber, row.words, row.post_time, row.created_by)


async def subscribe(
    session: AsyncSession, subscriber: str, words: str, *, created_by: str,
    post_time: str | None = None,
) -> Followed | None:  # fmt: skip
    """Follow `words`; None when the subscriber follows them already. Raises BadQuery
    for words that cannot match anything, or past the limit of subscriptions."""
    words = " ".join(words.split())
    if len(words) > MAX_WORDS:
        raise BadQuery(f"Follow at most {MAX_WORDS} characters of words.")
    if parse_query(words).empty:
        raise BadQuery("Those words cannot match anything: follow a word or two, like `AUROC`.")
    count = await session.execute(
        select(func.count()).select_from(Subscription).where(Subscription.subscriber == subscriber)
    )
    if count.scalar_one() >= MAX_PER_SUBSCRIBER:
        raise BadQuery(f"That is {MAX_PER_SUBSCRIBER} subscriptions already; remove one first.")
    if post_time is not None:  # one time of day per channel: the latest one given
        await session.execute(
            update(Subscription)
            .where(Subscription.subscriber == subscriber)
            .values(post_time=post_time)
        )
    same = await session.execute(
        select(Subscription.id).where(
            Subscription.subscriber == subscriber, func.lower(Subscription.words) == words.lower()
        )
    )
    if same.first() is not None:  # search ignores case, so "auroc" is "AUROC"
        return None
    row = Subscription(subscriber=subscriber, words=words, post_time=post_time,
                       created_by=created_by)  # fmt: skip
    try:
        async with session.begin_nested():
            session.add(row)
    except IntegrityError:
        return None
    return _followed(row)


async def of(session: AsyncSession, *subscribers: str) -> list[Followed]:
    rows = await session.execute(
        select(Subscription)
        .where(Subscription.subscriber.in_(subscribers))
        .order_by(Subscription.subscriber, Subscription.id)
    )
    return [_followed(row) for row in rows.scalars()]


async def get(session: AsyncSession, subscription_id: int) -> Followed | None:
    row = await session.get(Subscription, subscription_id)
    return _followed(row) if row else None


async def remove(session: AsyncSession, subscription_id: int) -> None:
    await session.execute(delete(Subscription).where(Subscription.id == subscription_id))


async def remove_words(session: AsyncSession, subscriber: str, words: str) -> bool:
    removed = await session.execute(
        delete(Subscription).where(
            Subscription.subscriber == subscriber,
            func.lower(Subscription.words) == " ".join(words.split()).lower(),
        )
    )
    return bool(removed.rowcount)  # type: ignore[attr-defined]


async def subscribers(session: AsyncSession) -> dict[str, str | None]:
    """Every subscriber and its own time of day (None: the default time; a channel's rows
    all carry the same time)."""
    rows = await session.execute(
        select(Subscription.subscriber, func.max(Subscription.post_time)).group_by(
            Subscription.subscriber
        )
    )
    return {subscriber: post_time for subscriber, post_time in rows}


async def new_matches(session: AsyncSession, subscriber: str) -> list[Match]:
    """Papers first ingested since the subscriber subscribed and since their last post,
    never sent to them, that match one of their subscriptions; oldest first."""
    name = ledger(subscriber)
    followed = await of(session, subscriber)
    if not followed:
        return []
    start = await session.execute(
        select(func.min(Subscription.created_at)).where(Subscription.subscriber == subscriber)
    )
    last = await digests.last_post_claimed_at(session, name)
    keys = await digests.unsent(session, name, max(filter(None, (start.scalar_one(), last))))
    words: dict[int, list[str]] = {}
    for subscription in followed:
        found = await dialect.papers_matching(session, parse_query(subscription.words), list(keys))
        for paper_id in found:
            words.setdefault(paper_id, []).append(subscription.words)
    matched = [key for paper_id, key in keys.items() if paper_id in words]
    return [Match(d, words[d.ref.id]) for d in await papers_details(session, matched)]
