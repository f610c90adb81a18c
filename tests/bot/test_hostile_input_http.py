"""Whatever a member types or a digest carries, the bot answers and stays up.

These are the inputs that once froze the whole process (the clipping of escaped text never
ended): over signed HTTP, each gets an answer inside Slack's limits while `/healthz` keeps
answering, on both stores.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import aiohttp
import pytest
from sqlalchemy.engine import URL

from bot.text_view import as_text
from jobs.ingest import ingest
from storage import db
from tests.bot.conftest import Bot, StartBot, seeded_copy
from tests.bot.limits import limit_violations
from tests.digests import Entry, huggingface_digest, write

FREEZERS = [
    "/paper &" + "a" * 210,
    "/claims " + "<" * 290,
    "/claims >" + "b" * 280,
    "/paper <!channel>" + "c" * 200,
    "/claims &<>" * 30,
    "/paper " + "&" * 299,
]


async def healthy(bot: Bot) -> int:
    async with bot.http.get(f"{bot.url}/healthz", timeout=aiohttp.ClientTimeout(total=2)) as r:
        return r.status


@pytest.fixture
async def bot(start_bot: StartBot, database_url: URL) -> Bot:
    """The bot on a seeded database of its own: these tests write."""
    return await start_bot(await seeded_copy(database_url))


async def test_the_commands_that_froze_the_bot_are_answered_and_health_stays_ok(bot: Bot) -> None:
    for line in FREEZERS:
        (status, reply), health = await asyncio.gather(bot.command(line), healthy(bot))
        assert (status, health) == (200, 200), line[:40]
        assert limit_violations(reply) == []
        assert as_text(reply).strip()
    assert await healthy(bot) == 200


async def test_a_stored_hostile_subscription_still_lists_and_can_be_removed(bot: Bot) -> None:
    words = "& " + " ".join(["AUROC"] * 32)  # 194 characters: stored as typed
    status, added = await bot.command(f"/paper subscribe {words}", user="UHOSTILE")
    assert status == 200
    assert "Following" in as_text(added)
    for _ in range(2):  # listing it again and again (it froze on every restart)
        status, listed = await bot.command("/paper subscriptions", user="UHOSTILE")
        assert status == 200 and limit_violations(listed) == []
        assert "&amp; AUROC AUROC" in str(listed)
    status, removed = await bot.command(f"/paper unsubscribe {words}", user="UHOSTILE")
    assert "Removed" in as_text(removed)


async def test_a_digest_title_that_mentions_channel_is_shown_escaped(
    bot: Bot, database_url: URL, tmp_path: Path
) -> None:
    title = "<!channel> " + "&<>" * 60 + " Attention Is Cheap"
    path = write(
        tmp_path / "hostile" / "hf.txt",
        huggingface_digest("2026-11-01", [Entry("2611.00001", title)]),
    )
    async with db.open_engine(database_url) as engine:
        report = await ingest(db.session_factory(engine), [path])
    assert report.papers["new"] == 1
    for line in ("/paper 2611.00001", "/paper Attention Is Cheap", "/claims 3.2% paper:2611.00001"):
        status, reply = await bot.command(line)
        assert status == 200 and limit_violations(reply) == []
        assert "<!channel>" not in str(reply)
    assert await healthy(bot) == 200
