"""The one place that wires the Slack app: a Bolt AsyncApp with every listener."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from slack_bolt.async_app import AsyncApp
from slack_bolt.authorization import AuthorizeResult
from slack_sdk.http_retry.builtin_async_handlers import (
    AsyncRateLimitErrorRetryHandler,
    AsyncServerErrorRetryHandler,
)
from slack_sdk.web.async_client import AsyncWebClient

from bot.listeners import register_listeners
from bot.services import Services

log = logging.getLogger(__name__)


def slack_client(token: str | None, base_url: str) -> AsyncWebClient:
    """A Web API client on `SLACK_API_URL` that also retries 429 (after Retry-After) and
    5xx answers, which slack_sdk does not by default."""
    client = AsyncWebClient(token=token, base_url=base_url)
    client.retry_handlers.append(AsyncRateLimitErrorRetryHandler(max_retry_count=2))
    client.retry_handlers.append(AsyncServerErrorRetryHandler(max_retry_count=2))
    return client


def build_app(
    services: Services, *, client: AsyncWebClient, signing_secret: str, offline: bool = False
) -> AsyncApp:
    """The Slack app. `offline` (for `ask` and `shell`) needs no token: authorization is
    a fixed local result instead of a call to `auth.test`."""

    async def local_authorization() -> AuthorizeResult:
        return AuthorizeResult(
            enterprise_id=None, team_id="T0LOCAL", bot_token="xoxb-offline",
            bot_id="B0LOCAL", bot_user_id="U0PAPERBOT",
        )  # fmt: skip

    app = AsyncApp(
        client=client,
        signing_secret=signing_secret,
        authorize=local_authorization if offline else None,
        process_before_response=False,
    )
    if not offline:  # `ask` and `shell` print the reply; a log line would only add noise
        app.use(log_request)
    register_listeners(app, services)
    return app


async def log_request(body: dict[str, Any], next_: Callable[[], Awaitable[None]]) -> None:
    """One line naming what was asked and by whom (the search text stays out of logs)."""
    what = body.get("command") or body.get("type", "request")
    if body.get("type") == "block_actions":
        what = "button " + ",".join(a.get("action_id", "?") for a in body.get("actions", []))
    user = body.get("user_id") or body.get("user", {}).get("id", "?")
    log.info("%s by %s", what, user)
    await next_()
