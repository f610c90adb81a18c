"""The bot served over real HTTP, with a fake Slack (our own FakeSlack) recording calls."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import aiohttp
import pytest
from sqlalchemy.engine import URL

from bot.blocks import WORKING
from bot.server import running
from bot.settings import Settings, load_settings
from bot.shell import command_body, signed_headers
from bot.text_view import as_text
from jobs.ingest import ingest
from storage import db
from tests.digests import SEEDS
from tests.fake_slack import FakeSlack

SECRET = "test-signing-secret-5e1f"
TOKEN = "xoxb-test-token-9c2d"
ADMIN = "UADMIN1"


def bot_settings(url: URL, slack: FakeSlack, tmp_path: Path, **extra: str) -> Settings:
    env = {
        "PAPERBOT_DATABASE_URL": url.render_as_string(hide_password=False),
        "SLACK_BOT_TOKEN": TOKEN,
        "SLACK_SIGNING_SECRET": SECRET,
        "SLACK_API_URL": slack.api_url,
        "PAPERBOT_ADMINS": ADMIN,
        "PAPERBOT_DIGEST_DIR": str(tmp_path / "digests"),
        "PAPERBOT_SETTLE_SECONDS": "0",  # files written by a test are whole at once
        "PAPERBOT_EMBEDDER": "hash",  # the stand-in: tests never run the real model unasked
        "PAPERBOT_INDEX_DIR": str(tmp_path / "index"),
    } | extra
    return load_settings(env, dotenv_path=tmp_path / "no.env")


@dataclass
class Bot:
    """Talks to the running bot as Slack does."""

    url: str
    slack: FakeSlack
    http: aiohttp.ClientSession

    async def post(
        self,
        body: str,
        *,
        secret: str = SECRET,
        timestamp: int | None = None,
        json_body: bool = False,
    ) -> tuple[int, str]:
        headers = signed_headers(body, secret, timestamp)
        if json_body:
            headers["content-type"] = "application/json"
        async with self.http.post(
            f"{self.url}/slack/events", data=body.encode(), headers=headers
        ) as response:
            return response.status, await response.text()

    async def command(
        self, line: str, *, user: str = "UMEMBER1", channel: str = "CPAPERS", **kwargs: Any
    ) -> tuple[int, dict[str, Any]]:
        command, _, text = line.partition(" ")
        body = command_body(
            command, text, user=user, channel=channel, response_url=self.slack.response_url()
        )
        status, text_body = await self.post(body, **kwargs)
        return status, (json.loads(text_body) if text_body.startswith("{") else {"raw": text_body})

    async def answer(self, line: str, **kwargs: Any) -> dict[str, Any]:
        """What the user finally reads: the acknowledgement, or, when that said "Looking…"
        (a slow machine), what then came through the response URL. One command at a time."""
        posted = len(self.slack.called("response_url"))
        _, reply = await self.command(line, **kwargs)
        if reply.get("text") == WORKING.text:
            reply = (await self.responses(posted + 1, within=30))[posted]
        return reply

    async def event(self, event: dict[str, Any]) -> int:
        """Deliver an Events API event, as Slack posts it."""
        body = {
            "token": "local",
            "team_id": "T0LOCAL",
            "api_app_id": "A0LOCAL",
            "event": event,
            "type": "event_callback",
            "event_id": f"Ev{time.time_ns()}",
            "event_time": int(time.time()),
            "authorizations": [{"team_id": "T0LOCAL", "user_id": "U0PAPERBOT", "is_bot": True}],
        }
        status, _ = await self.post(json.dumps(body), json_body=True)
        return status

    async def click(
        self,
        button: dict[str, Any],
        *,
        user: str = "UMEMBER1",
        channel: str = "CPAPERS",
        **extra: Any,
    ) -> int:
        payload = {
            "type": "block_actions",
            "team": {"id": "T0LOCAL"},
            "user": {"id": user},
            "api_app_id": "A0LOCAL",
            "token": "local",
            "trigger_id": "1.local",
            "channel": {"id": channel},
            "container": {"type": "message"},
            "response_url": self.slack.response_url("button"),
            "actions": [
                {
                    "type": "button",
                    "action_id": button["action_id"],
                    "block_id": "b",
                    "value": button["value"],
                    "action_ts": f"{time.time():.6f}",
                }
            ],
        } | extra
        payload = {k: v for k, v in payload.items() if v is not None}
        status, _ = await self.post(urlencode({"payload": json.dumps(payload)}))
        return status

    async def responses(self, count: int = 1, within: float = 10) -> list[dict[str, Any]]:
        """Wait for `count` posts to response URLs and return them all."""
        return await self.slack.wait_for("response_url", count, within)


def buttons(payload: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The buttons of a message by label (without counts in parentheses)."""
    found = {}
    for block in payload.get("blocks", []):
        elements = block.get("elements", []) if block["type"] == "actions" else []
        if block.get("accessory"):
            elements = [block["accessory"]]
        for element in elements:
            if element.get("type") == "button":
                found[element["text"]["text"].split(" (")[0]] = element
    return found


async def until_by_meaning(bot: Bot, line: str, within: float = 30) -> dict[str, Any]:
    """The reply to `line` once it holds a hit by meaning: the index is built (and new
    items embedded) in the background while lexical search already answers (meanwhile a
    search finding nothing may be answered by its correction)."""
    deadline = time.monotonic() + within
    while True:
        status, reply = await bot.command(line)
        assert status == 200
        text = as_text(reply)
        ready = "similar meaning" in text and not text.startswith("Showing results for")
        if ready or time.monotonic() > deadline:
            return reply
        await asyncio.sleep(0.2)


StartBot = Callable[..., Awaitable[Bot]]


async def seeded_copy(url: URL) -> URL:
    """The seeds ingested into a test's own empty database (which it may write to)."""
    async with db.open_engine(url) as engine:
        await db.upgrade(engine)
        await ingest(db.session_factory(engine), [SEEDS])
    return url


@pytest.fixture
async def start_bot(tmp_path: Path) -> AsyncIterator[StartBot]:
    """Start the bot on a database; yields a function so a test can choose settings."""
    async with FakeSlack() as slack, aiohttp.ClientSession() as http:
        stack: list[Any] = []

        async def start(url: URL, **extra: str) -> Bot:
            serving = running(bot_settings(url, slack, tmp_path, **extra), host="127.0.0.1", port=0)
            port = await serving.__aenter__()
            stack.append(serving)
            return Bot(f"http://127.0.0.1:{port}", slack, http)

        yield start
        for serving in reversed(stack):
            await serving.__aexit__(None, None, None)


@pytest.fixture
async def bot(start_bot: StartBot, seeded_url: URL) -> Bot:
    """The bot on the seeded database of each kind (read-only), once search by meaning
    is ready, so that every test sees the same rankings and totals."""
    bot = await start_bot(seeded_url)
    await until_by_meaning(bot, "/claims AUROC zebra")
    return bot
