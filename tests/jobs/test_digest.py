"""The daily summary: what it lists, the ledger, exactly once, and failed posts retried."""

from __future__ import annotations

import asyncio
import shutil
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from bot.app import slack_client
from bot.blocks import digest_messages
from bot.local_slack import LocalSlack
from jobs import digest
from jobs.ingest import ingest
from storage import db
from storage.models import DigestPost, DigestPostPaper
from storage.status import store_status
from tests.bot.limits import limit_violations
from tests.digests import SEEDS, Entry, huggingface_digest, write

TODAY = date(2026, 12, 2)
CHANNEL = "CPAPERS"


class ScriptedSlack(LocalSlack):
    """Answers chat.postMessage with the given HTTP statuses first, then as Slack does."""

    def __init__(self, statuses: list[int] | None = None, *, always: int | None = None):
        super().__init__()
        self.statuses = list(statuses or [])
        self.always = always

    async def answer(self, method: str, payload: dict[str, Any]) -> web.Response:
        if method == "chat.postMessage":
            status = self.always or (self.statuses.pop(0) if self.statuses else None)
            if status == 429:
                return web.json_response({"ok": False, "error": "ratelimited"}, status=429,
                                         headers={"Retry-After": "1"})  # fmt: skip
            if status:
                return web.Response(status=status, text="upstream trouble")
        return await super().answer(method, payload)


@pytest.fixture
async def sessions(engine: AsyncEngine, tmp_path: Path) -> async_sessionmaker[AsyncSession]:
    shutil.copytree(SEEDS, tmp_path / "digests")
    factory = db.session_factory(engine)
    await ingest(factory, [tmp_path / "digests"])
    return factory


async def run(sessions: async_sessionmaker[AsyncSession], slack: LocalSlack,
              period: str) -> digest.Outcome:  # fmt: skip
    client = slack_client("xoxb-test", slack.api_url)
    return await digest.post(sessions, client, CHANNEL, period, digest_messages, today=TODAY)


async def posted_papers(sessions: async_sessionmaker[AsyncSession]) -> int:
    async with sessions() as session:
        return (
            await session.execute(select(func.count()).select_from(DigestPostPaper))
        ).scalar_one()


async def test_one_post_lists_the_36_seed_papers_then_nothing_more(
    sessions: async_sessionmaker[AsyncSession],
) -> None:
    async with LocalSlack() as slack:
        first = await run(sessions, slack, "2026-12-02T09:00:00+00:00")
        again = await run(sessions, slack, "2026-12-03T09:00:00+00:00")
    messages = slack.called("chat.postMessage")
    assert (first.status, first.papers) == ("posted", 36)
    assert again.status == "nothing new"
    assert len(messages) == 3  # 10 papers in the parent, 15 and 11 in the thread
    assert messages[0].get("thread_ts") is None
    assert all(m["thread_ts"] == first.ts for m in messages[1:])
    assert all(limit_violations(m) == [] for m in messages)
    assert "36 new papers" in str(messages[0]["blocks"])
    assert await posted_papers(sessions) == 36
    async with sessions() as session:
        post = (await session.execute(select(DigestPost))).scalar_one()
    assert (post.status, post.slack_ts, post.channel) == ("posted", first.ts, CHANNEL)


async def test_an_empty_period_posts_nothing_unless_asked_to(
    sessions: async_sessionmaker[AsyncSession],
) -> None:
    async with LocalSlack() as slack:
        client = slack_client("xoxb-test", slack.api_url)
        await run(sessions, slack, "p1")
        quiet = await digest.post(sessions, client, CHANNEL, "p2", digest_messages, today=TODAY)
        told = await digest.post(sessions, client, CHANNEL, "p3", digest_messages, today=TODAY,
                                 when_empty=True)  # fmt: skip
        once = await digest.post(sessions, client, CHANNEL, "p3", digest_messages, today=TODAY,
                                 when_empty=True)  # fmt: skip
    assert (quiet.status, told.status, once.status) == ("nothing new", "posted", "already claimed")
    assert "No new papers since the last summary." in str(slack.called("chat.postMessage")[-1])


async def test_a_new_file_posts_only_its_new_papers(
    sessions: async_sessionmaker[AsyncSession], tmp_path: Path
) -> None:
    async with LocalSlack() as slack:
        await run(sessions, slack, "p1")
        text = huggingface_digest("2026-10-05", [Entry("2610.55555", "Fresh Paper")])
        new = write(tmp_path / "digests" / "new.txt", text)
        await ingest(sessions, [new])
        second = await run(sessions, slack, "p2")
    assert (second.status, second.papers) == ("posted", 1)
    assert "Fresh Paper" in str(slack.called("chat.postMessage")[-1]["blocks"])


async def test_one_period_posts_once_even_when_run_twice_at_once(
    sessions: async_sessionmaker[AsyncSession],
) -> None:
    async with LocalSlack() as slack:
        outcomes = await asyncio.gather(*(run(sessions, slack, "same") for _ in range(2)))
    statuses = sorted(o.status for o in outcomes)
    # The second run finds the first in flight, or (if it came later) nothing new.
    assert statuses in (["already claimed", "posted"], ["nothing new", "posted"])
    assert len([m for m in slack.called("chat.postMessage") if not m.get("thread_ts")]) == 1


async def test_posts_for_different_periods_at_once_post_the_papers_once(
    sessions: async_sessionmaker[AsyncSession],
) -> None:
    """A manual post and scheduled ones racing: one post, whoever wins."""
    async with LocalSlack() as slack:
        outcomes = await asyncio.gather(*(run(sessions, slack, p) for p in ("a", "b", "c")))
    statuses = sorted(o.status for o in outcomes)
    assert statuses[-1] == "posted"
    assert set(statuses[:-1]) <= {"already claimed", "nothing new"}
    assert len([m for m in slack.called("chat.postMessage") if not m.get("thread_ts")]) == 1


async def test_429_then_500_is_retried_and_posted_once(
    sessions: async_sessionmaker[AsyncSession],
) -> None:
    async with ScriptedSlack([429, 500]) as slack:
        outcome = await run(sessions, slack, "p1")
    assert outcome.status == "posted"
    parents = [m for m in slack.called("chat.postMessage") if not m.get("thread_ts")]
    assert len(parents) == 3  # two refused attempts, then the one that went out
    assert await posted_papers(sessions) == 36


async def test_a_post_that_keeps_failing_leaves_its_papers_for_the_next_run(
    sessions: async_sessionmaker[AsyncSession],
) -> None:
    async with ScriptedSlack(always=500) as slack:
        failed = await run(sessions, slack, "p1")
    async with sessions() as session:
        post = (await session.execute(select(DigestPost))).scalar_one()
    assert failed.status == "failed"
    assert (post.status, post.slack_ts) == ("failed", None)
    assert "500" in (post.error or "")
    assert await posted_papers(sessions) == 0

    async with sessions() as session:
        last = (await store_status(session)).last_digest
    assert last is not None and (last["status"], last["period"]) == ("failed", "p1")
    assert "500" in last["error"]

    async with LocalSlack() as slack:
        retried = await run(sessions, slack, "p2")
    assert (retried.status, retried.papers) == ("posted", 36)
