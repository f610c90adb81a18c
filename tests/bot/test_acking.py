"""A listener hands the request back to Bolt as soon as it acknowledges; its work goes on."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from slack_bolt.context.ack.async_ack import AsyncAck
from slack_bolt.context.respond.async_respond import AsyncRespond
from sqlalchemy.engine import URL

from bot.listeners.acking import returning_on_ack
from bot.services import Services
from bot.text_view import as_text
from storage import db
from tests.bot.conftest import Bot, bot_settings
from tests.fake_slack import FakeSlack


def new_ack() -> AsyncAck:
    return AsyncAck()  # type: ignore[no-untyped-call]  # Bolt's constructor has no hints


@pytest.fixture
async def services(sqlite_url: URL, tmp_path: Path) -> AsyncIterator[Services]:
    async with FakeSlack() as slack, db.open_engine(sqlite_url) as engine:
        yield Services(bot_settings(sqlite_url, slack, tmp_path), db.session_factory(engine))


async def test_a_command_is_answered_without_waiting_on_a_poll(bot: Bot) -> None:
    # Bolt's own way of running listeners polls for the acknowledgement every 10 ms, so
    # no command could be answered in under 10 ms; the fastest of 30 now is well under.
    took = []
    for _ in range(30):
        started = time.perf_counter()
        status, ack = await bot.command("/paper help")
        took.append(time.perf_counter() - started)
        assert status == 200
        assert "/paper" in as_text(ack)
    assert min(took) < 0.008


async def test_the_listener_returns_at_the_acknowledgement_and_its_work_goes_on(
    services: Services,
) -> None:
    steps: list[str] = []
    go_on = asyncio.Event()

    @returning_on_ack(services)
    async def listener(ack: AsyncAck) -> None:
        await ack("Looking…")
        steps.append("acked")
        await go_on.wait()
        steps.append("done")

    ack = new_ack()
    await asyncio.wait_for(listener(ack=ack), 1)
    assert ack.response is not None and ack.response.body == "Looking…"
    go_on.set()
    await services.drain(grace=1)  # shutdown waits for the work after the acknowledgement
    assert steps == ["acked", "done"]


async def test_a_failure_before_the_acknowledgement_reaches_bolt(services: Services) -> None:
    @returning_on_ack(services)
    async def listener(ack: AsyncAck) -> None:
        raise LookupError("before")

    with pytest.raises(LookupError):
        await listener(ack=new_ack())


async def test_a_failure_after_the_acknowledgement_is_told_through_the_response_url(
    services: Services, caplog: pytest.LogCaptureFixture
) -> None:
    @returning_on_ack(services)
    async def listener(ack: AsyncAck, respond: AsyncRespond) -> None:
        await ack("Looking…")
        await asyncio.sleep(0)
        raise LookupError("after")

    async with FakeSlack() as slack:
        await listener(ack=new_ack(), respond=AsyncRespond(response_url=slack.response_url()))
        await services.drain(grace=5)
        [told] = slack.called("response_url")
    assert "error id" in as_text(told)
    assert any(r.exc_info and r.exc_info[0] is LookupError for r in caplog.records)


async def test_an_event_listener_returns_at_once(services: Services) -> None:
    finished = asyncio.Event()

    @returning_on_ack(services)
    async def listener(event: dict[str, str]) -> None:
        await asyncio.sleep(0.05)
        finished.set()

    await listener(event={"type": "app_home_opened"})
    assert not finished.is_set()
    await services.drain(grace=1)
    assert finished.is_set()
