"""Buttons: acknowledge at once, check the value Slack sends back, then reply."""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

from slack_bolt.async_app import AsyncApp
from slack_bolt.context.ack.async_ack import AsyncAck
from slack_bolt.context.respond.async_respond import AsyncRespond
from slack_sdk.web.async_client import AsyncWebClient

from bot import blocks, ids, replies
from bot.answering import bounded, post_if_member, send
from bot.listeners.acking import returning_on_ack
from bot.services import Services
from storage.dense import DenseSearch
from storage.suggestions import Suggester

STALE = blocks.text_reply("That button is out of date; run the command again.")
PaperReply = Callable[[replies.Sessions, str], Coroutine[Any, Any, blocks.Message]]
# (sessions, text, page, suggester, dense): `replies.paper` and `replies.claims`
PageReply = Callable[
    [replies.Sessions, str, int, Suggester | None, DenseSearch | None],
    Coroutine[Any, Any, blocks.Message],
]


def register(app: AsyncApp, services: Services) -> None:
    sessions = services.sessions
    returns_on_ack = returning_on_ack(services)

    def paper_button(action_id: str, reply: PaperReply) -> None:
        @app.action(action_id)
        @returns_on_ack
        async def listener(
            ack: AsyncAck, action: dict[str, Any], body: dict[str, Any],
            respond: AsyncRespond, client: AsyncWebClient,
        ) -> None:  # fmt: skip
            await ack()
            key = ids.paper_key(action.get("value"))
            message = await bounded(services, reply(sessions, key)) if key else STALE
            if body.get("response_url"):
                await send(respond, message)
            else:  # a button in a link's unfurl: Slack sends no response_url with it
                await client.chat_postEphemeral(
                    channel=body["channel"]["id"], user=body["user"]["id"],
                    text=message.text, blocks=message.blocks,
                )  # fmt: skip

    paper_button(ids.OPEN_PAPER, replies.open_paper)
    paper_button(ids.SHOW_CLAIMS, replies.show_claims)

    def next_page_button(action_id: str, reply: PageReply) -> None:
        @app.action(action_id)
        @returns_on_ack
        async def next_page(
            ack: AsyncAck, action: dict[str, Any], body: dict[str, Any], respond: AsyncRespond
        ) -> None:
            await ack()
            wanted = ids.next_page(action.get("value"))
            if wanted is None:
                await send(respond, STALE)
                return
            text, page = wanted
            search = services.searches.run(
                body["user"]["id"], reply(sessions, text, page, None, services.dense)
            )
            await send(respond, await bounded(services, search))

    next_page_button(ids.NEXT_PAGE, replies.claims)
    next_page_button(ids.PAPER_NEXT_PAGE, replies.paper)

    @app.action(ids.RUN_SUGGESTION)
    @returns_on_ack
    async def run_suggestion(
        ack: AsyncAck, action: dict[str, Any], body: dict[str, Any], respond: AsyncRespond
    ) -> None:
        """ "Did you mean …": the corrected search, as if it had been typed."""
        await ack()
        wanted = ids.suggestion(action.get("value"))
        if wanted is None:
            await send(respond, STALE)
            return
        command, text = wanted
        reply = replies.paper if command == "/paper" else replies.claims
        search = reply(sessions, text, 1, services.suggester, services.dense)
        await send(
            respond, await bounded(services, services.searches.run(body["user"]["id"], search))
        )

    @app.action(ids.REMOVE_SUBSCRIPTION)
    @returns_on_ack
    async def remove(
        ack: AsyncAck, action: dict[str, Any], body: dict[str, Any], respond: AsyncRespond,
        client: AsyncWebClient,
    ) -> None:  # fmt: skip
        await ack()
        sub, user = ids.subscription_id(action.get("value")), body["user"]["id"]
        asker = replies.Asker(user, body.get("channel", {}).get("id", ""), services.is_admin(user))
        reply = (
            await bounded(services, replies.remove_subscription(sessions, sub, asker))
            if sub
            else STALE
        )
        if body.get("view", {}).get("type") == "home":  # clicked in the Home tab: redraw it
            view = await replies.home(sessions, user, services.settings.digest_channel)
            await client.views_publish(user_id=user, view=view)
        elif body.get("response_url"):
            await respond(**reply.as_payload(), replace_original=True)

    @app.action(ids.SHARE_PAPER)
    @returns_on_ack
    async def share(
        ack: AsyncAck, action: dict[str, Any], body: dict[str, Any], respond: AsyncRespond,
        client: AsyncWebClient,
    ) -> None:  # fmt: skip
        await ack()
        key = ids.paper_key(action.get("value"))
        user = body.get("user", {}).get("id", "")
        channel = body.get("channel", {}).get("id")
        if key is None or not channel or not ids.is_user_id(user):
            await send(respond, STALE)
            return
        card = await bounded(services, replies.open_paper(sessions, key, shared_by=user))
        if not await post_if_member(client, channel, card):
            await send(respond, replies.cannot_post_here())
            return
        await send(respond, blocks.text_reply("Shared in the channel."))
