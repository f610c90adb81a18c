"""`author:` and excluded words (`-word`, `-"a phrase"`) in `/paper`, `/claims` and
subscriptions, over signed HTTP on both stores."""

from __future__ import annotations

import pytest

from bot.text_view import as_text
from tests.bot.conftest import Bot
from tests.bot.limits import limit_violations


async def said(bot: Bot, line: str) -> str:
    status, reply = await bot.command(line)
    assert status == 200 and limit_violations(reply) == []
    return as_text(reply)


async def test_an_author_opens_their_paper_and_the_card_shows_the_first_authors(bot: Bot) -> None:
    card = await said(bot, '/paper author:"Limin Wang"')
    assert card.startswith("OneStreamer: Unifying Perception")
    assert "Zeng, Yang, Zhang et al." in card
    assert (await said(bot, '/paper author:"XIANGYU zeng"')).startswith("OneStreamer")
    assert "2 papers match" in await said(bot, "/paper author:zeng")
    # Every word of the name must be in one author's name: Limin is not Zhiqiu's.
    refused = await said(bot, '/paper author:"Limin Zhang"')
    assert refused == "No paper in the store has an author named “Limin Zhang”."


async def test_author_narrows_words_and_claims(bot: Bot) -> None:
    # `streaming` is searched in Chinese too (流媒体 …): a list, the paper saying it first.
    listed = (await said(bot, "/paper streaming author:wang")).split("\n\n")
    assert listed[0].startswith("3 papers match") and listed[1].startswith("*OneStreamer")
    assert "No paper matches" in await said(bot, "/paper AUROC author:wang")
    claims = await said(bot, '/claims author:"Limin Wang"')
    assert claims.startswith("5 claims match")
    assert claims.count("`2610.01762#a") == 5
    assert (await said(bot, '/claims PSTL author:"Limin Wang"')).startswith("2 claims match")


async def test_excluded_words_leave_out_what_holds_them(bot: Bot) -> None:
    everything = await said(bot, "/claims AUROC")
    assert "`Enoki#" in everything
    without = await said(bot, "/claims AUROC -Enoki")
    assert "`Enoki#" not in without and "`RLCDAlignBench#1`" in without
    phrase = await said(bot, '/claims AUROC -"median AUROC"')
    assert "`RLCDAlignBench#1`" not in phrase and "`Enoki#" in phrase


@pytest.mark.parametrize(
    ("line", "answer"),
    [
        ("/paper author:", "`author:` needs a name, like `author:wang`"),
        ("/claims AUROC author:", "`author:` needs a name"),
        ('/paper author:"Limin Wang', "`author:` opens a quote it does not close"),
        ("/paper -video", "Excluded words (`-word`) narrow a search; add a word to search"),
        ('/claims -Enoki -"median AUROC"', "Excluded words (`-word`) narrow a search"),
        ("/paper author:a author:b author:c author:d", "Use at most 3 `author:` filters"),
    ],
)
async def test_bad_filters_get_a_sentence(bot: Bot, line: str, answer: str) -> None:
    assert (await said(bot, line)).startswith(answer)


async def test_an_unclosed_quote_in_words_is_searched_and_told(bot: Bot) -> None:
    text = await said(bot, '/claims "median AUROC')
    assert "`RLCDAlignBench#1`" in text
    assert "A quote without its closing quote was read as a word." in text
