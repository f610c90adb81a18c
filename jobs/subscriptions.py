"""Subscription deliveries: once a day, at the subscriber's time, the new papers matching
the words they follow; a user gets a direct message, a channel a post.

Each (subscriber, day) goes through the same exactly-once ledger as the daily summary
(jobs/digest.deliver), so replicas and restarts never send a day's message twice.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime, time

from slack_sdk.web.async_client import AsyncWebClient
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from jobs.digest import Outcome, Payload, deliver
from storage import digests, subscriptions
from storage.search import PaperDetails
from storage.subscriptions import Match

Render = Callable[[date, list[Match]], list[Payload]]


async def deliver_due(
    sessions: async_sessionmaker[AsyncSession], client: AsyncWebClient, render: Render, *,
    now: datetime, default_time: time,
) -> dict[str, Outcome]:  # fmt: skip
    """Deliver to every subscriber whose time of day has come (`now` is local time)."""
    day = now.date()
    async with sessions() as session:
        due = await subscriptions.subscribers(session)
        # The job runs every few minutes: today's messages already sent are known from
        # one read, without taking the writers' turn for each subscriber again.
        done = await digests.claimed_ledgers(session, day.isoformat())
    outcomes = {}
    for subscriber, own_time in sorted(due.items()):
        at = time.fromisoformat(own_time) if own_time else default_time
        if now.time() < at:
            continue
        if subscriptions.ledger(subscriber) in done:
            outcomes[subscriber] = Outcome("already claimed")
        else:
            outcomes[subscriber] = await deliver_to(sessions, client, subscriber, render, day=day)
    return outcomes


async def deliver_to(
    sessions: async_sessionmaker[AsyncSession], client: AsyncWebClient, subscriber: str,
    render: Render, *, day: date,
) -> Outcome:  # fmt: skip
    matches: dict[int, Match] = {}

    async def find(session: AsyncSession) -> list[PaperDetails]:
        found = await subscriptions.new_matches(session, subscriber)
        matches.update({match.paper.ref.id: match for match in found})
        return [match.paper for match in found]

    async def destination() -> str:
        if not subscriptions.is_user(subscriber):
            return subscriber
        opened = await client.conversations_open(users=subscriber)
        return str(opened["channel"]["id"])

    return await deliver(
        sessions, client, ledger=subscriptions.ledger(subscriber), period=day.isoformat(),
        find=find, render=lambda papers: render(day, [matches[p.ref.id] for p in papers]),
        destination=destination,
    )  # fmt: skip
