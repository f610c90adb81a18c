"""Slash commands and buttons over real HTTP, signed as Slack signs them."""

from __future__ import annotations

import asyncio
import json
import re
import shutil
import time
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.engine import URL

from bot.text_view import as_text
from jobs.ingest import ingest
from storage import db
from storage.models import IngestRun
from tests.bot.conftest import ADMIN, Bot, StartBot, buttons, seeded_copy
from tests.digests import SEEDS, Entry, huggingface_digest, write


async def test_paper_by_name_answers_with_the_card(bot: Bot) -> None:
    status, reply = await bot.command("/paper GAPO")
    assert status == 200
    assert reply["response_type"] == "ephemeral"
    assert reply["blocks"][0] == {"type": "header", "text": {"type": "plain_text", "text": "GAPO"}}
    assert {"Show claims", "Share in channel"} <= set(buttons(reply))


async def test_a_list_item_opens_its_paper(bot: Bot) -> None:
    _, reply = await bot.command("/paper 强化学习")
    opens = [b["accessory"] for b in reply["blocks"] if b.get("accessory")]
    assert len(opens) > 1
    assert await bot.click(opens[0]) == 200
    card = (await bot.responses(1))[0]
    assert card["blocks"][0]["type"] == "header"
    assert card.get("replace_original") is False


async def test_show_claims_lists_the_papers_claims(bot: Bot) -> None:
    _, card = await bot.command("/paper GAPO")
    assert await bot.click(buttons(card)["Show claims"]) == 200
    claims = (await bot.responses(1))[0]
    text = as_text(claims)
    assert text.startswith("Claims of GAPO")
    assert "claim 1" in text and "claim 10" in text


async def test_claims_next_page_continues_the_search(bot: Bot) -> None:
    _, first = await bot.command("/claims 模型")
    assert await bot.click(buttons(first)["Next page"]) == 200
    second = (await bot.responses(1))[0]
    assert "11–" in as_text(second)
    assert as_text(first) != as_text(second)


async def test_share_posts_the_card_in_the_channel_for_everyone(bot: Bot) -> None:
    _, card = await bot.command("/paper GAPO", user="USHARER")
    assert (
        await bot.click(buttons(card)["Share in channel"], user="USHARER", channel="CTEAM") == 200
    )
    await bot.responses(1)
    posted = bot.slack.called("chat.postMessage")
    assert len(posted) == 1
    assert posted[0]["channel"] == "CTEAM"
    assert "Shared by <@USHARER>" in str(posted[0]["blocks"])
    assert "Share in channel" not in str(posted[0]["blocks"])


async def test_share_where_the_bot_is_not_invited_says_so(bot: Bot) -> None:
    bot.slack.not_member_of.add("CNOBOT")
    _, card = await bot.command("/paper GAPO", channel="CNOBOT")
    assert await bot.click(buttons(card)["Share in channel"], channel="CNOBOT") == 200
    (reply,) = await bot.responses(1)
    assert as_text(reply).startswith("I can't post in this conversation. Invite me first")


async def test_a_tampered_button_value_is_refused_politely(bot: Bot) -> None:
    button = {"action_id": "paper_open", "value": '{"paper":"text:<!channel>"}'}
    assert await bot.click(button) == 200
    assert "out of date" in as_text((await bot.responses(1))[0])


async def test_bad_signature_and_stale_timestamp_get_401_and_run_nothing(bot: Bot) -> None:
    body = "command=%2Fpaper&text=GAPO&user_id=U1&response_url=" + bot.slack.response_url()
    assert (await bot.post(body, secret="wrong-secret"))[0] == 401
    assert (await bot.post(body, timestamp=int(time.time()) - 6 * 60))[0] == 401
    await asyncio.sleep(0.3)
    assert [c.method for c in bot.slack.calls if c.method != "auth.test"] == []


async def test_every_command_answers_help(bot: Bot) -> None:
    for command in ("/paper", "/claims", "/digest help", "/reingest help"):
        status, reply = await bot.command(command)
        assert status == 200
        assert command.split()[0] in as_text(reply)


async def test_healthz_reports_the_database(bot: Bot) -> None:
    async with bot.http.get(f"{bot.url}/healthz") as response:
        assert response.status == 200
        assert (await response.json())["status"] == "ok"


async def test_reingest_is_for_admins_only(start_bot: StartBot, database_url: URL) -> None:
    bot = await start_bot(database_url)
    _, reply = await bot.command("/reingest", user="UNOTADMIN")
    assert "Only admins" in as_text(reply)
    await asyncio.sleep(0.3)
    async with db.open_engine(database_url) as engine, db.session_factory(engine)() as session:
        assert (await session.execute(select(IngestRun))).first() is None


async def test_reingest_runs_in_the_background_and_reports(
    start_bot: StartBot, database_url: URL, tmp_path: Path
) -> None:
    shutil.copytree(SEEDS, tmp_path / "digests")
    bot = await start_bot(database_url)
    _, first = await bot.command("/reingest", user=ADMIN)
    _, second = await bot.command("/reingest", user=ADMIN)

    assert "Reading new and changed files" in as_text(first)
    assert "already running" in as_text(second) and f"@{ADMIN}" in as_text(second)
    report = as_text((await bot.responses(1, within=30))[0])
    assert "3 new" in report and "36 new" in report
    async with db.open_engine(database_url) as engine, db.session_factory(engine)() as session:
        run = (await session.execute(select(IngestRun))).scalar_one()
    assert (run.trigger, run.triggered_by, run.status) == ("slack", ADMIN, "ok")


async def test_a_digest_paper_with_slack_markup_renders_as_plain_text(
    start_bot: StartBot, database_url: URL, tmp_path: Path
) -> None:
    nasty = "Ping <!channel> & <@U123> <https://evil|click>"
    abstract = f"{nasty}. It improves accuracy by 3.2% over {nasty}."
    entry = Entry("2610.66666", nasty, abstract=abstract)
    path = write(tmp_path / "evil.txt", huggingface_digest("2026-10-06", [entry]))
    async with db.open_engine(database_url) as engine:
        await db.upgrade(engine)
        await ingest(db.session_factory(engine), [path])
    bot = await start_bot(database_url)

    for line in ("/paper 2610.66666", "/claims 3.2%", f"/claims {nasty}"):
        _, reply = await bot.command(line)
        shown = json.dumps({k: v for k, v in reply.items()}, ensure_ascii=False)
        shown = re.sub(r'"value": "(?:[^"\\]|\\.)*"', "", shown)  # button data, never shown
        for injection in ("<!channel>", "<@U123>", "<https://evil|click>"):
            assert injection not in shown, line
        assert "&lt;!channel&gt;" in shown, line


async def test_digest_previews_the_next_summary(bot: Bot) -> None:
    _, reply = await bot.command("/digest")
    text = as_text(reply)
    assert "Preview of the next summary" in text
    assert "36 new papers" in text
    assert bot.slack.called("chat.postMessage") == []


async def test_digest_post_is_for_admins_and_posts_once(
    start_bot: StartBot, database_url: URL, tmp_path: Path
) -> None:
    bot = await start_bot(await seeded_copy(database_url), PAPERBOT_DIGEST_CHANNEL="CTEAM")
    _, refused = await bot.command("/digest post", user="UNOTADMIN")
    assert "Only admins" in as_text(refused)

    _, first = await bot.command("/digest post", user=ADMIN)
    _, second = await bot.command("/digest post", user=ADMIN)
    reports = [as_text(r) for r in await bot.responses(2, within=30)]
    assert "Posting the summary" in as_text(first) and "Posting" in as_text(second)
    # The scheduler's catch-up at start may post first: either way, exactly one post.
    assert set(reports) <= {
        "Posted the summary of 36 papers to #CTEAM.",
        "Nothing new to post to #CTEAM.",
        "A summary for #CTEAM is being posted right now.",
    }
    await bot.slack.wait_for("chat.postMessage", 3, within=10)  # parent and two replies
    await asyncio.sleep(0.5)
    parents = [m for m in bot.slack.called("chat.postMessage") if not m.get("thread_ts")]
    assert [m["channel"] for m in parents] == ["CTEAM"]


async def test_every_button_of_an_old_style_arxiv_paper_works(
    start_bot: StartBot, database_url: URL, tmp_path: Path
) -> None:
    """Old-style IDs (hep-th/9901001) are read by the parser, /paper and the buttons alike."""
    entry = Entry("hep-th/9901001", "Strings Before 2007")
    path = write(tmp_path / "old.txt", huggingface_digest("2026-10-06", [entry]))
    async with db.open_engine(database_url) as engine:
        await db.upgrade(engine)
        await ingest(db.session_factory(engine), [path])
    bot = await start_bot(database_url)

    for typed in ("hep-th/9901001", "https://arxiv.org/abs/hep-th/9901001v2"):
        _, card = await bot.command(f"/paper {typed}")
        assert as_text(card).startswith("Strings Before 2007"), typed
    assert await bot.click(buttons(card)["Share in channel"], channel="CTEAM") == 200
    await bot.responses(1)
    (posted,) = bot.slack.called("chat.postMessage")
    assert "Strings Before 2007" in str(posted["blocks"])
    _, claim = await bot.command("/claims hep-th/9901001#a1")
    assert "3.2%" in as_text(claim)
    assert await bot.click(buttons(claim)["Open Strings Before 2007"]) == 200
    assert as_text((await bot.responses(2))[1]).startswith("Strings Before 2007")
