"""The jobs' messenger (jobs/messaging.py) on Slack's Web API."""

from __future__ import annotations

import aiohttp
from slack_sdk.errors import SlackClientError
from slack_sdk.web.async_client import AsyncWebClient

from jobs.messaging import Payload, PostFailed

# What a call to Slack raises when the message did not get through.
_FAILURES = (SlackClientError, aiohttp.ClientError, TimeoutError)


class SlackMessenger:
    def __init__(self, client: AsyncWebClient) -> None:
        self.client = client

    async def post(self, to: str, message: Payload, *, thread: str | None = None) -> str:
        try:
            posted = await self.client.chat_postMessage(channel=to, thread_ts=thread, **message)
        except _FAILURES as error:
            raise PostFailed(f"{type(error).__name__}: {error}") from error
        return str(posted["ts"])

    async def open_direct(self, user: str) -> str:
        try:
            opened = await self.client.conversations_open(users=user)
        except _FAILURES as error:
            raise PostFailed(f"{type(error).__name__}: {error}") from error
        return str(opened["channel"]["id"])
