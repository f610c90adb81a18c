"""Subscription deliveries: once a day, at the subscriber's time, the new papers matching
the words they follow; a user gets a direct message, a channel a post.

Each (subscriber, day) goes through the same exactly-once ledger as the daily summary
(jobs/summary.deliver), so replicas and restarts never send a day's message twice.
Matching only reads, outside the writers' turn; the turn is taken to claim and record,
or to move a subscriber's watermark past papers that matched nothing. One subscriber's
failure is logged and the others still get their message.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import date, datetime, time

from sqlalchemy.ext.asyncio import AsyncSession

from jobs.messaging import Messenger
from jobs.summary import Delivery, Outcome, Sending, deliver
from storage import db, ledger, subscriptions
from storage.db import Sessions
from storage.ledger import Payload
from storage.subscriptions import Match

log = logging.getLogger(__name__)

# day, the matches listed (the newest), how many matched in all
Render = Callable[[date, list[Match], int], list[Payload]]
# A message lists at most this many matches; it counts the others.
LISTED = 20


async def deliver_due(
    sessions: Sessions,
    messenger: Messenger,
    render: Render,
    *,
    now: datetime,
    default_time: time,
) -> dict[str, Outcome]:
    """Deliver to every subscriber whose time of day has come (`now` is local time)."""
    day = now.date()
    async with sessions() as session:
        due = await subscriptions.subscribers(session)
        # The job runs every few minutes: today's messages already sent are known from
        # one read, without taking the writers' turn for each subscriber again.
        done = await ledger.claimed_owners(session, day.isoformat())
    outcomes, seen = {}, subscriptions.Seen()
    for subscriber, own_time in sorted(due.items()):
        at = time.fromisoformat(own_time) if own_time else default_time
        if now.time() < at:
            continue
        if ledger.subscriber_owner(subscriber) in done:
            outcomes[subscriber] = Outcome("already claimed")
            continue
        try:
            outcomes[subscriber] = await deliver_to(
                sessions, messenger, subscriber, render, day=day, seen=seen
            )
        except Exception as error:
            log.exception("subscription delivery to %s failed", subscriber)
            outcomes[subscriber] = Outcome("failed", error=f"{type(error).__name__}: {error}")
    return outcomes


async def deliver_to(
    sessions: Sessions,
    messenger: Messenger,
    subscriber: str,
    render: Render,
    *,
    day: date,
    seen: subscriptions.Seen | None = None,
) -> Outcome:
    owner = ledger.subscriber_owner(subscriber)
    async with sessions() as session:
        found = await subscriptions.new_matches(session, subscriber, seen)
    if not found.words:
        if found.moved and found.through is not None:
            async with db.writing(sessions) as session:
                await subscriptions.advance(session, subscriber, found.through)
        return Outcome("nothing new")

    async def record(session: AsyncSession) -> None:
        if found.through is not None:
            await subscriptions.advance(session, subscriber, found.through)

    async def find(session: AsyncSession) -> Delivery:
        # In the writers' turn: leave out what another run sent since the matching.
        fresh = await ledger.unrecorded(session, owner, list(found.words))
        listed = await subscriptions.matches(session, found, fresh[-LISTED:])
        return Delivery(fresh, render(day, listed, len(fresh)), record)

    sending = Sending(owner, day.isoformat(), subscriber, subscriptions.is_user(subscriber))
    return await deliver(sessions, messenger, sending, find)
