"""The daily summary job: post the papers new for a channel, exactly once per period.

The period is claimed in the ledger (its own committed transaction) before anything is
sent; the post is then recorded with its Slack ts and the papers it covered. A failed
post leaves the period marked failed and its papers unposted, so the next run posts them.
Rendering is passed in (the bot's Block Kit module): jobs does not import the bot.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

import aiohttp
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from storage import db, digests
from storage.models import utcnow
from storage.search import PaperDetails

log = logging.getLogger(__name__)

Payload = dict[str, Any]  # {"text": ..., "blocks": [...]}
Render = Callable[[date, list[PaperDetails]], list[Payload]]


def manual_period() -> str:
    """A manual post's own ledger entry: it posts whatever is new, whatever the time."""
    return f"manual:{uuid.uuid4().hex}"


@dataclass(frozen=True)
class Outcome:
    status: str  # "posted" | "nothing new" | "already claimed" | "failed"
    papers: int = 0
    ts: str | None = None
    error: str | None = None


async def preview(
    sessions: async_sessionmaker[AsyncSession], channel: str, render: Render, *, today: date,
    now: datetime | None = None,
) -> list[Payload]:  # fmt: skip
    """The messages the next summary would post to `channel` (none when nothing is new)."""
    async with sessions() as session:
        found = await digests.pending(session, channel, now=now or utcnow())
    return render(today, found.papers) if found.papers else []


async def post(
    sessions: async_sessionmaker[AsyncSession], client: AsyncWebClient, channel: str,
    period: str, render: Render, *, today: date, now: datetime | None = None,
    when_empty: bool = False,
) -> Outcome:  # fmt: skip
    """Post what is new for `channel` as `period`; with `when_empty`, a short "nothing
    new" message when there is nothing (still once per period)."""

    async def find(session: AsyncSession) -> list[PaperDetails]:
        return (await digests.pending(session, channel, now=now or utcnow())).papers

    async def to_channel() -> str:
        return channel

    return await deliver(
        sessions, client, ledger=channel, period=period, find=find,
        render=lambda papers: render(today, papers), destination=to_channel,
        when_empty=when_empty,
    )  # fmt: skip


async def deliver(
    sessions: async_sessionmaker[AsyncSession], client: AsyncWebClient, *, ledger: str,
    period: str, find: Callable[[AsyncSession], Awaitable[list[PaperDetails]]],
    render: Callable[[list[PaperDetails]], list[Payload]],
    destination: Callable[[], Awaitable[str]], when_empty: bool = False,
) -> Outcome:  # fmt: skip
    """Send what `find` returns to `destination` once for (`ledger`, `period`): the first
    message, then the others as its thread. `ledger` names whose papers these are (a
    channel, or a subscriber); no paper is recorded twice under one ledger."""
    async with db.writing(sessions) as session:
        # Writers take turns. A post in flight is looked for before what is pending is
        # read: one that finishes in between has its papers recorded by then (one commit).
        if await digests.busy(session, ledger, period):
            return Outcome("already claimed")
        papers = await find(session)
        if not papers and not when_empty:
            return Outcome("nothing new")
        post_id = await digests.claim(session, ledger, period)
        if post_id is None:
            return Outcome("already claimed")
    messages = render(papers)
    try:
        channel = await destination()
        parent = await client.chat_postMessage(channel=channel, **messages[0])
        ts = str(parent["ts"])
        for reply in messages[1:]:
            await client.chat_postMessage(channel=channel, thread_ts=ts, **reply)
    except (SlackApiError, aiohttp.ClientError, TimeoutError) as error:
        reason = f"{type(error).__name__}: {error}"
        log.error("post to %s for %s failed: %s", ledger, period, reason)
        async with sessions.begin() as session:
            await digests.failed(session, post_id, reason)
        return Outcome("failed", error=reason)
    async with sessions.begin() as session:
        await digests.posted(session, post_id, ledger, ts, [p.ref.id for p in papers])
    log.info("posted to %s for %s: %d papers", ledger, period, len(papers))
    return Outcome("posted", len(papers), ts)
