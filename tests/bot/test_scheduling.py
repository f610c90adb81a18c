"""The scheduler's jobs: firing periods, two replicas on one database, the folder scan."""

from __future__ import annotations

import asyncio
import logging
import shutil
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.triggers.cron import CronTrigger
from sqlalchemy.engine import URL

from bot.app import slack_client
from bot.messenger import SlackMessenger
from bot.scheduling import build_scheduler, latest_firing, tracked
from bot.services import Services
from bot.settings import load_settings
from storage import db
from tests.digests import SEEDS, Entry, huggingface_digest, write
from tests.fake_slack import FakeSlack

SHANGHAI = ZoneInfo("Asia/Shanghai")


@pytest.mark.parametrize(
    ("now", "expected"),
    [
        (
            datetime(2026, 12, 2, 10, 0, tzinfo=SHANGHAI),
            datetime(2026, 12, 2, 9, 0, tzinfo=SHANGHAI),
        ),
        (
            datetime(2026, 12, 2, 9, 0, tzinfo=SHANGHAI),
            datetime(2026, 12, 2, 9, 0, tzinfo=SHANGHAI),
        ),
        (
            datetime(2026, 12, 2, 8, 59, tzinfo=SHANGHAI),
            datetime(2026, 12, 1, 9, 0, tzinfo=SHANGHAI),
        ),
    ],
)
def test_a_period_is_the_latest_firing_in_the_configured_zone(
    now: datetime, expected: datetime
) -> None:
    trigger = CronTrigger.from_crontab("0 9 * * *", timezone=SHANGHAI)
    assert latest_firing(trigger, now) == expected


async def test_two_replicas_post_each_period_once(database_url: URL, tmp_path: Path) -> None:
    shutil.copytree(SEEDS, tmp_path / "digests")
    env = {
        "PAPERBOT_DATABASE_URL": database_url.render_as_string(hide_password=False),
        "PAPERBOT_DIGEST_CHANNEL": "CTEAM",
        "PAPERBOT_TIMEZONE": "Asia/Shanghai",
        "PAPERBOT_DIGEST_DIR": str(tmp_path / "digests"),
        "PAPERBOT_SETTLE_SECONDS": "0",
    }
    settings = load_settings(env, dotenv_path=tmp_path / "none")
    async with (
        FakeSlack() as slack,
        db.open_engine(settings.database_url) as one,
        db.open_engine(settings.database_url) as two,
    ):
        await db.upgrade(one)
        replicas = [Services(settings, db.session_factory(e)) for e in (one, two)]
        client = SlackMessenger(slack_client("xoxb-test", slack.api_url))
        jobs = [{j.id: j for j in build_scheduler(r, client).get_jobs()} for r in replicas]
        assert set(jobs[0]) == {
            "summary",
            "summary-catch-up",
            "scan",
            "subscriptions",
            "subscriptions-at-start",
        }

        # Each replica's periodic scan: one ingests, the other finds nothing new.
        for replica in jobs:
            await replica["scan"].func(*replica["scan"].args)
        nine = datetime(2026, 12, 2, 9, 0, 30, tzinfo=SHANGHAI)
        outcomes = await asyncio.gather(
            *(replica["summary"].func(*replica["summary"].args, now=nine) for replica in jobs)
        )
        # A restart: a new scheduler runs its catch-up for the same firing.
        restarted = build_scheduler(replicas[1], client).get_job("summary-catch-up")
        again = await restarted.func(*restarted.args, now=nine)

        write(
            tmp_path / "digests" / "late.txt",
            huggingface_digest("2026-10-05", [Entry("2610.77777", "Late Paper")]),
        )
        await jobs[1]["scan"].func(*jobs[1]["scan"].args)
        tomorrow = datetime(2026, 12, 3, 9, 0, 5, tzinfo=SHANGHAI)
        next_day = await jobs[0]["summary"].func(*jobs[0]["summary"].args, now=tomorrow)

    parents = [m for m in slack.called("chat.postMessage") if not m.get("thread_ts")]
    assert sorted(o.status for o in outcomes if o)[-1] == "posted"
    assert [o.status for o in outcomes if o].count("posted") == 1
    assert again is not None and again.status == "already claimed"  # that firing was posted
    assert next_day is not None and (next_day.status, next_day.papers) == ("posted", 1)
    assert len(parents) == 2
    assert "Late Paper" in str(parents[1]["blocks"])


async def test_a_job_running_at_shutdown_finishes_without_an_error(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The scheduler cancels the runs it awaits when it shuts down; the work itself is left
    to finish in the drain instead of failing with a traceback half-way through a query."""
    settings = load_settings({}, dotenv_path=tmp_path / "none")
    services = Services(settings, sessions=None)  # type: ignore[arg-type]
    started, finished = asyncio.Event(), asyncio.Event()

    async def slow_work() -> None:
        started.set()
        await asyncio.sleep(0.3)
        finished.set()

    scheduler = AsyncIOScheduler()
    scheduler.add_job(tracked(services, slow_work), id="slow")
    scheduler.start()
    await asyncio.wait_for(started.wait(), timeout=5)
    scheduler.shutdown(wait=False)
    await services.drain(grace=5)

    assert finished.is_set()
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text
