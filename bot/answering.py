"""Always answer: every command is acknowledged within Slack's 3 seconds.

The reply itself is computed meanwhile; when it is ready within `ACK_WITHIN` it goes back
in the acknowledgement, otherwise the user sees "Looking…" at once and the reply follows
through the response_url. The work has a deadline, so a hanging database ends in a clear
sentence (via the app's error handler) rather than in silence.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from dataclasses import dataclass
from typing import Any, TypeVar

from slack_bolt.context.ack.async_ack import AsyncAck
from slack_bolt.context.respond.async_respond import AsyncRespond
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot import blocks
from bot.blocks import Message
from bot.services import Services

ACK_WITHIN = 2.0  # seconds; Slack gives up at 3
T = TypeVar("T")


async def bounded(services: Services, work: Coroutine[Any, Any, T]) -> T:
    """Run work tracked (shutdown waits for it) and under the deadline."""
    done: T = await services.spawn(asyncio.wait_for(work, services.work_deadline), "reply")
    return done


@dataclass(frozen=True)
class Later:
    """A reply in two parts: `now` at once, then what `then` returns when it is done.
    `then` (an ingest, a post to a channel) runs tracked, past the command's deadline."""

    now: Message
    then: Coroutine[Any, Any, Message]
    name: str  # of its task, in logs


Reply = Message | Later


async def answer(
    services: Services, ack: AsyncAck, respond: AsyncRespond, work: Coroutine[Any, Any, Reply]
) -> None:
    reply = asyncio.ensure_future(bounded(services, work))
    done, _ = await asyncio.wait({reply}, timeout=ACK_WITHIN)
    if not done:
        await ack(**blocks.WORKING.as_payload())
    # A failure is re-raised here; the app's error handler turns it into the answer.
    result = await reply
    first = result.now if isinstance(result, Later) else result
    if done:
        await ack(**first.as_payload())
    else:
        await respond(**first.as_payload(), replace_original=True)
    if isinstance(result, Later):
        message = await services.spawn(result.then, result.name)
        await respond(**message.as_payload())


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
