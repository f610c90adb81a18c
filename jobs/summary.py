"""The daily summary job: post the papers new for a channel, exactly once per period.

The period is claimed in the ledger (its own committed transaction) before anything is
sent. As soon as Slack accepts the first message, the post is recorded as sent with its
Slack ts and every paper it covers; its thread replies are recorded one by one as they go
out. A failed first message leaves the period marked failed and its papers unposted, so
the next run posts them; a failed or interrupted reply is sent by the next run, in the
same thread. A task cancelled while a message is on its way (shutdown) still records what
Slack accepted before it stops. Rendering and the messenger are passed in by the bot: jobs
import neither the bot nor Slack.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import date, datetime
from typing import TypeVar

from sqlalchemy.ext.asyncio import AsyncSession

from jobs.messaging import Messenger, PostFailed
from storage import db, ledger
from storage.db import Sessions
from storage.ledger import Payload, Pending
from storage.models import utcnow
from storage.search import PaperDetails

log = logging.getLogger(__name__)

# A summary lists at most this many papers (the newest); it counts the others, says where
# to find them, and covers them: an archive of 10,000 papers is one post, not 667, and not
# a second flood the next morning.
LISTED = 100

# day, the papers listed, how many more it covers, the earliest digest date among all
Render = Callable[[date, list[PaperDetails], int, date | None], list[Payload]]
Find = Callable[[AsyncSession], Awaitable["Delivery"]]
T = TypeVar("T")


def manual_period() -> str:
    """A manual post's own ledger entry: it posts whatever is new, whatever the time."""
    return f"manual:{uuid.uuid4().hex}"


@dataclass(frozen=True)
class Outcome:
    status: str  # "posted" | "nothing new" | "already claimed" | "failed"
    papers: int = 0
    ts: str | None = None
    error: str | None = None  # for "posted": thread replies left for the next run


@dataclass(frozen=True)
class Delivery:
    """What one post covers: every paper recorded under its ledger once Slack accepts the
    first message (those only counted too), and its messages (the first, then its thread).
    `record` adds writes to that same transaction, or, when nothing is to be posted, to
    the run's (a subscriber's watermark)."""

    paper_ids: list[int]
    messages: list[Payload]
    record: Callable[[AsyncSession], Awaitable[None]] | None = None


def _summary(render: Render, today: date, found: Pending) -> list[Payload]:
    return render(today, found.papers, len(found.paper_ids) - len(found.papers), found.earliest)


async def preview(
    sessions: Sessions,
    channel: str,
    render: Render,
    *,
    today: date,
    now: datetime | None = None,
) -> list[Payload]:
    """The messages the next summary would post to `channel` (none when nothing is new)."""
    async with sessions() as session:
        found = await ledger.pending(session, channel, now=now or utcnow(), listed=LISTED)
    return _summary(render, today, found) if found.paper_ids else []


async def post(
    sessions: Sessions,
    messenger: Messenger,
    channel: str,
    period: str,
    render: Render,
    *,
    today: date,
    now: datetime | None = None,
    when_empty: bool = False,
) -> Outcome:
    """Post what is new for `channel` as `period`; with `when_empty`, a short "nothing
    new" message when there is nothing (still once per period)."""

    async def find(session: AsyncSession) -> Delivery:
        found = await ledger.pending(session, channel, now=now or utcnow(), listed=LISTED)
        return Delivery(found.paper_ids, _summary(render, today, found))

    return await deliver(
        sessions, messenger, Sending(channel, period, channel), find, when_empty=when_empty
    )


@dataclass(frozen=True)
class Sending:
    """One delivery: whose papers these are (`owner`, the ledger's account: a channel, or
    `sub:<subscriber>`), the period it is for, and where it goes (a conversation, or a
    user, who gets a direct message)."""

    owner: str
    period: str
    to: str
    direct: bool = False


async def deliver(
    sessions: Sessions,
    messenger: Messenger,
    sending: Sending,
    find: Find,
    *,
    when_empty: bool = False,
) -> Outcome:
    """Send what `find` returns once for (owner, period): the first message, then the
    others as its thread. No paper is recorded twice under one owner. Thread replies an
    earlier post of the owner still owes are sent first."""
    owner, period = sending.owner, sending.period
    await resume(sessions, messenger, owner)
    async with db.writing(sessions) as session:
        # Writers take turns. A post in flight is looked for before what is pending is
        # read: one that finishes in between has its papers recorded by then (one commit).
        if await ledger.busy(session, owner, period):
            return Outcome("already claimed")
        delivery = await find(session)
        if not delivery.paper_ids and not when_empty:
            if delivery.record:
                await delivery.record(session)
            return Outcome("nothing new")
        post_id = await ledger.claim(session, owner, period)
        if post_id is None:
            return Outcome("already claimed")
    try:
        channel = await messenger.open_direct(sending.to) if sending.direct else sending.to
    except BaseException as error:  # the claim must not hold the ledger until IN_FLIGHT
        await _to_the_end(_record_failure(sessions, owner, period, post_id, error))
        if isinstance(error, PostFailed):
            return Outcome("failed", error=_reason(error))
        raise
    try:
        sent = await _to_the_end(
            _send_first(sessions, messenger, owner, period, post_id, channel, delivery)
        )
    except asyncio.CancelledError:
        # What Slack accepted is recorded; the thread replies go out with the next run.
        await _to_the_end(_stop_sending(sessions, post_id))
        raise
    if sent.ts is None:
        return sent
    left = await _send_replies(
        sessions, messenger, owner, post_id, channel, sent.ts, delivery.messages[1:]
    )
    log.info("posted to %s for %s: %d papers", owner, period, len(delivery.paper_ids))
    return Outcome("posted", len(delivery.paper_ids), sent.ts, left)


async def _send_first(
    sessions: Sessions,
    messenger: Messenger,
    owner: str,
    period: str,
    post_id: int,
    channel: str,
    delivery: Delivery,
) -> Outcome:
    """Post the first message and record the post as sent (with its papers) at once."""
    try:
        ts = await messenger.post(channel, delivery.messages[0])
    except PostFailed as error:
        await _record_failure(sessions, owner, period, post_id, error)
        return Outcome("failed", error=_reason(error))
    async with sessions.begin() as session:
        await ledger.posted(
            session,
            post_id,
            owner,
            ts=ts,
            slack_channel=channel,
            paper_ids=delivery.paper_ids,
            replies=delivery.messages[1:],
        )
        if delivery.record:
            await delivery.record(session)
    return Outcome("posted", len(delivery.paper_ids), ts)


async def _send_replies(
    sessions: Sessions,
    messenger: Messenger,
    owner: str,
    post_id: int,
    channel: str,
    ts: str,
    replies: list[Payload],
) -> str | None:
    """Send the thread replies in order, recording each as it is accepted; the post is
    then no longer being sent. Returns why some are left for the next run, if any are."""
    try:
        for done, reply in enumerate(replies, start=1):
            await _to_the_end(
                _send_reply(sessions, messenger, post_id, channel, ts, reply, replies[done:])
            )
    except PostFailed as error:
        left = (
            f"{len(replies) - done + 1} of {len(replies)} thread replies left for the next "
            f"run: {_reason(error)}"
        )
        log.error("post to %s (%s): %s", owner, ts, left)
        await _stop_sending(sessions, post_id, left)
        return left
    except asyncio.CancelledError:
        await _to_the_end(_stop_sending(sessions, post_id))
        raise
    await _stop_sending(sessions, post_id)
    return None


async def _send_reply(
    sessions: Sessions,
    messenger: Messenger,
    post_id: int,
    channel: str,
    ts: str,
    reply: Payload,
    left: list[Payload],
) -> None:
    await messenger.post(channel, reply, thread=ts)
    async with sessions.begin() as session:
        await ledger.reply_sent(session, post_id, left)


async def resume(sessions: Sessions, messenger: Messenger, owner: str) -> None:
    """Send the thread replies that earlier posts of `owner` still owe, in their threads;
    the first messages are never sent again."""
    async with sessions() as session:
        if not await ledger.has_unfinished(session, owner):
            return
    async with db.writing(sessions) as session:
        unfinished = await ledger.take_unfinished(session, owner)
    for post in unfinished:
        left = await _send_replies(
            sessions, messenger, owner, post.id, post.slack_channel, post.ts, post.replies
        )
        if left is None:
            log.info(
                "sent the %d thread replies %s (%s) still owed", len(post.replies), owner, post.ts
            )


async def _record_failure(
    sessions: Sessions,
    owner: str,
    period: str,
    post_id: int,
    error: BaseException,
) -> None:
    reason = _reason(error)
    log.error("post to %s for %s failed: %s", owner, period, reason)
    async with sessions.begin() as session:
        await ledger.failed(session, post_id, reason)


async def _stop_sending(sessions: Sessions, post_id: int, error: str | None = None) -> None:
    async with sessions.begin() as session:
        await ledger.stop_sending(session, post_id, error)


def _reason(error: BaseException) -> str:
    if isinstance(error, asyncio.CancelledError):
        return "stopped before it was sent"
    if isinstance(error, PostFailed):
        return str(error)
    return f"{type(error).__name__}: {error}"


async def _to_the_end(work: Awaitable[T]) -> T:
    """Await `work` to its end even when this task is cancelled meanwhile (shutdown); the
    cancellation then goes on. A message Slack accepted is recorded before the task
    stops, so it is never sent again."""
    task = asyncio.ensure_future(work)
    try:
        return await asyncio.shield(task)
    except asyncio.CancelledError:
        await asyncio.wait([task])
        if not task.cancelled() and task.exception() is not None:
            log.error("while stopping: %s", _reason(task.exception()))  # type: ignore[arg-type]
        raise
