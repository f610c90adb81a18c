"""*Save* on cards, `/paper saved` (with *Remove*), the Home tab and BibTeX, over signed
HTTP against the fake Slack on both stores, and `paperbot export --saved --bibtex`."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from sqlalchemy import delete
from sqlalchemy.engine import URL

from bot.cli import main
from bot.text_view import as_text
from storage import db, saved
from storage.models import Paper, SavedPaper
from tests.bot.conftest import Bot, StartBot, buttons, seeded_copy
from tests.bot.limits import limit_violations
from tests.bot.test_compare_http import choose


@pytest.fixture
async def bot(start_bot: StartBot, database_url: URL) -> Bot:
    """The bot on a seeded database of its own: these tests save papers."""
    return await start_bot(await seeded_copy(database_url))


async def save_from_card(bot: Bot, line: str, user: str = "USAVE1") -> str:
    _, card = await bot.command(line, user=user)
    seen = len(bot.slack.called("response_url"))
    assert await bot.click(buttons(card)["Save"], user=user) == 200
    reply = (await bot.responses(seen + 1))[-1]
    assert limit_violations(reply) == []
    return as_text(reply)


async def test_save_list_remove_and_bibtex(bot: Bot) -> None:
    said = await save_from_card(bot, "/paper 2610.01762")
    assert said == "Saved: 1 of at most 200 in your list. `/paper saved` lists them."
    assert (await save_from_card(bot, "/paper 2610.01762")).startswith("Already saved: 1 of")
    await save_from_card(bot, "/paper ENEAS")  # no arXiv ID: no BibTeX

    _, listed = await bot.command("/paper saved", user="USAVE1")
    text = as_text(listed)
    assert text.startswith("2 saved (at most 200)")
    assert text.index("*ENEAS*") < text.index("*OneStreamer")  # the last saved first

    _, bib = await bot.command("/paper saved bibtex", user="USAVE1")
    bib_text = as_text(bib)
    assert "1 saved papers have no arXiv ID and are left out." in bib_text
    assert "@misc{zeng2026onestreamer," in bib_text
    assert "author = {Xiangyu Zeng and Yuandong Yang and" in bib_text
    assert "eprint = {2610.01762}," in bib_text

    seen = len(bot.slack.called("response_url"))
    assert await bot.click(buttons(listed)["Remove"], user="USAVE1") == 200  # the last one
    redrawn = (await bot.responses(seen + 1))[-1]
    assert redrawn["replace_original"] is True
    assert as_text(redrawn).startswith("Removed “OneStreamer: Unifying")
    assert "1 saved (at most 200)" in as_text(redrawn)


async def test_save_from_a_claim_hit(bot: Bot) -> None:
    _, page = await bot.command("/claims AIME2024", user="USAVE6")
    hit = next(b for b in page["blocks"] if "`Hunyuan-A13B#5`" in b.get("text", {}).get("text", ""))
    assert await choose(bot, hit["accessory"], "Save the paper", user="USAVE6") == 200
    assert as_text((await bot.responses(1))[0]).startswith("Saved: 1 of at most 200")
    _, listed = await bot.command("/paper saved", user="USAVE6")
    assert "*Hunyuan-A13B" in as_text(listed)


async def test_the_home_tab_shows_saved_papers(bot: Bot) -> None:
    await save_from_card(bot, "/paper GAPO", user="USAVE2")
    event = {"type": "app_home_opened", "user": "USAVE2", "tab": "home", "channel": "D1"}
    assert await bot.event(event) == 200
    call = (await bot.slack.wait_for("views.publish", 1, within=10))[-1]
    view = call["view"] if isinstance(call["view"], dict) else json.loads(call["view"])
    text = as_text(view)
    assert "*Your saved papers*" in text and "GAPO" in text.split("*Your saved papers*")[1]


async def test_a_saved_paper_gone_from_the_store_is_shown_and_removable(
    bot: Bot, database_url: URL
) -> None:
    await save_from_card(bot, "/paper ENEAS", user="USAVE3")
    async with db.open_engine(database_url) as engine, db.writing(db.session_factory(engine)) as s:
        await s.execute(delete(Paper).where(Paper.name == "ENEAS"))
    _, listed = await bot.command("/paper saved", user="USAVE3")
    assert "*ENEAS*\n_no longer in the store_" in as_text(listed)
    assert await bot.click(buttons(listed)["Remove"], user="USAVE3") == 200
    assert as_text((await bot.responses(2))[-1]).startswith("Removed “ENEAS”.")


async def test_the_list_holds_at_most_200_papers_and_says_so(bot: Bot, database_url: URL) -> None:
    async with db.open_engine(database_url) as engine, db.writing(db.session_factory(engine)) as s:
        s.add_all(
            SavedPaper(user_id="USAVE4", paper_key=f"text:{i:08x}", label=f"Paper {i}")
            for i in range(saved.MAX_SAVED)
        )
    said = await save_from_card(bot, "/paper GAPO", user="USAVE4")
    assert said.startswith("You have saved 200 papers, the most a list holds; remove some")
    _, listed = await bot.command("/paper saved", user="USAVE4")
    assert limit_violations(listed) == [] and "200 saved" in as_text(listed)


async def test_export_saved_bibtex_from_the_command_line(
    bot: Bot,
    database_url: URL,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    await save_from_card(bot, "/paper 2610.01762", user="USAVE5")
    monkeypatch.setenv("PAPERBOT_DATABASE_URL", database_url.render_as_string(False))
    out = tmp_path / "saved.bib"
    with pytest.raises(SystemExit) as done:
        await asyncio.to_thread(main, ["export", "--saved", "USAVE5", "--bibtex", str(out)])
    assert done.value.code == 0
    assert out.read_text().startswith("@misc{zeng2026onestreamer,\n  title = {OneStreamer")
    assert "exported 1 BibTeX entries" in capsys.readouterr().out
