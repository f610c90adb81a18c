"""The scheduler `serve` runs: the daily summary, the subscribers' messages and the
periodic scan of the digest folder.

APScheduler 3's AsyncIOScheduler, with every trigger built with the configured zone (a
trigger without one uses the host's). Its job store lives in memory, so what makes a
summary post exactly once is our ledger (storage/ledger.py): a period is the firing time,
claimed per channel. At start the latest firing is run once, so a summary missed while
the bot was down is posted when it comes back; one already posted is not posted again.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine
from datetime import datetime, timedelta
from typing import Any

from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.triggers.cron import CronTrigger

from bot import logs
from bot.blocks import subscription_messages, summary_messages
from bot.services import Services
from jobs import subscriptions, summary
from jobs.messaging import Messenger

log = logging.getLogger(__name__)

MISFIRE_GRACE_SECONDS = 6 * 3600  # a run late by less than this still happens, once


def latest_firing(trigger: CronTrigger, now: datetime) -> datetime | None:
    """The last time at or before `now` that the trigger fired (looking back a week)."""
    fired, step = None, trigger.get_next_fire_time(None, now - timedelta(days=7))
    while step is not None and step <= now:
        fired, step = step, trigger.get_next_fire_time(step, step + timedelta(seconds=1))
    return fired


async def post_summary(
    services: Services,
    messenger: Messenger,
    trigger: CronTrigger,
    now: datetime | None = None,
) -> summary.Outcome | None:
    settings = services.settings
    if not settings.digest_channel:
        return None
    now = now or datetime.now(settings.timezone)
    period = latest_firing(trigger, now) or now
    outcome = await summary.post(
        services.sessions,
        messenger,
        settings.digest_channel,
        period.isoformat(),
        summary_messages,
        today=period.date(),
        when_empty=settings.digest_when_empty,
    )
    log.info(
        "scheduled summary for %s: %s, %d papers%s",
        period.isoformat(),
        outcome.status,
        outcome.papers,
        f" ({outcome.error})" if outcome.error else "",
    )
    return outcome


async def scan_digest_folder(services: Services) -> None:
    async with services.ingest_guard.hold("schedule", None) as held:
        if not held:
            log.info("periodic scan skipped: an ingest is running")
            return
        report = await services.ingest_digest_folder("schedule")
    if report.errors or report.papers["new"]:
        log.info("periodic scan: %s", report.as_json())


async def deliver_subscriptions(
    services: Services, messenger: Messenger, now: datetime | None = None
) -> None:
    settings = services.settings
    await subscriptions.deliver_due(  # each post or failure is logged where it happens
        services.sessions,
        messenger,
        subscription_messages,
        now=now or datetime.now(settings.timezone),
        default_time=settings.subscription_time,
    )


def tracked(
    services: Services, work: Callable[..., Coroutine[Any, Any, Any]]
) -> Callable[..., Awaitable[Any]]:
    """Each run under its own log id, and tracked: shutdown waits for a running job instead
    of closing the database under it. The scheduler cancels the runs it is awaiting when it
    shuts down; the shield leaves the work itself to the services' drain."""

    async def run(*args: Any, **kwargs: Any) -> Any:
        task = services.spawn(work(*args, **kwargs), work.__name__)
        try:
            return await asyncio.shield(task)
        except asyncio.CancelledError:
            if task.done():
                raise
            log.debug("%s left to finish during shutdown", work.__name__)
            return None

    return logs.job(run)


def build_scheduler(services: Services, messenger: Messenger) -> AsyncIOScheduler:
    settings = services.settings

    def job(work: Callable[..., Coroutine[Any, Any, Any]]) -> Callable[..., Awaitable[Any]]:
        return tracked(services, work)

    scheduler = AsyncIOScheduler(
        timezone=settings.timezone,
        job_defaults={
            "coalesce": True,
            "max_instances": 1,
            "misfire_grace_time": MISFIRE_GRACE_SECONDS,
        },
    )
    if settings.digest_channel:
        trigger = CronTrigger.from_crontab(settings.digest_schedule, timezone=settings.timezone)
        scheduler.add_job(
            job(post_summary), trigger, args=[services, messenger, trigger], id="summary"
        )
        scheduler.add_job(
            job(post_summary), args=[services, messenger, trigger], id="summary-catch-up"
        )
    # Every few minutes (and at start): each subscriber gets one message a day, once their
    # time has come.
    every_5_minutes = CronTrigger.from_crontab("*/5 * * * *", timezone=settings.timezone)
    for job_id, trigger in (("subscriptions", every_5_minutes), ("subscriptions-at-start", None)):
        scheduler.add_job(
            job(deliver_subscriptions), trigger, args=[services, messenger], id=job_id
        )
    if settings.ingest_schedule:
        trigger = CronTrigger.from_crontab(settings.ingest_schedule, timezone=settings.timezone)
        scheduler.add_job(job(scan_digest_folder), trigger, args=[services], id="scan")
    return scheduler
