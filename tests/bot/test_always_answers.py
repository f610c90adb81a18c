"""Slack gets an answer within 3 seconds even when the database hangs or is gone."""

from __future__ import annotations

import re
import time

import asyncpg
import pytest
from sqlalchemy.engine import URL

from bot.text_view import as_text
from tests.bot.conftest import StartBot


def dsn(url: URL) -> str:
    return url.set(drivername="postgresql").render_as_string(hide_password=False)


async def test_a_hanging_postgresql_still_answers_in_time_then_says_why(
    start_bot: StartBot, postgres_url: URL, caplog: pytest.LogCaptureFixture
) -> None:
    bot = await start_bot(postgres_url, PAPERBOT_COMMAND_TIMEOUT="3")
    locker = await asyncpg.connect(dsn(postgres_url))
    transaction = locker.transaction()
    await transaction.start()
    await locker.execute("LOCK TABLE papers IN ACCESS EXCLUSIVE MODE")  # every read now waits
    try:
        started = time.monotonic()
        status, ack = await bot.command("/paper GAPO")
        acked_after = time.monotonic() - started
        followup = as_text((await bot.responses(1, within=15))[0])
    finally:
        await transaction.rollback()
        await locker.close()

    assert status == 200
    assert acked_after < 3
    assert "Looking" in as_text(ack)
    assert "not answering" in followup
    error_id = re.search(r"error id `?([\w-]+)", followup)
    assert error_id is not None
    logged = [r for r in caplog.records if error_id.group(1) in r.getMessage()]
    assert logged and logged[0].exc_info is not None  # the log has the traceback


async def test_healthz_says_503_when_the_database_refuses_connections(
    start_bot: StartBot, postgres_url: URL, postgres_server_url: str
) -> None:
    bot = await start_bot(postgres_url)
    async with bot.http.get(f"{bot.url}/healthz") as response:
        assert response.status == 200
    admin = await asyncpg.connect(postgres_server_url.replace("+asyncpg", ""))
    name = postgres_url.database
    try:
        await admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false')
        await admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1", name
        )
        async with bot.http.get(f"{bot.url}/healthz") as response:
            assert response.status == 503
            assert (await response.json())["status"] == "unavailable"
    finally:
        await admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')
        await admin.close()
