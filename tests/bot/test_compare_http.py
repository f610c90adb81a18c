"""`/claims compare <name>` over signed HTTP, on both stores and through `ask`."""

from __future__ import annotations

import json
import time
from typing import Any
from urllib.parse import urlencode

import pytest

from bot.text_view import as_text
from storage.compare import is_name, name_key
from tests.bot.conftest import Bot
from tests.bot.limits import limit_violations


async def said(bot: Bot, line: str) -> str:
    status, reply = await bot.command(line)
    assert status == 200 and limit_violations(reply) == []
    return as_text(reply)


async def test_compare_groups_per_paper_the_claims_reporting_a_benchmark(bot: Bot) -> None:
    text = await said(bot, "/claims compare AIME24")
    assert text.startswith("Who reports AIME24")
    assert "in 2 papers · written AIME24 = AIME2024 in the claims" in text
    gapo, hunyuan = text.index("*GAPO*"), text.index("*Hunyuan-A13B*")
    assert gapo < hunyuan  # the paper with more reports first
    assert "`Hunyuan-A13B#5` *74.3, 79.8, 85.7, 87.3*" in text
    # Numbers next to the name, and the setting words of the claim (model size, pass@k).
    assert "`GAPO#3` *17.9, 15.4, 16.2" in text and "_pass@1, pass@256, 1.5B_" in text
    # The long form finds the same claims: aliases come from the claims.
    assert (await said(bot, "/claims compare AIME2024")).count("`GAPO#") == 6


@pytest.mark.parametrize(
    ("line", "answer"),
    [
        (
            "/claims compare AIME23",
            "No claim reports “AIME23”. The nearest names the claims report: `AIME2024`, `AIME25`.",
        ),
        ("/claims compare", "Name a benchmark, baseline or model to compare on"),
        ("/claims compare Zyxwvut9", "No claim reports “Zyxwvut9”."),
        ("/claims compare " + "a b c d e", "`/claims compare` needs one benchmark"),
    ],
)
async def test_compare_of_an_unknown_name_says_so(bot: Bot, line: str, answer: str) -> None:
    assert (await said(bot, line)).startswith(answer)


def test_names_and_their_keys() -> None:
    assert name_key("AIME2024") == name_key("aime-24") == name_key("AIME24") == "aime24"
    assert name_key("MATH-500") == "math500"
    words = ("GDPO", "LingBot-VA", "Qwen3-4B", "the", "2024", "Table")
    assert [w for w in words if is_name(w)] == ["GDPO", "LingBot-VA", "Qwen3-4B"]


async def choose(bot: Bot, menu: dict[str, Any], label: str, user: str = "UMEMBER1") -> int:
    """Pick a choice of a hit's menu, as Slack posts it."""
    option = next(o for o in menu["options"] if o["text"]["text"] == label)
    payload = {
        "type": "block_actions",
        "team": {"id": "T0LOCAL"},
        "user": {"id": user},
        "api_app_id": "A0LOCAL",
        "token": "local",
        "trigger_id": "1.local",
        "channel": {"id": "CPAPERS"},
        "container": {"type": "message"},
        "response_url": bot.slack.response_url("menu"),
        "actions": [
            {
                "type": "overflow",
                "action_id": menu["action_id"],
                "block_id": "b",
                "selected_option": option,
                "action_ts": f"{time.time():.6f}",
            }
        ],
    }
    status, _ = await bot.post(urlencode({"payload": json.dumps(payload)}))
    return status


async def test_related_on_a_gapo_aime24_claim_lists_hunyuan_with_its_reason(bot: Bot) -> None:
    _, page = await bot.command("/claims AIME24 paper:GAPO")
    hits = [b for b in page["blocks"] if "`GAPO#1`" in b.get("text", {}).get("text", "")]
    assert hits and "[⋯ Related claims | Save the paper]" in as_text({"blocks": hits})
    assert await choose(bot, hits[0]["accessory"], "Related claims") == 200
    reply = (await bot.responses(1))[0]
    assert limit_violations(reply) == []
    text = as_text(reply)
    assert text.startswith("Claims of other papers related to `GAPO#1`")
    assert "*Hunyuan-A13B* · _both report AIME24_\n• `Hunyuan-A13B#5`" in text
    assert "`GAPO#" not in text.split("\n", 1)[1]  # only other papers' claims
    assert (await said(bot, "/claims related GAPO#1")) == text


async def test_related_with_a_stale_choice_or_a_wrong_address_says_so(bot: Bot) -> None:
    def menu(value: str) -> dict[str, Any]:
        option = {"text": {"type": "plain_text", "text": "x"}, "value": value}
        return {"action_id": "claim_menu", "options": [option]}

    assert await choose(bot, menu('{"claim":"x"}'), "x") == 200
    assert "out of date" in as_text((await bot.responses(1))[0])
    assert await choose(bot, menu('{"claim":999999}'), "x") == 200
    assert as_text((await bot.responses(2))[1]) == "That claim is no longer in the store."
    assert (await said(bot, "/claims related nothing")).startswith("“nothing” is not a claim's")


@pytest.mark.parametrize(
    "line",
    [
        "/claims compare " + "&<" * 140,
        "/claims compare " + "AIME24 " * 40,
        "/claims related " + "<!channel>#1" * 20,
        "/paper review " + "&" * 290,
        "/paper saved " + "<" * 280,
        "/paper " + '-"' * 140,
        "/claims AUROC " + "author:" * 40,
    ],
)
async def test_hostile_input_to_the_new_commands_gets_a_bounded_answer(bot: Bot, line: str) -> None:
    status, reply = await bot.command(line)
    assert status == 200 and limit_violations(reply) == []
    assert as_text(reply).strip() and "<!channel>" not in str(reply)
