"""Subscription deliveries: only new matching papers, once a day, never a paper twice."""

from __future__ import annotations

import asyncio
import shutil
from datetime import datetime, time
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from bot.app import slack_client
from bot.blocks import subscription_messages
from bot.local_slack import LocalSlack
from jobs import subscriptions as delivery
from jobs.digest import Outcome
from jobs.ingest import ingest
from storage import db, subscriptions
from tests.bot.limits import limit_violations
from tests.digests import SEEDS, Entry, huggingface_digest, write

ZONE = ZoneInfo("Asia/Shanghai")
NINE = time(9, 0)
AUROC_PAPER = Entry("2612.00001", "Calibrated Judges",
                    abstract="Our judge reaches an AUROC of 0.91 on held-out prompts.")  # fmt: skip
OTHER_PAPER = Entry("2612.00002", "Faster Tokenizers",
                    abstract="We make tokenization 3.1x faster, outputs unchanged.")  # fmt: skip


@pytest.fixture
async def sessions(engine: AsyncEngine, tmp_path: Path) -> async_sessionmaker[AsyncSession]:
    shutil.copytree(SEEDS, tmp_path / "digests")
    factory = db.session_factory(engine)
    await ingest(factory, [tmp_path / "digests"])
    return factory


async def follow(sessions: async_sessionmaker[AsyncSession], subscriber: str, words: str,
                 post_time: str | None = None) -> None:  # fmt: skip
    async with sessions.begin() as session:
        added = await subscriptions.subscribe(session, subscriber, words, created_by="UADMIN1",
                                              post_time=post_time)  # fmt: skip
    assert added is not None


async def new_file(sessions: async_sessionmaker[AsyncSession], tmp_path: Path) -> None:
    text = huggingface_digest("2026-12-02", [AUROC_PAPER, OTHER_PAPER])
    report = await ingest(sessions, [write(tmp_path / "new" / "today.txt", text)])
    assert report.papers["new"] == 2


async def run(sessions: async_sessionmaker[AsyncSession], slack: LocalSlack,
              now: datetime) -> dict[str, Outcome]:  # fmt: skip
    client = slack_client("xoxb-test", slack.api_url)
    return await delivery.deliver_due(sessions, client, subscription_messages, now=now,
                                      default_time=NINE)  # fmt: skip


async def test_a_subscriber_gets_one_message_with_only_the_new_matching_paper(
    sessions: async_sessionmaker[AsyncSession], tmp_path: Path
) -> None:
    await follow(sessions, "USUB1", "AUROC")  # the seeds' AUROC papers are older than this
    await new_file(sessions, tmp_path)
    now = datetime(2026, 12, 2, 9, 5, tzinfo=ZONE)
    async with LocalSlack() as slack:
        first = await run(sessions, slack, now)
        second = await run(sessions, slack, now.replace(hour=17))
    assert first["USUB1"].status == "posted" and first["USUB1"].papers == 1
    assert second["USUB1"].status == "already claimed"  # today's message went out
    assert slack.called("conversations.open") == [{"users": "USUB1"}]
    (message,) = slack.called("chat.postMessage")
    assert message["channel"] == "DUSUB1"  # the direct message conversations.open gave
    shown = str(message["blocks"])
    assert "Calibrated Judges" in shown and "matches “AUROC”" in shown
    assert "Faster Tokenizers" not in shown and "RLCDAlignBench" not in shown
    assert limit_violations(message) == []


async def test_nothing_is_sent_before_the_subscriber_s_time_or_without_a_match(
    sessions: async_sessionmaker[AsyncSession], tmp_path: Path
) -> None:
    await follow(sessions, "USUB2", "AUROC")
    await follow(sessions, "USUB3", "quantum chromodynamics")
    await new_file(sessions, tmp_path)
    async with LocalSlack() as slack:
        early = await run(sessions, slack, datetime(2026, 12, 2, 8, 59, tzinfo=ZONE))
        later = await run(sessions, slack, datetime(2026, 12, 2, 9, 0, tzinfo=ZONE))
    assert early == {}
    assert later["USUB2"].status == "posted" and later["USUB3"].status == "nothing new"
    assert len(slack.called("chat.postMessage")) == 1


async def test_a_channel_subscription_posts_in_the_channel_at_its_own_time(
    sessions: async_sessionmaker[AsyncSession], tmp_path: Path
) -> None:
    await follow(sessions, "CTEAM2", "tokenization", post_time="16:30")
    await new_file(sessions, tmp_path)
    async with LocalSlack() as slack:
        at_nine = await run(sessions, slack, datetime(2026, 12, 2, 9, 5, tzinfo=ZONE))
        at_half_past_four = await run(sessions, slack, datetime(2026, 12, 2, 16, 31, tzinfo=ZONE))
    assert at_nine == {}
    assert at_half_past_four["CTEAM2"].status == "posted"
    (message,) = slack.called("chat.postMessage")
    assert message["channel"] == "CTEAM2" and "Faster Tokenizers" in str(message["blocks"])
    assert slack.called("conversations.open") == []


async def test_the_next_day_brings_only_papers_not_sent_before(
    sessions: async_sessionmaker[AsyncSession], tmp_path: Path
) -> None:
    await follow(sessions, "USUB4", "AUROC")
    await new_file(sessions, tmp_path)
    async with LocalSlack() as slack:
        await run(sessions, slack, datetime(2026, 12, 2, 9, 5, tzinfo=ZONE))
        later = huggingface_digest("2026-12-03", [Entry("2612.00003", "Judging the Judges",
                                   abstract="AUROC drops to 0.7 under paraphrase.")])  # fmt: skip
        await ingest(sessions, [write(tmp_path / "new" / "tomorrow.txt", later)])
        await run(sessions, slack, datetime(2026, 12, 3, 9, 5, tzinfo=ZONE))
    first, second = slack.called("chat.postMessage")
    assert "Calibrated Judges" in str(first["blocks"])
    assert "Judging the Judges" in str(second["blocks"])
    assert "Calibrated Judges" not in str(second["blocks"])


async def test_two_replicas_running_the_job_at_once_send_one_message(
    sessions: async_sessionmaker[AsyncSession], engine: AsyncEngine, tmp_path: Path
) -> None:
    await follow(sessions, "USUB5", "AUROC")
    await new_file(sessions, tmp_path)
    now = datetime(2026, 12, 2, 9, 5, tzinfo=ZONE)
    async with db.open_engine(engine.url) as other, LocalSlack() as slack:
        replicas = [sessions, db.session_factory(other)]
        await asyncio.gather(*(run(replica, slack, now) for replica in replicas))
    assert len(slack.called("chat.postMessage")) == 1


async def test_a_channel_has_one_time_of_day_the_last_one_given(
    sessions: async_sessionmaker[AsyncSession], tmp_path: Path
) -> None:
    await follow(sessions, "CTEAM3", "tokenization", post_time="16:30")
    await follow(sessions, "CTEAM3", "AUROC", post_time="18:00")
    await new_file(sessions, tmp_path)
    async with LocalSlack() as slack:
        at_five = await run(sessions, slack, datetime(2026, 12, 2, 17, 0, tzinfo=ZONE))
        at_six = await run(sessions, slack, datetime(2026, 12, 2, 18, 0, tzinfo=ZONE))
    assert at_five == {} and at_six["CTEAM3"].papers == 2
