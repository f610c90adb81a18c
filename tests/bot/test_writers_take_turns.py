"""Subscribing and removing while others write: every writer waits its turn, none fails.

On SQLite a transaction that reads and then writes under a plain BEGIN cannot write once
another connection holds the write lock ("database is locked"); these paths take the
writers' turn first, as the ingest does.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from sqlalchemy import func, select
from sqlalchemy.engine import URL

from bot.blocks import WORKING
from bot.text_view import as_text
from storage import db, runs
from storage.models import Subscription
from tests.bot.conftest import Bot, StartBot, buttons

CROWD = 20


@pytest.fixture
async def bot(start_bot: StartBot, database_url: URL) -> Bot:
    return await start_bot(database_url)


async def replies(bot: Bot, acks: list[dict[str, Any]]) -> list[str]:
    """What each user finally read: the acknowledgement, or the reply that followed it
    through the response URL when the acknowledgement said "Looking…"."""
    later = [ack for ack in acks if ack.get("text") == WORKING.text]
    followed = await bot.responses(len(later), within=30) if later else []
    return [as_text(a) for a in acks if a not in later] + [as_text(f) for f in followed]


async def subscriptions_stored(url: URL) -> int:
    async with db.open_engine(url) as engine, db.session_factory(engine)() as session:
        return (await session.execute(select(func.count()).select_from(Subscription))).scalar_one()


async def test_twenty_users_subscribing_at_once_all_succeed(bot: Bot, database_url: URL) -> None:
    answered = await asyncio.gather(
        *(bot.command("/paper subscribe AUROC", user=f"UCROWD{n:02}") for n in range(CROWD))
    )
    assert [status for status, _ in answered] == [200] * CROWD
    read = await replies(bot, [ack for _, ack in answered])
    assert len(read) == CROWD
    for text in read:
        assert text.startswith("Following “AUROC”: you get new papers"), text
    assert await subscriptions_stored(database_url) == CROWD


async def test_subscribe_and_remove_wait_for_a_writer_and_succeed(
    bot: Bot, database_url: URL
) -> None:
    _, listed = await bot.command("/paper subscribe 延迟", user="UWAIT2")
    remove = buttons(listed)["Remove"]
    # A writer in the middle of its work, as an ingest of a big file is.
    async with (
        db.open_engine(database_url) as engine,
        db.writing(db.session_factory(engine)) as session,
    ):
        await runs.start_run(session, trigger="cli", triggered_by=None, forced=False)
        subscribing = asyncio.ensure_future(bot.command("/paper subscribe AUROC", user="UWAIT1"))
        removing = asyncio.ensure_future(bot.click(remove, user="UWAIT2"))
        await asyncio.sleep(1)  # both have reached the database and wait there
        assert not subscribing.done()
    status, ack = await subscribing
    assert (status, await removing) == (200, 200)
    # The subscription's answer (in the acknowledgement, or after "Looking…") and the
    # redrawn list after *Remove* (through the response URL).
    later = 1 + (ack.get("text") == WORKING.text)
    said = [as_text(ack)] + [as_text(p) for p in await bot.responses(later)]
    assert any(text.startswith("Following “AUROC”: you get new papers") for text in said), said
    assert any(text.startswith("Removed “延迟”.") for text in said), said
    _, now = await bot.command("/paper subscriptions", user="UWAIT2")
    assert "You follow nothing yet." in as_text(now)
    assert await subscriptions_stored(database_url) == 1
