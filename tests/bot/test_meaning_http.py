"""Search by meaning over signed HTTP through the served bot (the hashing stand-in)."""

from __future__ import annotations

import shutil
from pathlib import Path

from sqlalchemy.engine import URL

from bot.text_view import as_text
from tests.bot.conftest import ADMIN, Bot, StartBot, until_by_meaning
from tests.digests import SEEDS


async def test_claims_found_by_meaning_say_so(bot: Bot) -> None:
    _, reply = await bot.command("/claims AUROC zebra")
    text = as_text(reply)
    assert "similar meaning" in text and "RLCDAlignBench" in text
    assert "exact words" not in text  # no claim holds "zebra"


async def test_papers_found_by_meaning_say_so(bot: Bot) -> None:
    _, reply = await bot.command("/paper AUROC zebra")
    assert "RLCDAlignBench" in as_text(reply) and "similar meaning" in as_text(reply)


async def test_hostile_input_still_gets_an_answer_with_the_dense_leg_on(bot: Bot) -> None:
    for line in (
        "/claims AUROC\x00zebra",
        "/claims ！？。",
        "/claims " + "的" * 290,
        "/paper 😀",
        "/paper \x00",
    ):
        status, reply = await bot.command(line)
        assert status == 200
        assert as_text(reply).strip(), line


async def test_papers_from_a_reingest_are_embedded_in_the_background(
    start_bot: StartBot, database_url: URL, tmp_path: Path
) -> None:
    shutil.copytree(SEEDS, tmp_path / "digests")
    bot = await start_bot(database_url)
    _, before = await bot.command("/claims AUROC zebra")
    assert "No claims match" in as_text(before)
    status, _ = await bot.command("/reingest", user=ADMIN)
    assert status == 200
    await bot.responses(1, within=60)
    reply = await until_by_meaning(bot, "/claims AUROC zebra")
    assert "similar meaning" in as_text(reply)


async def test_related_adds_claims_of_other_papers_close_in_meaning(bot: Bot) -> None:
    _, reply = await bot.command("/claims related RLCDAlignBench#1")
    sections = [b["text"]["text"] for b in reply["blocks"] if b["type"] == "section"]
    close = [text for text in sections if "_close in meaning_" in text]
    assert close, as_text(reply)
    assert len(sections) <= 5
    assert not any(text.startswith("*RLCDAlignBench*") for text in close)  # other papers only
