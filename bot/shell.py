"""`paperbot ask` and `paperbot shell`: slash commands through the real app, offline.

A command becomes a correctly signed Slack request dispatched through the same Bolt app
and listeners that serve Slack. What the bot sends back (the acknowledgement, response_url
posts, Web API calls) is captured by a local stand-in for Slack and printed.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from slack_bolt.async_app import AsyncApp
from slack_bolt.request.async_request import AsyncBoltRequest
from slack_sdk.signature import SignatureVerifier

from bot.app import build_app
from bot.command_table import NAMES
from bot.local_slack import LocalSlack
from bot.meaning import Meaning
from bot.services import Services
from bot.settings import Settings
from storage import db
from storage.search import read_dictionary


def signed_headers(body: str, secret: str, timestamp: int | None = None) -> dict[str, str]:
    """The headers Slack sends with a request, signed as Slack signs them."""
    ts = str(int(time.time()) if timestamp is None else timestamp)
    signed = SignatureVerifier(secret).generate_signature(timestamp=ts, body=body)
    assert signed is not None  # None only without a timestamp or a body
    return {
        "content-type": "application/x-www-form-urlencoded",
        "x-slack-request-timestamp": ts,
        "x-slack-signature": signed,
    }


def command_body(command: str, text: str, *, user: str, channel: str, response_url: str) -> str:
    return urlencode(
        {
            "token": "local",
            "team_id": "T0LOCAL",
            "team_domain": "local",
            "channel_id": channel,
            "channel_name": "local",
            "user_id": user,
            "user_name": user.lower(),
            "command": command,
            "text": text,
            "api_app_id": "A0LOCAL",
            "response_url": response_url,
            "trigger_id": f"{time.time():.0f}.local",
        }
    )


class UnknownCommand(ValueError):
    pass


@dataclass(frozen=True)
class Sent:
    via: str  # "ack", "response_url" or a Web API method such as "chat.postMessage"
    payload: dict[str, Any]


@dataclass
class OfflineBot:
    app: AsyncApp
    slack: LocalSlack
    secret: str
    settle_seconds: float

    async def ask(self, line: str, *, user: str, channel: str) -> list[Sent]:
        command, _, text = line.strip().partition(" ")
        if command not in NAMES:
            raise UnknownCommand(f"unknown command {command!r}: try {', '.join(NAMES)}")
        body = command_body(
            command,
            text.strip(),
            user=user,
            channel=channel,
            response_url=self.slack.response_url(),
        )
        seen = len(self.slack.calls)
        before = asyncio.all_tasks()
        headers: dict[str, str | Sequence[str]] = {**signed_headers(body, self.secret)}
        response = await self.app.async_dispatch(AsyncBoltRequest(body=body, headers=headers))
        await _settle(before, self.settle_seconds)
        sent = []
        if response.body:
            sent.append(Sent("ack", _json_or_text(response.body)))
        sent += [
            Sent(call.method, call.payload)
            for call in self.slack.calls[seen:]
            if call.method != "auth.test"
        ]
        return sent


def _json_or_text(body: str) -> dict[str, Any]:
    try:
        parsed = json.loads(body)
    except ValueError:
        return {"text": body}
    return parsed if isinstance(parsed, dict) else {"text": body}


async def _settle(before: set[asyncio.Task[Any]], seconds: float) -> None:
    """Wait until the work the request started (replies sent later, background jobs) ends."""
    deadline = time.monotonic() + seconds
    current = asyncio.current_task()
    while (left := deadline - time.monotonic()) > 0:
        pending = asyncio.all_tasks() - before - {current}
        if not pending:
            return
        await asyncio.wait(pending, timeout=min(left, 0.5))


@asynccontextmanager
async def offline_bot(settings: Settings) -> AsyncIterator[OfflineBot]:
    """The app on the configured database, talking to a local stand-in for Slack."""
    async with db.open_store(settings.database_url) as sessions, LocalSlack() as slack:
        meaning = await asyncio.to_thread(
            Meaning.load, settings.embedder, settings.index_dir, settings.database_url
        )
        services = Services(settings, sessions, offline=True, meaning=meaning)
        await meaning.start(services.sessions)  # vectors from `paperbot ingest`, searched now
        await read_dictionary(settings.index_dir)  # as `serve` does, before the command
        secret = settings.slack_signing_secret or secrets.token_hex(16)
        app = build_app(
            services, token=None, api_url=slack.api_url, signing_secret=secret, offline=True
        )
        try:
            yield OfflineBot(app, slack, secret, services.work_deadline + 5)
        finally:
            await services.drain(grace=services.work_deadline)
