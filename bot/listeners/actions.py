"""Buttons: acknowledge at once, check the value Slack sends back, then reply."""

from __future__ import annotations

import asyncio
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
from storage.db import Sessions
from storage.dense import DenseSearch
from storage.suggestions import Suggester

STALE = blocks.text_reply("That button is out of date; run the command again.")
PaperReply = Callable[[Sessions, str], Coroutine[Any, Any, blocks.Message]]
# (sessions, text, page, suggester, dense): `replies.paper` and `replies.claims`
PageReply = Callable[
    [Sessions, str, int, Suggester | None, DenseSearch | None],
    Coroutine[Any, Any, blocks.Message],
]


def register(app: AsyncApp, services: Services) -> None:
    sessions = services.sessions
    returns_on_ack = returning_on_ack(services)

    def paper_button(action_id: str, reply: PaperReply) -> None:
        @app.action(action_id)
        @returns_on_ack
        async def listener(
            ack: AsyncAck,
            action: dict[str, Any],
            body: dict[str, Any],
            respond: AsyncRespond,
            client: AsyncWebClient,
        ) -> None:
            await ack()
            key = ids.paper_key(action.get("value"))
            message = await bounded(services, reply(sessions, key)) if key else STALE
            if body.get("response_url"):
                await send(respond, message)
            else:  # a button in a link's unfurl: Slack sends no response_url with it
                await client.chat_postEphemeral(
                    channel=body["channel"]["id"],
                    user=body["user"]["id"],
                    text=message.text,
                    blocks=message.blocks,
                )

    paper_button(ids.OPEN_PAPER, replies.open_paper)
    paper_button(ids.SHOW_CLAIMS, replies.show_claims)

    async def searched(
        respond: AsyncRespond, body: dict[str, Any], search: Coroutine[Any, Any, blocks.Message]
    ) -> None:
        """A search a button runs: taking the member's turn, like a typed one."""
        await send(
            respond, await bounded(services, services.searches.run(body["user"]["id"], search))
        )

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
            await searched(respond, body, reply(sessions, text, page, None, services.dense))

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
        await searched(respond, body, reply(sessions, text, 1, services.suggester, services.dense))

    @app.action(ids.REMOVE_SUBSCRIPTION)
    @returns_on_ack
    async def remove(
        ack: AsyncAck,
        action: dict[str, Any],
        body: dict[str, Any],
        respond: AsyncRespond,
        client: AsyncWebClient,
    ) -> None:
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

    @app.action(ids.SAVE_PAPER)
    @returns_on_ack
    async def save(
        ack: AsyncAck,
        action: dict[str, Any],
        body: dict[str, Any],
        respond: AsyncRespond,
        client: AsyncWebClient,
    ) -> None:
        await ack()
        key, user = ids.paper_key(action.get("value")), body["user"]["id"]
        reply = await bounded(services, replies.save_paper(sessions, user, key)) if key else STALE
        if body.get("response_url"):
            await send(respond, reply)
        else:  # a card in a link's unfurl: no response_url
            await client.chat_postEphemeral(
                channel=body["channel"]["id"], user=user, text=reply.text, blocks=reply.blocks
            )

    @app.action(ids.REMOVE_SAVED)
    @returns_on_ack
    async def remove_saved(
        ack: AsyncAck,
        action: dict[str, Any],
        body: dict[str, Any],
        respond: AsyncRespond,
        client: AsyncWebClient,
    ) -> None:
        await ack()
        key, user = ids.paper_key(action.get("value")), body["user"]["id"]
        if key is None:
            await send(respond, STALE)
            return
        reply = await bounded(services, replies.remove_saved(sessions, user, key))
        if body.get("view", {}).get("type") == "home":  # clicked in the Home tab: redraw it
            view = await replies.home(sessions, user, services.settings.digest_channel)
            await client.views_publish(user_id=user, view=view)
        elif body.get("response_url"):
            await respond(**reply.as_payload(), replace_original=True)

    @app.action(ids.CLAIM_MENU)
    @returns_on_ack
    async def claim_menu(
        ack: AsyncAck, action: dict[str, Any], body: dict[str, Any], respond: AsyncRespond
    ) -> None:
        """A hit's menu: *Related claims*, or *Save the paper*."""
        await ack()
        chosen = (action.get("selected_option") or {}).get("value")
        claim, key = ids.claim_id(chosen), ids.paper_key(chosen)
        if claim is not None:
            reply = await bounded(services, replies.related_to(sessions, claim, services.dense))
        elif key is not None:
            reply = await bounded(services, replies.save_paper(sessions, body["user"]["id"], key))
        else:
            reply = STALE
        await send(respond, reply)

    @app.action(ids.FULL_REVIEW)
    @returns_on_ack
    async def full_review(
        ack: AsyncAck,
        action: dict[str, Any],
        body: dict[str, Any],
        respond: AsyncRespond,
        client: AsyncWebClient,
    ) -> None:
        """A modal of the paper's whole review; *More* inside it pushes the next part."""
        await ack()
        wanted = ids.review_page(action.get("value"))
        if wanted is None or not body.get("trigger_id"):
            await send(respond, STALE)
            return
        key, page = wanted
        view = await services.spawn(
            asyncio.wait_for(replies.review_view(sessions, key, page), services.work_deadline),
            "full review",
        )
        if body.get("view"):  # *More*, clicked inside the modal
            await client.views_push(trigger_id=body["trigger_id"], view=view)
        else:
            await client.views_open(trigger_id=body["trigger_id"], view=view)

    @app.action(ids.SHARE_PAPER)
    @returns_on_ack
    async def share(
        ack: AsyncAck,
        action: dict[str, Any],
        body: dict[str, Any],
        respond: AsyncRespond,
        client: AsyncWebClient,
    ) -> None:
        await ack()
        key = ids.paper_key(action.get("value"))
        user = body.get("user", {}).get("id", "")
        channel = body.get("channel", {}).get("id")
        if key is None or not channel or not ids.is_user_id(user):
            await send(respond, STALE)
            return
        card = await bounded(services, replies.open_paper(sessions, key, shared_by=user))
        if not await post_if_member(client, channel, card):
            await send(respond, blocks.cannot_post_here())
            return
        await send(respond, blocks.text_reply("Shared in the channel."))
