"""Subscription deliveries: only new matching papers, once a day, never a paper twice."""

from __future__ import annotations

import asyncio
import logging
from datetime import date, datetime, time
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from aiohttp import web
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.app import slack_client
from bot.blocks import subscription_messages, summary_messages
from bot.messenger import SlackMessenger
from jobs import subscriptions as delivery
from jobs.ingest import ingest
from jobs.summary import Outcome, post
from storage import db, subscriptions
from storage.db import Sessions
from storage.models import LedgerPaper, Paper, Subscription
from storage.status import store_status
from tests.bot.limits import limit_violations
from tests.digests import Entry, huggingface_digest, write
from tests.fake_slack import FakeSlack
from tests.jobs.bulk import add_papers

ZONE = ZoneInfo("Asia/Shanghai")
NINE = time(9, 0)
AUROC_PAPER = Entry(
    "2612.00001",
    "Calibrated Judges",
    abstract="Our judge reaches an AUROC of 0.91 on held-out prompts.",
)
OTHER_PAPER = Entry(
    "2612.00002",
    "Faster Tokenizers",
    abstract="We make tokenization 3.1x faster, outputs unchanged.",
)


@pytest.fixture
def sessions(seeded: Sessions) -> Sessions:
    return seeded  # every test here starts from the seeds


async def follow(
    sessions: Sessions, subscriber: str, words: str, post_time: str | None = None
) -> None:
    async with sessions.begin() as session:
        added = await subscriptions.subscribe(
            session, subscriber, words, created_by="UADMIN1", post_time=post_time
        )
    assert added is not None


async def new_file(sessions: Sessions, tmp_path: Path) -> None:
    text = huggingface_digest("2026-12-02", [AUROC_PAPER, OTHER_PAPER])
    report = await ingest(sessions, [write(tmp_path / "new" / "today.txt", text)])
    assert report.papers["new"] == 2


async def run(sessions: Sessions, slack: FakeSlack, now: datetime) -> dict[str, Outcome]:
    client = SlackMessenger(slack_client("xoxb-test", slack.api_url))
    return await delivery.deliver_due(
        sessions, client, subscription_messages, now=now, default_time=NINE
    )


async def test_a_subscriber_gets_one_message_with_only_the_new_matching_paper(
    sessions: Sessions, tmp_path: Path
) -> None:
    await follow(sessions, "USUB1", "AUROC")  # the seeds' AUROC papers are older than this
    await new_file(sessions, tmp_path)
    now = datetime(2026, 12, 2, 9, 5, tzinfo=ZONE)
    async with FakeSlack() as slack:
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
    sessions: Sessions, tmp_path: Path
) -> None:
    await follow(sessions, "USUB2", "AUROC")
    await follow(sessions, "USUB3", "quantum chromodynamics")
    await new_file(sessions, tmp_path)
    async with FakeSlack() as slack:
        early = await run(sessions, slack, datetime(2026, 12, 2, 8, 59, tzinfo=ZONE))
        later = await run(sessions, slack, datetime(2026, 12, 2, 9, 0, tzinfo=ZONE))
    assert early == {}
    assert later["USUB2"].status == "posted" and later["USUB3"].status == "nothing new"
    assert len(slack.called("chat.postMessage")) == 1


async def test_a_channel_subscription_posts_in_the_channel_at_its_own_time(
    sessions: Sessions, tmp_path: Path
) -> None:
    await follow(sessions, "CTEAM2", "tokenization", post_time="16:30")
    await new_file(sessions, tmp_path)
    async with FakeSlack() as slack:
        at_nine = await run(sessions, slack, datetime(2026, 12, 2, 9, 5, tzinfo=ZONE))
        at_half_past_four = await run(sessions, slack, datetime(2026, 12, 2, 16, 31, tzinfo=ZONE))
    assert at_nine == {}
    assert at_half_past_four["CTEAM2"].status == "posted"
    (message,) = slack.called("chat.postMessage")
    assert message["channel"] == "CTEAM2" and "Faster Tokenizers" in str(message["blocks"])
    assert slack.called("conversations.open") == []


async def test_the_next_day_brings_only_papers_not_sent_before(
    sessions: Sessions, tmp_path: Path
) -> None:
    await follow(sessions, "USUB4", "AUROC")
    await new_file(sessions, tmp_path)
    async with FakeSlack() as slack:
        await run(sessions, slack, datetime(2026, 12, 2, 9, 5, tzinfo=ZONE))
        later = huggingface_digest(
            "2026-12-03",
            [
                Entry(
                    "2612.00003",
                    "Judging the Judges",
                    abstract="AUROC drops to 0.7 under paraphrase.",
                )
            ],
        )
        await ingest(sessions, [write(tmp_path / "new" / "tomorrow.txt", later)])
        await run(sessions, slack, datetime(2026, 12, 3, 9, 5, tzinfo=ZONE))
    first, second = slack.called("chat.postMessage")
    assert "Calibrated Judges" in str(first["blocks"])
    assert "Judging the Judges" in str(second["blocks"])
    assert "Calibrated Judges" not in str(second["blocks"])


async def test_two_replicas_running_the_job_at_once_send_one_message(
    sessions: Sessions, engine: AsyncEngine, tmp_path: Path
) -> None:
    await follow(sessions, "USUB5", "AUROC")
    await new_file(sessions, tmp_path)
    now = datetime(2026, 12, 2, 9, 5, tzinfo=ZONE)
    async with db.open_engine(engine.url) as other, FakeSlack() as slack:
        replicas = [sessions, db.session_factory(other)]
        await asyncio.gather(*(run(replica, slack, now) for replica in replicas))
    assert len(slack.called("chat.postMessage")) == 1


async def test_a_channel_has_one_time_of_day_the_last_one_given(
    sessions: Sessions, tmp_path: Path
) -> None:
    await follow(sessions, "CTEAM3", "tokenization", post_time="16:30")
    await follow(sessions, "CTEAM3", "AUROC", post_time="18:00")
    await new_file(sessions, tmp_path)
    async with FakeSlack() as slack:
        at_five = await run(sessions, slack, datetime(2026, 12, 2, 17, 0, tzinfo=ZONE))
        at_six = await run(sessions, slack, datetime(2026, 12, 2, 18, 0, tzinfo=ZONE))
    assert at_five == {} and at_six["CTEAM3"].papers == 2


async def watermark(sessions: Sessions, subscriber: str) -> int | None:
    async with sessions() as session:
        found = await session.execute(
            select(func.max(Subscription.matched_through)).where(
                Subscription.subscriber == subscriber
            )
        )
        return found.scalar_one()


async def newest_paper(sessions: Sessions) -> int:
    async with sessions() as session:
        return (await session.execute(select(func.max(Paper.id)))).scalar_one()


async def test_the_watermark_moves_on_when_nothing_matches_and_later_matches_still_come(
    sessions: Sessions, tmp_path: Path
) -> None:
    await follow(sessions, "USUB6", "chromodynamics")
    await new_file(sessions, tmp_path)
    async with FakeSlack() as slack:
        quiet = await run(sessions, slack, datetime(2026, 12, 2, 9, 5, tzinfo=ZONE))
        after_quiet = await watermark(sessions, "USUB6")
        newest = await newest_paper(sessions)
        qcd = Entry("2612.00009", "Lattice QCD", abstract="Quantum chromodynamics on a lattice.")
        lattice = huggingface_digest("2026-12-02", [qcd])
        await ingest(sessions, [write(tmp_path / "new" / "later.txt", lattice)])
        later = await run(sessions, slack, datetime(2026, 12, 2, 9, 10, tzinfo=ZONE))
    assert quiet["USUB6"].status == "nothing new"
    assert after_quiet == newest  # the next run looks only at papers newer than these
    assert later["USUB6"].status == "posted" and later["USUB6"].papers == 1
    (message,) = slack.called("chat.postMessage")
    assert "Lattice QCD" in str(message["blocks"])
    assert await watermark(sessions, "USUB6") == await newest_paper(sessions)


async def test_more_new_papers_than_postgresql_takes_parameters_are_matched_and_sent_once(
    sessions: Sessions,
) -> None:
    """33,000 new papers: no query binds a parameter per paper (PostgreSQL refuses more
    than 32,767); a message lists 20 and counts the rest, all of them covered."""
    await follow(sessions, "URARE1", "heliotrope")
    await follow(sessions, "UMANY1", "sparse routing")
    await add_papers(sessions, 33_000, day=date(2026, 12, 1))
    await add_papers(
        sessions,
        3,
        day=date(2026, 12, 1),
        prefix="rare",
        abstract="Heliotrope flowers track the sun.",
    )
    async with FakeSlack() as slack:
        first = await run(sessions, slack, datetime(2026, 12, 2, 9, 5, tzinfo=ZONE))
        next_day = await run(sessions, slack, datetime(2026, 12, 3, 9, 5, tzinfo=ZONE))
    assert (first["URARE1"].status, first["URARE1"].papers) == ("posted", 3)
    assert (first["UMANY1"].status, first["UMANY1"].papers) == ("posted", 33_000)
    assert {o.status for o in next_day.values()} == {"nothing new"}
    many, rare = sorted(slack.called("chat.postMessage"), key=lambda m: str(m["channel"]))
    assert (many["channel"], rare["channel"]) == ("DUMANY1", "DURARE1")
    assert "3 new papers" in str(rare["blocks"]) and "rare paper 2*" in str(rare["blocks"])
    assert "33,000 new papers" in str(many["blocks"])
    assert "…and 32,980 more: search with `/paper`." in str(many["blocks"])
    assert "bulk paper 32999*" in str(many["blocks"])  # the newest are listed
    assert limit_violations(many) == []
    async with sessions() as session:
        recorded = select(func.count()).select_from(LedgerPaper)
        assert (await session.execute(recorded)).scalar_one() == 33_003


class NoConversation(FakeSlack):
    """Answers conversations.open for one user without the conversation in it."""

    def __init__(self, user: str):
        super().__init__()
        self.user = user

    async def answer(self, method: str, payload: dict[str, Any]) -> web.Response:
        if method == "conversations.open" and payload.get("users") == self.user:
            return web.json_response({"ok": True})
        return await super().answer(method, payload)


async def test_one_subscriber_s_error_is_logged_and_the_others_get_their_message(
    sessions: Sessions, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    await follow(sessions, "UBROKEN", "AUROC")  # sorted first: the others come after it
    await follow(sessions, "USUB7", "AUROC")
    await new_file(sessions, tmp_path)
    with caplog.at_level(logging.ERROR):
        async with NoConversation("UBROKEN") as slack:
            today = await run(sessions, slack, datetime(2026, 12, 2, 9, 5, tzinfo=ZONE))
    assert today["UBROKEN"].status == "failed" and today["UBROKEN"].error
    assert today["USUB7"].status == "posted"
    assert [m["channel"] for m in slack.called("chat.postMessage")] == ["DUSUB7"]
    (logged,) = [r for r in caplog.records if r.name == "jobs.subscriptions"]
    assert logged.getMessage() == "subscription delivery to UBROKEN failed"
    assert logged.exc_info is not None  # the traceback is in the log
    async with FakeSlack() as healed:  # its papers were not lost: they come the next day
        tomorrow = await run(sessions, healed, datetime(2026, 12, 3, 9, 5, tzinfo=ZONE))
    assert tomorrow["UBROKEN"].status == "posted" and tomorrow["UBROKEN"].papers == 1


async def test_status_shows_the_channel_summary_not_a_subscribers_message(
    sessions: Sessions, tmp_path: Path
) -> None:
    """Both are kept in one ledger; `paperbot status` reports the summary's last post."""
    await follow(sessions, "USUB1", "AUROC")
    await new_file(sessions, tmp_path)
    async with FakeSlack() as slack:
        messenger = SlackMessenger(slack_client("xoxb-test", slack.api_url))
        summary = await post(
            sessions, messenger, "CTEAM", "p1", summary_messages, today=date(2026, 12, 2)
        )
        delivered = await run(sessions, slack, datetime(2026, 12, 2, 9, 5, tzinfo=ZONE))
    assert summary.status == delivered["USUB1"].status == "posted"
    async with sessions() as session:
        last = (await store_status(session)).last_digest
    assert last is not None and last["channel"] == "CTEAM" and last["status"] == "posted"


async def test_authors_and_excluded_words_choose_what_a_subscriber_gets(
    sessions: Sessions, tmp_path: Path
) -> None:
    await follow(sessions, "USUB9", "author:turing -tokenization")
    await follow(sessions, "USUB9", 'we -"held-out prompts"')
    await follow(sessions, "USUB9", 'author:"Grace Hopper"')
    await new_file(sessions, tmp_path)
    async with sessions() as session:
        found = await subscriptions.new_matches(session, "USUB9")
    keys = {key: found.words[paper] for paper, key in found.keys.items()}
    assert keys == {
        "arxiv:2612.00001": ["author:turing -tokenization"],
        "arxiv:2612.00002": ['we -"held-out prompts"'],
    }
