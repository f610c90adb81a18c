"""The *Full review* button and `/paper review`: a modal through views.open, over signed
HTTP against the fake Slack, on both stores."""

from __future__ import annotations

import json
from typing import Any

import pytest
from sqlalchemy import delete
from sqlalchemy.engine import URL

from bot.text_view import as_text
from storage import db
from storage.models import Paper
from tests.bot.conftest import Bot, StartBot, buttons, seeded_copy
from tests.bot.limits import limit_violations

HF_PAPER = "arxiv:2610.01762"  # OneStreamer: two abstracts and a long Chinese analysis


@pytest.fixture
async def bot(start_bot: StartBot, database_url: URL) -> Bot:
    """The bot on a seeded database of its own: one test deletes a paper."""
    return await start_bot(await seeded_copy(database_url))


def view_of(call: dict[str, Any]) -> dict[str, Any]:
    view = call["view"]
    return view if isinstance(view, dict) else json.loads(view)


async def opened(bot: Bot, method: str = "views.open", count: int = 1) -> dict[str, Any]:
    calls = await bot.slack.wait_for(method, count, within=10)
    view = view_of(calls[-1])
    assert view["type"] == "modal" and len(view["blocks"]) <= 100
    assert limit_violations(view) == []
    return view


async def test_full_review_on_eneas_shows_its_limitations(bot: Bot) -> None:
    _, card = await bot.command("/paper ENEAS")
    assert await bot.click(buttons(card)["Full review"]) == 200
    view = await opened(bot)
    text = as_text({"view": view})  # as `paperbot ask` prints a views.open call
    assert text.startswith("[Full review]\n\nENEAS")
    headings = [b["text"]["text"] for b in view["blocks"] if b["type"] == "header"]
    assert headings[:2] == ["ENEAS", "Positioning"]
    assert "Limitations" in headings and "Follow-ups" in headings
    assert "文中已承认的局限：语义发现召回被区域提议上限所约束" in text


async def test_a_huggingface_paper_shows_both_abstracts_and_the_analysis_in_parts(
    bot: Bot,
) -> None:
    _, card = await bot.command("/paper 2610.01762")
    assert await bot.click(buttons(card)["Full review"]) == 200
    first = await opened(bot)
    text = as_text(first)
    assert "Abstract\n========" in text and "Abstract (Chinese)" in text
    assert "part 1 of 2" in text
    more = buttons(first)["More"]
    # Clicked inside the modal: the next part is pushed on top of it.
    assert await bot.click(more, container={"type": "view"}, view={"id": "V1"}) == 200
    second = as_text(await opened(bot, "views.push"))
    assert "part 2 of 2" in second and "More" not in second


async def test_paper_review_opens_the_modal_and_ask_prints_it(bot: Bot) -> None:
    status, reply = await bot.command("/paper review ENEAS")
    assert status == 200 and as_text(reply) == "Opened the full review of *ENEAS*."
    assert "Limitations" in as_text(await opened(bot))
    _, several = await bot.command("/paper review streaming")
    assert "papers match" in as_text(several)


async def test_a_paper_gone_from_the_store_and_a_stale_button_say_so(
    bot: Bot, database_url: URL
) -> None:
    _, card = await bot.command("/paper ENEAS")
    async with db.open_engine(database_url) as engine, db.writing(db.session_factory(engine)) as s:
        await s.execute(delete(Paper).where(Paper.name == "ENEAS"))
    assert await bot.click(buttons(card)["Full review"]) == 200
    assert "That paper is no longer in the store." in as_text(await opened(bot))
    stale = {"action_id": "paper_full_review", "value": '{"paper":"nope"}'}
    assert await bot.click(stale) == 200
    assert "out of date" in as_text((await bot.responses(1))[0])
