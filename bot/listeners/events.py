"""Events: pasted arXiv links get a compact card; the Home tab shows the user's view."""

from __future__ import annotations

from typing import Any

from slack_bolt.async_app import AsyncApp
from slack_sdk.web.async_client import AsyncWebClient

from bot import replies
from bot.listeners.acking import returning_on_ack
from bot.services import Services


def register(app: AsyncApp, services: Services) -> None:
    sessions = services.sessions
    returns_on_ack = returning_on_ack(services)

    @app.event("link_shared")
    @returns_on_ack
    async def unfurl(event: dict[str, Any], client: AsyncWebClient) -> None:
        urls = [link.get("url", "") for link in event.get("links", [])]
        # Show claims answers with an ephemeral message, which needs the bot in the channel.
        buttons = bool(event.get("is_bot_user_member", True))
        cards = await replies.unfurls(sessions, urls, buttons=buttons)
        if not cards:  # links to papers not in the store are left alone
            return
        if event.get("unfurl_id") and event.get("source"):  # links still in the composer
            where = {"unfurl_id": event["unfurl_id"], "source": event["source"]}
        else:
            where = {"channel": event["channel"], "ts": event["message_ts"]}
        await client.chat_unfurl(unfurls=cards, **where)

    @app.event("app_home_opened")
    @returns_on_ack
    async def home(event: dict[str, Any], client: AsyncWebClient) -> None:
        if event.get("tab", "home") != "home":
            return
        view = await replies.home(sessions, event["user"], services.settings.digest_channel)
        await client.views_publish(user_id=event["user"], view=view)
