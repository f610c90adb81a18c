"""The one place that wires the Slack app: a Bolt AsyncApp with every listener."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from slack_bolt.async_app import AsyncApp
from slack_sdk.http_retry.builtin_async_handlers import (
    AsyncRateLimitErrorRetryHandler,
    AsyncServerErrorRetryHandler,
)
from slack_sdk.web.async_client import AsyncWebClient

from bot import logs
from bot.listeners import register_listeners
from bot.services import Services

log = logging.getLogger(__name__)
OFFLINE_TOKEN = "xoxb-offline"  # what `ask` and `shell` send to their stand-in for Slack


def slack_client(token: str | None, base_url: str) -> AsyncWebClient:
    """A Web API client on `SLACK_API_URL` that also retries 429 (after Retry-After) and
    5xx answers, which slack_sdk does not by default."""
    return _configured(AsyncWebClient(token=token), base_url)


def _configured(client: AsyncWebClient, base_url: str) -> AsyncWebClient:
    client.base_url = base_url
    client.retry_handlers.append(AsyncRateLimitErrorRetryHandler(max_retry_count=2))
    client.retry_handlers.append(AsyncServerErrorRetryHandler(max_retry_count=2))
    return client


def build_app(
    services: Services,
    *,
    token: str | None,
    api_url: str,
    signing_secret: str,
    offline: bool = False,
) -> AsyncApp:
    """The Slack app; `app.client` is its Web API client. `offline` (for `ask` and `shell`,
    where Slack is a local stand-in) needs no token: a fixed one is used instead.

    Bolt is given the token and makes the client itself (then pointed at `api_url`): given
    a client as well, it warns at each start that the token, which it also reads from
    SLACK_BOT_TOKEN on its own, will be unused."""
    app = AsyncApp(
        token=OFFLINE_TOKEN if offline else token,
        signing_secret=signing_secret,
        # Listeners run inline and return once they acknowledge (bot/listeners/acking.py):
        # Bolt's own way of running them after the acknowledgement polls every 10 ms.
        process_before_response=True,
    )
    _configured(app.client, api_url)
    # `ask` and `shell` print the reply: there a line per request would only add noise.
    app.use(request_scope(log.debug if offline else log.info))
    register_listeners(app, services)
    return app


def request_scope(say: Callable[..., None]) -> Callable[..., Awaitable[None]]:
    """Bolt middleware: every request (over HTTP or Socket Mode) runs under a request id,
    the error id its user is shown, with one line naming what was asked and by whom (the
    search text stays out of logs)."""

    async def middleware(body: dict[str, Any], next_: Callable[[], Awaitable[None]]) -> None:
        current = logs.current_id()
        with logs.tagged(current if current.startswith("r-") else logs.new_id("r")):
            event = body.get("event") or {}
            what = body.get("command") or event.get("type") or body.get("type", "request")
            if body.get("type") == "block_actions":
                actions = body.get("actions", [])
                what = "button " + ",".join(a.get("action_id", "?") for a in actions)
            user = body.get("user_id") or event.get("user") or body.get("user", {}).get("id", "?")
            say("%s by %s", what, user)
            await next_()

    return middleware
