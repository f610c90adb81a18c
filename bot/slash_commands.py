"""What each slash command does, from its text to its reply: help when asked, the command
table's check of who may run what, then the command's use case (one per row of
bot/command_table.py). The listener is the same for all (bot/listeners/commands.py)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from slack_sdk.web.async_client import AsyncWebClient

from bot import blocks, replies
from bot.answering import Later, Reply, post_if_member
from bot.blocks import Message
from bot.command_table import BY_NAME, asks_help
from bot.messenger import SlackMessenger
from bot.services import Services
from jobs.summary import manual_period, post


@dataclass(frozen=True)
class Command:
    """A slash command as its use case gets it."""

    name: str
    text: str
    asker: replies.Asker
    client: AsyncWebClient  # to post in a channel for everyone, or open a modal
    trigger_id: str = ""  # what Slack needs to open a modal for this command


async def paper(services: Services, command: Command) -> Reply:
    verb, _, rest = command.text.strip().partition(" ")
    if verb.lower() in replies.SUBSCRIPTION_VERBS:

        async def announce(channel: str, message: Message) -> bool:
            return await post_if_member(command.client, channel, message)

        return await replies.subscription_command(
            services.sessions, verb.lower(), rest, command.asker, announce
        )
    if verb.lower() == "saved":
        return await replies.saved_command(services.sessions, rest, command.asker.user)
    if verb.lower() == "review":

        async def open_view(view: dict[str, Any]) -> None:
            await command.client.views_open(trigger_id=command.trigger_id, view=view)

        return await replies.review_command(services.sessions, rest, open_view)
    search = replies.paper(
        services.sessions, command.text, suggester=services.suggester, dense=services.dense
    )
    return await services.searches.run(command.asker.user, search)


async def claims(services: Services, command: Command) -> Reply:
    search = replies.claims(
        services.sessions, command.text, suggester=services.suggester, dense=services.dense
    )
    return await services.searches.run(command.asker.user, search)


async def digest(services: Services, command: Command) -> Reply:
    """`/digest`: the next summary's preview; `/digest post` posts it now (offline, in `ask`
    and `shell`, it only says what it would post: Slack is a stand-in there)."""
    verb = command.text.strip().lower()
    channel, zone = services.settings.digest_channel, services.settings.timezone
    today = datetime.now(zone).date()
    if verb not in ("", "post"):
        return blocks.help_for("/digest")
    if verb == "":
        return await replies.summary_preview(services.sessions, channel or "", today)
    if not channel:
        return blocks.no_digest_channel()
    if services.offline:
        return await replies.summary_preview(services.sessions, channel, today, offline=True)

    async def posting() -> Message:
        outcome = await post(
            services.sessions,
            SlackMessenger(command.client),
            channel,
            manual_period(),
            blocks.summary_messages,
            today=today,
        )
        return blocks.summary_outcome(outcome, channel)

    return Later(blocks.text_reply("Posting the summary…"), posting(), "digest post")


async def reingest(services: Services, command: Command) -> Reply:
    verb, user = command.text.strip().lower(), command.asker.user
    if verb not in ("", "force"):
        return blocks.help_for("/reingest")
    guard = services.ingest_guard
    if guard.running is not None:
        return blocks.ingest_busy(guard.running)

    async def reading() -> Message:
        async with guard.hold("slack", user) as held:
            if not held:  # another one started meanwhile
                return blocks.ingest_busy(guard.running)
            report = await services.ingest_digest_folder("slack", user, force=verb == "force")
        return blocks.ingest_done(report)

    return Later(blocks.ingest_started(verb == "force"), reading(), "reingest")


UseCase = Callable[[Services, Command], Awaitable[Reply]]
USE_CASES: dict[str, UseCase] = {
    "/paper": paper,
    "/claims": claims,
    "/digest": digest,
    "/reingest": reingest,
}


async def run(services: Services, command: Command) -> Reply:
    if asks_help(command.text):
        return blocks.help_for(command.name)
    admin_only = BY_NAME[command.name].needs_admin(command.text)
    if admin_only and not command.asker.admin:
        return blocks.not_admin(admin_only)
    return await USE_CASES[command.name](services, command)
