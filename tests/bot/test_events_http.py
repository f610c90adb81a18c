"""Events over real HTTP: pasted arXiv links unfurl, the Home tab is published."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy.engine import URL

from bot.text_view import as_text
from tests.bot.conftest import ADMIN, Bot, StartBot, buttons, seeded_copy

KNOWN = "https://arxiv.org/abs/2609.35259"  # in the seeds: the distillation study
UNKNOWN = "https://arxiv.org/abs/2501.00001"


def link_shared(*urls: str, **extra: Any) -> dict[str, Any]:
    return {
        "type": "link_shared",
        "channel": "CPAPERS",
        "user": "UMEMBER1",
        "message_ts": "1700000000.000200",
        "event_ts": "1700000000.000300",
        "source": "conversations_history",
        "is_bot_user_member": True,
        "links": [{"domain": url.split("/")[2], "url": url} for url in urls],
    } | extra


def unfurls_of(call: dict[str, Any]) -> dict[str, Any]:
    unfurls = call["unfurls"]
    return json.loads(unfurls) if isinstance(unfurls, str) else unfurls  # type: ignore[no-any-return]


async def test_links_to_papers_in_the_store_unfurl_as_a_compact_card(bot: Bot) -> None:
    pdf, cool = "https://arxiv.org/pdf/2609.35259v2", "https://papers.cool/arxiv/2609.35259"
    assert await bot.event(link_shared(KNOWN, UNKNOWN, pdf, cool)) == 200
    call = (await bot.slack.wait_for("chat.unfurl", 1, within=10))[0]
    assert (call["channel"], call["ts"]) == ("CPAPERS", "1700000000.000200")
    cards = unfurls_of(call)
    assert set(cards) == {KNOWN, pdf, cool}  # the paper not in the store is left alone
    text = as_text(cards[KNOWN])
    assert text.startswith("*On-Policy or Off-Policy Learning?")
    assert "arXiv 2609.35259 · no reviewed claims · 3 result sentences in the abstract" in text
    assert len(cards[KNOWN]["blocks"]) == 3 and "Show claims" in buttons(cards[KNOWN])


async def test_show_claims_in_an_unfurl_answers_without_a_response_url(bot: Bot) -> None:
    await bot.event(link_shared(KNOWN))
    cards = unfurls_of((await bot.slack.wait_for("chat.unfurl", 1, within=10))[0])
    show = buttons(cards[KNOWN])["Show claims"]
    # A button in an unfurl comes without a response_url: the reply goes as an ephemeral.
    unfurl_container = {"type": "message_attachment", "is_app_unfurl": True}
    assert await bot.click(show, response_url=None, container=unfurl_container) == 200
    reply = (await bot.slack.wait_for("chat.postEphemeral", 1, within=10))[0]
    assert (reply["channel"], reply["user"]) == ("CPAPERS", "UMEMBER1")
    assert "`2609.35259#a1`" in as_text(reply)


async def test_in_a_channel_without_the_bot_the_card_has_no_button(bot: Bot) -> None:
    await bot.event(link_shared(KNOWN, is_bot_user_member=False))
    cards = unfurls_of((await bot.slack.wait_for("chat.unfurl", 1, within=10))[0])
    assert buttons(cards[KNOWN]) == {}  # its answer could not be posted there
    assert "3 result sentences in the abstract" in as_text(cards[KNOWN])


async def test_links_still_in_the_composer_unfurl_by_unfurl_id(bot: Bot) -> None:
    event = link_shared(
        KNOWN,
        channel="COMPOSER",
        message_ts="U0.1",
        source="composer",
        unfurl_id="C123.1700000000.000200.abcdef",
    )
    await bot.event(event)
    call = (await bot.slack.wait_for("chat.unfurl", 1, within=10))[0]
    assert (call["unfurl_id"], call["source"]) == ("C123.1700000000.000200.abcdef", "composer")
    assert "channel" not in call and KNOWN in unfurls_of(call)


async def test_links_to_nothing_in_the_store_make_no_call(bot: Bot) -> None:
    await bot.event(link_shared(UNKNOWN, "https://arxiv.org/list/cs.LG/recent"))
    await bot.command("/paper help")  # a later request: the event was handled by then
    assert bot.slack.called("chat.unfurl") == []


async def test_opening_the_home_tab_publishes_the_user_s_view(
    start_bot: StartBot, database_url: URL
) -> None:
    bot = await start_bot(await seeded_copy(database_url))
    await bot.command("/paper subscribe AUROC", user="UHOME1")
    assert (
        await bot.event(
            {
                "type": "app_home_opened",
                "user": "UHOME1",
                "tab": "home",
                "channel": "D0HOME",
                "event_ts": "1.2",
            }
        )
        == 200
    )
    call = (await bot.slack.wait_for("views.publish", 1, within=10))[0]
    view = call["view"] if isinstance(call["view"], dict) else json.loads(call["view"])
    assert call["user_id"] == "UHOME1"
    assert view["type"] == "home" and len(view["blocks"]) <= 100
    text = as_text(view)
    assert "*In the store:* 36 papers, 133 numbered claims, 3 digest files" in text
    assert "No summary has been posted yet." in text
    assert "“AUROC” · for you" in text and "/paper subscribe" in text

    # Remove, from the Home tab: the subscription goes and the tab is drawn again.
    remove = buttons(view)["Remove"]
    assert (
        await bot.click(remove, user="UHOME1", response_url=None, view={"type": "home", "id": "V1"})
        == 200
    )
    again = (await bot.slack.wait_for("views.publish", 2, within=10))[1]
    assert "You follow nothing yet." in as_text(again["view"])


async def test_the_messages_tab_publishes_nothing(bot: Bot) -> None:
    await bot.event(
        {
            "type": "app_home_opened",
            "user": "U1",
            "tab": "messages",
            "channel": "D1",
            "event_ts": "1.2",
        }
    )
    await bot.command("/paper help")
    assert bot.slack.called("views.publish") == []


async def test_the_home_tab_shows_the_latest_summary(
    start_bot: StartBot, database_url: URL
) -> None:
    bot = await start_bot(await seeded_copy(database_url), PAPERBOT_DIGEST_CHANNEL="CTEAM")
    await bot.slack.wait_for("chat.postMessage", 1, within=20)  # the catch-up at start
    await bot.command("/digest", user=ADMIN)  # the post is recorded by the time this answers
    await bot.event({"type": "app_home_opened", "user": "U1", "tab": "home", "event_ts": "1"})
    view = (await bot.slack.wait_for("views.publish", 1, within=10))[0]["view"]
    text = as_text(view if isinstance(view, dict) else json.loads(view))
    assert "in #CTEAM · 36 papers" in text
    assert "…and 21 more in the channel." in text


async def test_slack_s_check_of_the_events_url_is_answered(bot: Bot) -> None:
    body = json.dumps(
        {"token": "local", "challenge": "3eZbrw1aBm2rZgRNFdxV", "type": "url_verification"}
    )
    status, answer = await bot.post(body, json_body=True)
    assert status == 200 and "3eZbrw1aBm2rZgRNFdxV" in answer
