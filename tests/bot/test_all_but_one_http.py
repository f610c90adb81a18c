"""Searches that find few results holding every word, over signed HTTP: what holds all
the words but one follows, and says so."""

from __future__ import annotations

from sqlalchemy.engine import URL

from bot.text_view import as_text
from tests.bot.conftest import Bot, StartBot


async def test_claims_holding_all_the_words_but_one_follow_and_say_so(bot: Bot) -> None:
    status, reply = await bot.command("/claims hallucination robot")  # no claim holds both
    assert status == 200
    text = as_text(reply)
    line = "No claim holds every word; those marked _all but one word_ hold all of them but one."
    assert line in text, text
    assert "_all but one word_" in text and "*robot*" in text.lower(), text
    assert "*机器人*" in text  # a word's translation holds for it, as in any search


async def test_papers_holding_all_the_words_but_one_are_listed_not_opened(
    start_bot: StartBot, seeded_url: URL
) -> None:
    bot = await start_bot(seeded_url, PAPERBOT_EMBEDDER="none")  # by words alone
    status, reply = await bot.command("/paper HalluEntity zebra")  # only Enoki says HalluEntity
    assert status == 200
    text = as_text(reply)
    line = "No paper holds every word; those marked _all but one word_ hold all of them but one."
    assert line in text and "*Enoki*" in text and "Open" in text, text  # a list, not its card
