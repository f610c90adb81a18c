"""Slash commands: acknowledge, call one reply function, send what it returns."""

from __future__ import annotations

from typing import Any

from slack_bolt.async_app import AsyncApp
from slack_bolt.context.ack.async_ack import AsyncAck
from slack_bolt.context.respond.async_respond import AsyncRespond

from bot import blocks, replies
from bot.answering import answer
from bot.services import Services
from jobs.ingest import ingest

COMMANDS = ("/paper", "/claims", "/digest", "/reingest")


def register(app: AsyncApp, services: Services) -> None:
    sessions = services.sessions

    @app.command("/paper")
    async def paper(ack: AsyncAck, command: dict[str, Any], respond: AsyncRespond) -> None:
        await answer(services, ack, respond, replies.paper(sessions, command.get("text", "")))

    @app.command("/claims")
    async def claims(ack: AsyncAck, command: dict[str, Any], respond: AsyncRespond) -> None:
        await answer(services, ack, respond, replies.claims(sessions, command.get("text", "")))

    @app.command("/digest")
    async def digest(ack: AsyncAck, command: dict[str, Any]) -> None:
        text = command.get("text", "").strip().lower()
        if replies.wants_help(text) and text:
            await ack(**blocks.help_for("/digest").as_payload())
        elif text == "post" and not services.is_admin(command["user_id"]):
            await ack(**replies.not_admin("/digest post").as_payload())
        else:
            await ack(**replies.digest_unavailable().as_payload())

    @app.command("/reingest")
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
                       trigger="slack", triggered_by=user),
                "reingest",
            )  # fmt: skip
        await respond(**replies.ingest_done(report).as_payload())
