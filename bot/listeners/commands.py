"""Slash commands, every one the same way: acknowledge within Slack's 3 seconds with what
its use case (bot/slash_commands.py) answers."""

from __future__ import annotations

from typing import Any

from slack_bolt.async_app import AsyncApp
from slack_bolt.context.ack.async_ack import AsyncAck
from slack_bolt.context.respond.async_respond import AsyncRespond
from slack_sdk.web.async_client import AsyncWebClient

from bot import replies, slash_commands
from bot.answering import answer
from bot.command_table import COMMANDS
from bot.listeners.acking import Listener, returning_on_ack
from bot.services import Services


def register(app: AsyncApp, services: Services) -> None:
    returns_on_ack = returning_on_ack(services)
    for command in COMMANDS:
        app.command(command.name)(returns_on_ack(_listener(services, command.name)))


def _listener(services: Services, name: str) -> Listener:
    async def listener(
        ack: AsyncAck, command: dict[str, Any], respond: AsyncRespond, client: AsyncWebClient
    ) -> None:
        user = command["user_id"]
        asker = replies.Asker(user, command.get("channel_id", ""), services.is_admin(user))
        asked = slash_commands.Command(
            name, command.get("text", ""), asker, client, command.get("trigger_id", "")
        )
        await answer(services, ack, respond, slash_commands.run(services, asked))

    return listener
