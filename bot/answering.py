"""Always answer: every command is acknowledged within Slack's 3 seconds.

The reply itself is computed meanwhile; when it is ready within `ACK_WITHIN` it goes back
in the acknowledgement, otherwise the user sees "Looking…" at once and the reply follows
through the response_url. The work has a deadline, so a hanging database ends in a clear
sentence (via the app's error handler) rather than in silence.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any

from slack_bolt.context.ack.async_ack import AsyncAck
from slack_bolt.context.respond.async_respond import AsyncRespond
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot import blocks
from bot.blocks import Message
from bot.services import Services

ACK_WITHIN = 2.0  # seconds; Slack gives up at 3


async def bounded(services: Services, work: Coroutine[Any, Any, Message]) -> Message:
    """Run work tracked (shutdown waits for it) and under the deadline."""
    message: Message = await services.spawn(asyncio.wait_for(work, services.work_deadline), "reply")
    return message


async def answer(
    services: Services, ack: AsyncAck, respond: AsyncRespond, work: Coroutine[Any, Any, Message]
) -> None:
    reply = asyncio.ensure_future(bounded(services, work))
    done, _ = await asyncio.wait({reply}, timeout=ACK_WITHIN)
    if done:
        # .result() re-raises a failure, which the app's error handler turns into the
        # acknowledgement's text.
        await ack(**reply.result().as_payload())
        return
    await ack(**blocks.WORKING.as_payload())
    message = await reply
    await respond(**message.as_payload(), replace_original=True)


async def send(respond: AsyncRespond, message: Message) -> None:
    """A reply to a button: a new ephemeral message (or the shared card in channel)."""
    await respond(**message.as_payload(), replace_original=False)


async def post_if_member(client: AsyncWebClient, channel: str, message: Message) -> bool:
    """Post in a channel for everyone; False when the bot is not in it (not invited)."""
    try:
        await client.chat_postMessage(channel=channel, text=message.text, blocks=message.blocks)
    except SlackApiError as error:
        if error.response.get("error") not in ("not_in_channel", "channel_not_found"):
            raise
        return False
    return True
