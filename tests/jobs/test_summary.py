"""The daily summary: what it lists, the ledger, exactly once, and failed posts retried."""

from __future__ import annotations

import asyncio
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web
from sqlalchemy import func, select, update
from sqlalchemy.engine import URL

from bot.app import slack_client
from bot.blocks import summary_messages
from bot.messenger import SlackMessenger
from bot.settings import load_settings
from bot.shell import offline_bot
from jobs import summary
from jobs.ingest import ingest
from storage import ledger
from storage.db import Sessions
from storage.models import LedgerPaper, LedgerPost, Paper, utcnow
from storage.status import store_status
from tests.bot.limits import limit_violations
from tests.digests import Entry, huggingface_digest, write
from tests.fake_slack import FakeSlack
from tests.jobs.bulk import add_papers

TODAY = date(2026, 12, 2)
CHANNEL = "CPAPERS"


class ScriptedSlack(FakeSlack):
    """Answers chat.postMessage with the given HTTP statuses first, then as Slack does."""

    def __init__(self, statuses: list[int] | None = None, *, always: int | None = None):
        super().__init__()
        self.statuses = list(statuses or [])
        self.always = always

    async def answer(self, method: str, payload: dict[str, Any]) -> web.Response:
        if method == "chat.postMessage":
            status = self.always or (self.statuses.pop(0) if self.statuses else None)
            if status == 429:
                return web.json_response(
                    {"ok": False, "error": "ratelimited"}, status=429, headers={"Retry-After": "1"}
                )
            if status:
                return web.Response(status=status, text="upstream trouble")
        return await super().answer(method, payload)


class RefusingReplies(FakeSlack):
    """Refuses the given thread replies (1 is the first one sent), once each, as Slack
    refuses a message it cannot take."""

    def __init__(self, refuse: set[int]):
        super().__init__()
        self.refuse = refuse
        self.replies = 0
        self.refused: list[dict[str, Any]] = []

    async def answer(self, method: str, payload: dict[str, Any]) -> web.Response:
        if method == "chat.postMessage" and payload.get("thread_ts"):
            self.replies += 1
            if self.replies in self.refuse:
                self.refused.append(payload)
                return web.json_response({"ok": False, "error": "internal_error"})
        return await super().answer(method, payload)

    def accepted(self) -> list[dict[str, Any]]:
        return [m for m in self.called("chat.postMessage") if all(m is not r for r in self.refused)]


class SlowToAnswer(FakeSlack):
    """Takes the summary's first message, then is slow to say so: time to cancel the
    task that posts it, after Slack accepted the message."""

    def __init__(self) -> None:
        super().__init__()
        self.parent_taken = asyncio.Event()

    async def answer(self, method: str, payload: dict[str, Any]) -> web.Response:
        response = await super().answer(method, payload)
        if method == "chat.postMessage" and not self.parent_taken.is_set():
            self.parent_taken.set()
            await asyncio.sleep(0.5)
        return response


@pytest.fixture
def sessions(seeded: Sessions) -> Sessions:
    return seeded  # every test here starts from the seeds


async def run(sessions: Sessions, slack: FakeSlack, period: str) -> summary.Outcome:
    client = SlackMessenger(slack_client("xoxb-test", slack.api_url))
    return await summary.post(sessions, client, CHANNEL, period, summary_messages, today=TODAY)


async def posted_papers(sessions: Sessions) -> int:
    async with sessions() as session:
        return (await session.execute(select(func.count()).select_from(LedgerPaper))).scalar_one()


async def test_one_post_lists_the_36_seed_papers_then_nothing_more(
    sessions: Sessions,
) -> None:
    async with FakeSlack() as slack:
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
        post = (await session.execute(select(LedgerPost))).scalar_one()
    assert (post.status, post.slack_ts, post.owner) == ("posted", first.ts, CHANNEL)


async def test_an_empty_period_posts_nothing_unless_asked_to(
    sessions: Sessions,
) -> None:
    async with FakeSlack() as slack:
        client = SlackMessenger(slack_client("xoxb-test", slack.api_url))
        await run(sessions, slack, "p1")
        quiet = await summary.post(sessions, client, CHANNEL, "p2", summary_messages, today=TODAY)
        told = await summary.post(
            sessions, client, CHANNEL, "p3", summary_messages, today=TODAY, when_empty=True
        )
        once = await summary.post(
            sessions, client, CHANNEL, "p3", summary_messages, today=TODAY, when_empty=True
        )
    assert (quiet.status, told.status, once.status) == ("nothing new", "posted", "already claimed")
    assert "No new papers since the last summary." in str(slack.called("chat.postMessage")[-1])


async def test_a_new_file_posts_only_its_new_papers(sessions: Sessions, tmp_path: Path) -> None:
    async with FakeSlack() as slack:
        await run(sessions, slack, "p1")
        text = huggingface_digest("2026-10-05", [Entry("2610.55555", "Fresh Paper")])
        new = write(tmp_path / "digests" / "new.txt", text)
        await ingest(sessions, [new])
        second = await run(sessions, slack, "p2")
    assert (second.status, second.papers) == ("posted", 1)
    assert "Fresh Paper" in str(slack.called("chat.postMessage")[-1]["blocks"])


async def test_one_period_posts_once_even_when_run_twice_at_once(
    sessions: Sessions,
) -> None:
    async with FakeSlack() as slack:
        outcomes = await asyncio.gather(*(run(sessions, slack, "same") for _ in range(2)))
    statuses = sorted(o.status for o in outcomes)
    # The second run finds the first in flight, or (if it came later) nothing new.
    assert statuses in (["already claimed", "posted"], ["nothing new", "posted"])
    assert len([m for m in slack.called("chat.postMessage") if not m.get("thread_ts")]) == 1


async def test_posts_for_different_periods_at_once_post_the_papers_once(
    sessions: Sessions,
) -> None:
    """A manual post and scheduled ones racing: one post, whoever wins."""
    async with FakeSlack() as slack:
        outcomes = await asyncio.gather(*(run(sessions, slack, p) for p in ("a", "b", "c")))
    statuses = sorted(o.status for o in outcomes)
    assert statuses[-1] == "posted"
    assert set(statuses[:-1]) <= {"already claimed", "nothing new"}
    assert len([m for m in slack.called("chat.postMessage") if not m.get("thread_ts")]) == 1


async def test_429_then_500_is_retried_and_posted_once(
    sessions: Sessions,
) -> None:
    async with ScriptedSlack([429, 500]) as slack:
        outcome = await run(sessions, slack, "p1")
    assert outcome.status == "posted"
    parents = [m for m in slack.called("chat.postMessage") if not m.get("thread_ts")]
    assert len(parents) == 3  # two refused attempts, then the one that went out
    assert await posted_papers(sessions) == 36


async def test_a_post_that_keeps_failing_leaves_its_papers_for_the_next_run(
    sessions: Sessions,
) -> None:
    async with ScriptedSlack(always=500) as slack:
        failed = await run(sessions, slack, "p1")
    async with sessions() as session:
        post = (await session.execute(select(LedgerPost))).scalar_one()
    assert failed.status == "failed"
    assert (post.status, post.slack_ts) == ("failed", None)
    assert "500" in (post.error or "")
    assert await posted_papers(sessions) == 0

    async with sessions() as session:
        last = (await store_status(session)).last_digest
    assert last is not None and (last["status"], last["period"]) == ("failed", "p1")
    assert "500" in last["error"]

    async with FakeSlack() as slack:
        retried = await run(sessions, slack, "p2")
    assert (retried.status, retried.papers) == ("posted", 36)


async def the_post(sessions: Sessions) -> LedgerPost:
    async with sessions() as session:
        return (await session.execute(select(LedgerPost))).scalar_one()


def split(messages: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[str]]:
    """The first messages, and the texts of the thread replies."""
    return [m for m in messages if not m.get("thread_ts")], [
        m["text"] for m in messages if m.get("thread_ts")
    ]


async def test_a_refused_thread_reply_is_sent_by_the_next_run_in_the_same_thread(
    sessions: Sessions,
) -> None:
    async with RefusingReplies(refuse={2}) as slack:
        first = await run(sessions, slack, "p1")
        pending = await the_post(sessions)
        second = await run(sessions, slack, "p2")
        third = await run(sessions, slack, "p3")
    parents, replies = split(slack.accepted())
    assert (first.status, first.papers) == ("posted", 36)
    assert first.error is not None and "1 of 2 thread replies left" in first.error
    assert pending.status == "posted" and pending.pending_replies is not None
    assert "internal_error" in (pending.error or "")
    assert (second.status, third.status) == ("nothing new", "nothing new")
    assert len(parents) == 1
    assert replies == ["Papers 11–25", "Papers 26–36"]  # each once, in order
    assert {m["thread_ts"] for m in slack.accepted() if m.get("thread_ts")} == {first.ts}
    post = await the_post(sessions)
    assert (post.status, post.pending_replies, post.error) == ("posted", None, None)
    assert await posted_papers(sessions) == 36


async def test_a_post_cancelled_after_slack_took_it_is_never_posted_again(
    sessions: Sessions,
) -> None:
    async with SlowToAnswer() as slack:
        task = asyncio.create_task(run(sessions, slack, "p1"))
        await slack.parent_taken.wait()
        task.cancel()  # as shutdown cancels what is still running
        with pytest.raises(asyncio.CancelledError):
            await task
        post = await the_post(sessions)
        assert (post.status, post.slack_ts) == ("posted", "1700000001.000100")
        assert await posted_papers(sessions) == 36
        # Also once the post is older than a post in flight may be (a process that died
        # while sending would leave it so).
        long_ago = utcnow() - ledger.IN_FLIGHT - timedelta(minutes=1)
        async with sessions.begin() as session:
            await session.execute(
                update(LedgerPost).values(created_at=long_ago, sending_since=long_ago)
            )
        again = await run(sessions, slack, "p2")
        same_period = await run(sessions, slack, "p1")
    parents, replies = split(slack.called("chat.postMessage"))
    assert (again.status, same_period.status) == ("nothing new", "already claimed")
    assert len(parents) == 1
    assert replies == ["Papers 11–25", "Papers 26–36"]  # the thread, finished by the next run
    assert {m["thread_ts"] for m in slack.called("chat.postMessage")[1:]} == {post.slack_ts}
    assert (await the_post(sessions)).pending_replies is None


async def test_a_first_summary_after_an_archive_of_10000_papers_is_one_bounded_post(
    sessions: Sessions,
) -> None:
    await add_papers(sessions, 10_000, day=date(2026, 11, 30))
    async with FakeSlack() as slack:
        first = await run(sessions, slack, "p1")
        next_morning = await run(sessions, slack, "p2")
    messages = slack.called("chat.postMessage")
    assert (first.status, first.papers) == ("posted", 10_036)
    assert next_morning.status == "nothing new"  # no second flood: they were all covered
    assert await posted_papers(sessions) == 10_036
    assert len(messages) == 7  # the newest 100: 10 in the parent, 90 in six replies of 15
    assert all(limit_violations(m) == [] for m in messages)
    parent = str(messages[0]["blocks"])
    assert "10,036 new papers since the last summary, the newest 100 listed" in parent
    assert "…and 9,936 earlier papers, not listed here" in parent
    async with sessions() as session:
        earliest = (await session.execute(select(func.min(Paper.digest_date)))).scalar_one()
    assert f"search them with `/claims &lt;words&gt; since:{earliest}`" in parent
    everything = str([m["blocks"] for m in messages])
    assert "bulk paper 9900*" in everything and "bulk paper 9999*" in everything
    assert "bulk paper 9899*" not in everything


async def test_an_offline_digest_post_posts_nothing_and_leaves_every_paper_for_the_channel(
    sessions: Sessions, database_url: URL, tmp_path: Path
) -> None:
    env = {
        "PAPERBOT_DATABASE_URL": database_url.render_as_string(hide_password=False),
        "PAPERBOT_DIGEST_CHANNEL": "C123",
        "PAPERBOT_ADMINS": "ADMIN",
        "PAPERBOT_EMBEDDER": "hash",
        "PAPERBOT_INDEX_DIR": str(tmp_path / "index"),
    }
    async with offline_bot(load_settings(env, dotenv_path=tmp_path / "none")) as bot:
        sent = await bot.ask("/digest post", user="ADMIN", channel="CLOCAL")
    assert "chat.postMessage" not in [s.via for s in sent]
    reply = str(sent[-1].payload)
    assert "Offline, nothing was posted or recorded" in reply and "36 new papers" in reply
    async with sessions() as session:
        assert (await session.execute(select(func.count()).select_from(LedgerPost))).scalar() == 0

    async with FakeSlack() as slack:  # the channel's real summary, next
        client = SlackMessenger(slack_client("xoxb-test", slack.api_url))
        real = await summary.post(
            sessions, client, "C123", summary.manual_period(), summary_messages, today=TODAY
        )
    assert (real.status, real.papers) == ("posted", 36)
    assert "36 new papers" in str(slack.called("chat.postMessage")[0]["blocks"])
