"""Slash commands: acknowledge, call one reply function, send what it returns."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from slack_bolt.async_app import AsyncApp
from slack_bolt.context.ack.async_ack import AsyncAck
from slack_bolt.context.respond.async_respond import AsyncRespond
from slack_sdk.web.async_client import AsyncWebClient

from bot import blocks, replies
from bot.answering import answer, post_if_member
from bot.listeners.acking import returning_on_ack
from bot.services import Services
from jobs.digest import manual_period
from jobs.digest import post as post_digest
from jobs.ingest import ingest

COMMANDS = ("/paper", "/claims", "/digest", "/reingest")


def register(app: AsyncApp, services: Services) -> None:
    sessions = services.sessions
    returns_on_ack = returning_on_ack(services)

    @app.command("/paper")
    @returns_on_ack
    async def paper(
        ack: AsyncAck, command: dict[str, Any], respond: AsyncRespond, client: AsyncWebClient
    ) -> None:
        text = command.get("text", "")
        verb, _, rest = text.strip().partition(" ")
        if verb.lower() in replies.SUBSCRIPTION_VERBS:
            asker = replies.Asker(command["user_id"], command.get("channel_id", ""),
                                  services.is_admin(command["user_id"]))  # fmt: skip

            async def announce(channel: str, message: blocks.Message) -> bool:
                return await post_if_member(client, channel, message)

            work = replies.subscription_command(sessions, verb.lower(), rest, asker, announce)
        else:
            search = replies.paper(
                sessions, text, suggester=services.suggester, dense=services.dense
            )
            work = services.searches.run(command["user_id"], search)
        await answer(services, ack, respond, work)

    @app.command("/claims")
    @returns_on_ack
    async def claims(ack: AsyncAck, command: dict[str, Any], respond: AsyncRespond) -> None:
        search = replies.claims(
            sessions, command.get("text", ""), suggester=services.suggester, dense=services.dense
        )
        await answer(services, ack, respond, services.searches.run(command["user_id"], search))

    @app.command("/digest")
    @returns_on_ack
    async def digest(
        ack: AsyncAck, command: dict[str, Any], respond: AsyncRespond, client: AsyncWebClient
    ) -> None:
        text = command.get("text", "").strip().lower()
        channel = services.settings.digest_channel
        today = datetime.now(services.settings.timezone).date()
        if text not in ("", "post"):
            await ack(**blocks.help_for("/digest").as_payload())
        elif text == "post" and not services.is_admin(command["user_id"]):
            await ack(**replies.not_admin("/digest post").as_payload())
        elif text == "post" and not channel:
            await ack(**replies.no_digest_channel().as_payload())
        elif text == "post" and channel and services.offline:  # posts to a stand-in: no ledger
            preview = replies.digest_preview(sessions, channel, today, offline=True)
            await answer(services, ack, respond, preview)
        elif text == "post" and channel:
            await ack(**blocks.text_reply("Posting the summary…").as_payload())
            outcome = await services.spawn(
                post_digest(sessions, client, channel, manual_period(), blocks.digest_messages,
                            today=today),
                "digest post",
            )  # fmt: skip
            await respond(**replies.digest_outcome(outcome, channel).as_payload())
        else:
            preview = replies.digest_preview(sessions, channel or "", today)
            await answer(services, ack, respond, preview)

    @app.command("/reingest")
    @returns_on_ack
    async def reingest(ack: AsyncAck, command: dict[str, Any], respond: AsyncRespond) -> None:
        text, user = command.get("text", "").strip().lower(), command["user_id"]
        if text not in ("", "force"):
            await ack(**blocks.help_for("/reingest").as_payload())
            return
        if not services.is_admin(user):
            await ack(**replies.not_admin("/reingest").as_payload())
            return
        force = text == "force"
        async with services.ingest_guard.hold("slack", user) as held:
            if not held:
                await ack(**replies.ingest_busy(services.ingest_guard.running).as_payload())
                return
            await ack(**replies.ingest_started(force).as_payload())
            report = await services.spawn(
                ingest(sessions, [services.settings.digest_dir], force=force,
                       trigger="slack", triggered_by=user,
                       max_file_mb=services.settings.max_file_mb),
                "reingest",
            )  # fmt: skip
        services.embed_in_background()
        await respond(**replies.ingest_done(report).as_payload())
