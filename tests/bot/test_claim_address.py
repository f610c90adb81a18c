"""One claim by its address: `/claims GAPO#3`, and the addresses hits and cards show."""

from __future__ import annotations

import re

from bot.text_view import as_text
from tests.bot.conftest import Bot, buttons


async def test_an_address_answers_with_that_claim_and_the_way_back(bot: Bot) -> None:
    status, reply = await bot.command("/claims GAPO#3")
    assert status == 200
    text = as_text(reply)
    assert text.startswith("*GAPO* · claim 3 · `GAPO#3`\n")
    assert "37.9/76.3" in text  # the claim itself, in full
    assert "Table 3 shows GAPO achieves the best average" in text  # and its quote
    assert await bot.click(buttons(reply)["Open GAPO"]) == 200
    card = (await bot.responses(1))[0]
    assert card["blocks"][0]["text"]["text"] == "GAPO"
    assert "cite one as `GAPO#1`" in as_text(card)


async def test_an_abstract_sentence_has_an_address_of_its_own(bot: Bot) -> None:
    _, reply = await bot.command("/claims 2609.35259#a2")
    text = as_text(reply)
    assert "_from the abstract, not a reviewed claim_ · `2609.35259#a2`" in text
    assert "strong-to-weak distillation" in text


async def test_every_address_a_search_shows_leads_back_to_that_claim(bot: Bot) -> None:
    _, page = await bot.command("/claims AUROC")
    shown = re.findall(r"· claim (\d+) · `([^`]+)`", str(page["blocks"]))
    assert len(shown) == 10
    for number, address in shown:
        _, reply = await bot.command(f"/claims {address}")
        assert as_text(reply).split("\n")[0].endswith(f"claim {number} · `{address}`")


async def test_addresses_that_lead_nowhere_say_so(bot: Bot) -> None:
    _, missing = await bot.command("/claims GAPO#99")
    assert as_text(missing).startswith("*GAPO* has no claim `GAPO#99`.")
    assert "Open GAPO" in buttons(missing)
    _, unknown = await bot.command("/claims NoSuchMethod#2")  # no such paper: a search
    assert as_text(unknown).startswith("No claims match “NoSuchMethod#2”.")
    _, not_an_address = await bot.command("/claims C#")  # a search, not an address
    assert re.match(r"\d+ claims? match “C#”", as_text(not_an_address))
