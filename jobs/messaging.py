"""What the jobs need from a chat service, so that they import no Slack library: post a
message (in a thread, or not) and learn its id, open a direct message. The bot implements
it once for Slack (bot/messenger.py); every failure to deliver is a `PostFailed`."""

from __future__ import annotations

from typing import Any, Protocol

Payload = dict[str, Any]  # a message as the chat service takes it (text, blocks)


class PostFailed(Exception):
    """The service refused the message or could not be reached; the text says why."""


class Messenger(Protocol):
    async def post(self, to: str, message: Payload, *, thread: str | None = None) -> str:
        """Post `message` to the conversation `to` (in `thread`); the posted message's id."""
        ...

    async def open_direct(self, user: str) -> str:
        """The conversation that is `user`'s direct message with the bot."""
        ...
