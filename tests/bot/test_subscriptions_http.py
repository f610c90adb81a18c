"""`/paper subscribe` and friends over real HTTP, and the daily message the bot sends."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy.engine import URL

from bot.text_view import as_text
from jobs.ingest import ingest
from storage import db
from tests.bot.conftest import ADMIN, Bot, StartBot, buttons, seeded_copy
from tests.digests import Entry, huggingface_digest, write


async def said(bot: Bot, line: str, **kwargs: str) -> str:
    return as_text(await bot.answer(line, **kwargs))


@pytest.fixture
async def bot(start_bot: StartBot, database_url: URL) -> Bot:
    """The bot on an empty database of each kind: these tests write subscriptions."""
    return await start_bot(database_url)


async def test_subscribe_list_and_remove(bot: Bot) -> None:
    added = await bot.command("/paper subscribe AUROC", user="USUB1")
    text = as_text(added[1])
    assert text.startswith("Following “AUROC”: you get new papers that match, once a day.")
    assert "“AUROC” · for you" in text
    again = await said(bot, "/paper subscribe  auroc ", user="USUB1")
    assert again == "Already following “auroc”.\n\n“AUROC” · for you  [Remove]"

    _, listed = await bot.command("/paper subscriptions", user="USUB1")
    assert await bot.click(buttons(listed)["Remove"], user="USUB1") == 200
    redrawn = (await bot.responses(1))[0]
    assert redrawn["replace_original"] is True
    assert as_text(redrawn).startswith("Removed “AUROC”.")


async def test_subscribe_to_an_author_without_a_word(bot: Bot) -> None:
    text = await said(bot, '/paper subscribe author:"Limin Wang" -video', user="USUB8")
    assert text.startswith('Following “author:"Limin Wang" -video”: you get new papers')


async def test_unsubscribe_by_words(bot: Bot) -> None:
    await bot.command("/paper subscribe 延迟", user="USUB2")
    assert (await said(bot, "/paper unsubscribe 延迟", user="USUB2")).startswith("Removed “延迟”.")
    assert (await said(bot, "/paper unsubscribe 延迟", user="USUB2")) == "You don't follow “延迟”."


@pytest.mark.parametrize(
    ("line", "user", "channel", "answer"),
    [
        ("/paper subscribe", "USUB3", "CPAPERS", "*`/paper subscribe <words>`* sends you"),
        ("/paper subscribe ***", "USUB3", "CPAPERS", "Those words cannot match anything"),
        ("/paper subscribe at:08:00 AUROC", "USUB3", "CPAPERS", "`at:` sets a channel's own"),
        ("/paper subscribe channel LLM", "USUB3", "CPAPERS", "Only admins can run"),
        ("/paper subscribe channel at:25:00 LLM", ADMIN, "CPAPERS", "`at:` needs a time like"),
        ("/paper subscribe channel LLM", ADMIN, "D0DIRECT", "Run `/paper subscribe channel"),
        ("/paper subscribe " + "x" * 201, "USUB3", "CPAPERS", "Follow at most 200 characters"),
        ("/paper subscribe -video", "USUB3", "CPAPERS", "Excluded words (`-word`) narrow"),
        ("/paper subscribe author:", "USUB3", "CPAPERS", "`author:` needs a name"),
        ('/paper subscribe author:"Li', "USUB3", "CPAPERS", "`author:` opens a quote"),
    ],
)
async def test_bad_subscriptions_get_a_sentence_and_store_nothing(
    bot: Bot, line: str, user: str, channel: str, answer: str
) -> None:
    assert answer in await said(bot, line, user=user, channel=channel)
    listed = await said(bot, "/paper subscriptions", user=user, channel=channel)
    assert "You follow nothing yet." in listed


async def test_an_admin_subscribes_a_channel_with_its_own_time(bot: Bot) -> None:
    text = await said(
        bot, "/paper subscribe channel at:08:30 LLM agents", user=ADMIN, channel="CTEAM3"
    )
    assert text.startswith("Following “LLM agents”: this channel gets new papers")
    assert "“LLM agents” · for #CTEAM3 at 08:30" in text
    (told,) = bot.slack.called("chat.postMessage")  # the channel learns it, and who did it
    assert told["channel"] == "CTEAM3"
    assert f"matching “LLM agents” at 08:30, set up by <@{ADMIN}>" in str(told["blocks"])
    # Anyone in the channel sees it listed; only admins may remove it.
    _, listed = await bot.command("/paper subscriptions", user="UMEMBER9", channel="CTEAM3")
    assert await bot.click(buttons(listed)["Remove"], user="UMEMBER9", channel="CTEAM3") == 200
    assert "Only admins" in as_text((await bot.responses(1))[0])


async def test_a_channel_the_bot_is_not_in_cannot_subscribe(bot: Bot) -> None:
    bot.slack.not_member_of.add("CNOBOT")
    text = await said(bot, "/paper subscribe channel AUROC", user=ADMIN, channel="CNOBOT")
    assert text.startswith("I can't post in this conversation. Invite me first")
    listed = await said(bot, "/paper subscriptions", user=ADMIN, channel="CNOBOT")
    assert "You follow nothing yet." in listed


async def test_twenty_subscriptions_is_the_limit(bot: Bot) -> None:
    for n in range(20):
        await bot.command(f"/paper subscribe topic{n}", user="USUB4")
    refused = await said(bot, "/paper subscribe topic20", user="USUB4")
    assert refused == "That is 20 subscriptions already; remove one first."


async def test_the_bot_sends_a_subscriber_one_direct_message(
    start_bot: StartBot, database_url: URL, tmp_path: Path
) -> None:
    """Subscribe over HTTP; new papers arrive; the bot's own scheduler sends the message."""
    first = await start_bot(await seeded_copy(database_url), PAPERBOT_SUBSCRIPTION_TIME="00:00")
    await first.command("/paper subscribe AUROC", user="UDM1")
    new = huggingface_digest(
        "2026-12-02",
        [
            Entry("2612.00001", "Calibrated Judges", abstract="An AUROC of 0.91 on held-out data."),
            Entry("2612.00002", "Faster Tokenizers", abstract="Tokenization is 3.1x faster."),
        ],
    )
    async with db.open_engine(database_url) as engine:
        await ingest(db.session_factory(engine), [write(tmp_path / "new" / "today.txt", new)])
    await start_bot(database_url, PAPERBOT_SUBSCRIPTION_TIME="00:00")  # a restart, or a replica
    (message,) = await first.slack.wait_for("chat.postMessage", 1, within=20)
    assert first.slack.called("conversations.open") == [{"users": "UDM1"}]
    methods = [call.method for call in first.slack.calls]
    assert methods.index("conversations.open") < methods.index("chat.postMessage")
    assert message["channel"] == "DUDM1"
    assert "Calibrated Judges" in str(message["blocks"])
    assert "Faster Tokenizers" not in str(message["blocks"])
