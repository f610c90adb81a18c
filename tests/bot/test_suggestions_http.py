"""Did you mean, /paper through claims, and totals with Next page: over signed HTTP to
the running bot, on both stores, as a member sees them."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from sqlalchemy.engine import URL

from bot.text_view import as_text
from jobs.ingest import ingest
from storage import db
from tests.bot.conftest import Bot, StartBot, buttons, seeded_copy
from tests.bot.limits import limit_violations
from tests.cli.helpers import paperbot
from tests.digests import Entry, huggingface_digest, write


async def test_a_mistyped_name_with_one_correction_shows_its_card(bot: Bot) -> None:
    status, reply = await bot.command("/paper GAOP")
    assert status == 200
    text = as_text(reply)
    assert text.startswith("Showing results for *GAPO* — no match for “GAOP”.")
    assert reply["blocks"][1] == {"type": "header", "text": {"type": "plain_text", "text": "GAPO"}}


async def test_a_mistyped_claim_word_with_one_correction_shows_its_claims(bot: Bot) -> None:
    _, reply = await bot.command("/claims latncy")
    text = as_text(reply)
    assert text.startswith("Showing results for *latency* — no match for “latncy”.")
    # Six say "latency", two more 延迟 (the glossary's latency); the ninth is near in
    # meaning (the tests' stand-in embedder).
    assert "9 claims match “latency” · 1–9" in text
    assert "*latency*" in text  # the hits, highlighted
    assert text.count("_similar meaning_") == 1


async def test_a_misspelling_is_corrected_although_meaning_finds_neighbours(bot: Bot) -> None:
    # "AUROC" alone brings hits by meaning; "medain" is no word, so the words are corrected.
    _, reply = await bot.command("/claims AUROC medain")
    text = as_text(reply)
    assert text.startswith("Showing results for *AUROC median* — no match for “AUROC medain”.")
    assert "exact words" in text


async def test_a_chinese_word_mistyped_by_sound_is_corrected(bot: Bot) -> None:
    # 延尺 (yan chi) is no word: an input method's wrong pick for 延迟, which the seeds use.
    _, reply = await bot.command("/claims 延尺")
    text = as_text(reply)
    assert text.startswith("Showing results for *延迟* — no match for “延尺”.")
    assert "*延迟*" in text.split("\n", 1)[1]  # the hits, highlighted


async def test_a_glossary_word_mistyped_by_sound_is_corrected(bot: Bot) -> None:
    # 范化 (fan hua) for 泛化, generalization: a term CC-CEDICT lacks, from the glossary.
    _, reply = await bot.command("/claims 范化")
    text = as_text(reply)
    assert text.startswith("Showing results for *泛化* — no match for “范化”."), text


async def test_a_paper_named_among_the_words_searches_within_it(bot: Bot) -> None:
    # ENEAS's claims about its latency (延迟) seldom name ENEAS itself: they come first.
    _, reply = await bot.command("/claims ENEAS 延迟")
    text = as_text(reply)
    assert "The claims of *ENEAS* come first: the search names it." in text, text
    assert not text.startswith("Showing results for")
    hits = re.findall(r"`([^`#]+)#\d+`", text)
    assert hits and set(hits) == {"ENEAS"}


async def test_a_real_word_the_store_lacks_keeps_the_hits_by_meaning(bot: Bot) -> None:
    _, reply = await bot.command("/claims AUROC zebra")
    text = as_text(reply)
    assert "similar meaning" in text and "Did you mean *AUROC zero*?" in text
    assert not text.startswith("Showing results for")


async def test_the_correction_finding_most_is_shown_and_the_others_offered(bot: Bot) -> None:
    # `modle` is one edit from `model` and from `mode`; `model` finds far more: shown at
    # once, and `mode` is a button away.
    _, reply = await bot.command("/claims modle")
    text = as_text(reply)
    assert text.startswith("Showing results for *model* — no match for “modle”.")
    assert "Did you mean *mode*?" in text
    # 44 say "model" or one of its Chinese words (模型, 造型, 典型), three of them in the
    # Chinese abstract's sentence of a finding; one more by meaning.
    assert "45 claims match “model” · 1–10" in text
    offered = buttons(reply)
    assert json.loads(offered["mode"]["value"]) == {"c": "/claims", "q": "mode"}

    assert await bot.click(offered["mode"]) == 200
    (ran,) = await bot.responses(1)
    assert re.match(r"\d+ claims? match “mode”", as_text(ran)), as_text(ran)


async def test_a_swapped_pair_of_letters_finds_the_common_name(bot: Bot) -> None:
    _, reply = await bot.command("/claims AUORC")
    text = as_text(reply)
    assert text.startswith("Showing results for *AUROC* — no match for “AUORC”."), text
    assert "Did you mean *AUPRC*?" in text  # one edit too, but in 4 claims against 10
    assert "10 claims match “AUROC”" in text


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("/claims AUROC paper:Enok", "AUROC paper:Enoki"),  # a letter missing
        ("/claims latency paper:Hunyaun", "latency paper:Hunyuan-A13B"),  # two swapped
        ("/claims paper:Hunyuan", "paper:Hunyuan-A13B"),  # part of the name
    ],
)
async def test_a_paper_filter_naming_no_paper_offers_the_paper_meant(
    bot: Bot, typed: str, meant: str
) -> None:
    _, reply = await bot.command(typed)
    text = as_text(reply)
    name = typed.split("paper:")[1]
    assert text.startswith(f"No paper is called “{name}” (try `/paper {name}`).")
    assert f"Did you mean *{meant}*?" in text
    click = next(b for b in buttons(reply).values() if b["action_id"] == "search_suggestion")
    assert json.loads(click["value"]) == {"c": "/claims", "q": meant}


async def test_a_did_you_mean_button_for_paper_runs_paper(bot: Bot) -> None:
    button = {"action_id": "search_suggestion", "value": '{"c":"/paper","q":"agent"}'}
    assert await bot.click(button) == 200
    (ran,) = await bot.responses(1)
    assert as_text(ran).startswith("16 papers match “agent” · 1–10")


@pytest.mark.parametrize(
    "value",
    [
        '{"c":"/digest","q":"post"}',
        '{"c":"/paper","q":""}',
        '{"c":"/paper"}',
        '{"c":"/claims","q":"' + "a" * 301 + '"}',
        "not json",
    ],
)
async def test_a_tampered_did_you_mean_button_is_refused_politely(bot: Bot, value: str) -> None:
    assert await bot.click({"action_id": "search_suggestion", "value": value}) == 200
    (reply,) = await bot.responses(1)
    assert "out of date" in as_text(reply)


async def test_paper_finds_the_paper_its_claims_name(bot: Bot) -> None:
    _, reply = await bot.command("/paper WanPE-397B")
    assert reply["blocks"][0] == {"type": "header", "text": {"type": "plain_text", "text": "WanPE"}}


async def test_paper_lists_count_them_all_and_page_to_the_rest(bot: Bot) -> None:
    _, first = await bot.command("/paper agent")  # the 16th is found by meaning
    assert as_text(first).startswith("16 papers match “agent” · 1–10")
    assert first["text"] == "16 papers match “agent”"
    assert await bot.click(buttons(first)["Next page"]) == 200
    (second,) = await bot.responses(1)
    assert as_text(second).startswith("16 papers match “agent” · 11–16")
    assert "Next page" not in buttons(second)
    opens = [b for b in first["blocks"] + second["blocks"] if b.get("accessory")]
    assert len({b["accessory"]["value"] for b in opens}) == 16


async def test_claims_give_their_total(bot: Bot) -> None:
    _, reply = await bot.command("/claims AUROC")
    assert as_text(reply).startswith("10 claims match “AUROC” · 1–10")


HOSTILE = ["延" * 300, "😀" * 50, "GAOP\x00latncy", "a\x00b", "?!.,;:-" * 40, "\x00"]


@pytest.mark.parametrize("command", ["/paper", "/claims"])
async def test_hostile_searches_still_answer_a_sentence_or_results(bot: Bot, command: str) -> None:
    for typed in HOSTILE:
        status, reply = await bot.command(f"{command} {typed}")
        assert status == 200, typed[:20]
        assert limit_violations(reply) == []
        text = as_text(reply)
        assert text.strip() and "Traceback" not in text and "went wrong" not in text


def test_ask_shows_the_suggestion_as_text(tmp_path: Path) -> None:
    seeds = Path(__file__).parents[2] / "seeds"
    assert paperbot("ingest", str(seeds), cwd=tmp_path).returncode == 0
    result = paperbot("ask", "/claims modle", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(
        "Showing results for *model* — no match for “modle”.\n\nDid you mean *mode*?\n\n[mode]"
    )


async def test_a_search_finding_little_through_a_rare_typo_offers_the_common_word(
    start_bot: StartBot, database_url: URL, tmp_path: Path
) -> None:
    abstract = "We study a compact modle. It improves accuracy by 3.2% over the modle baseline."
    entry = Entry("2610.77777", "A Compact Study", abstract=abstract)
    path = write(tmp_path / "typo.txt", huggingface_digest("2026-10-06", [entry]))
    url = await seeded_copy(database_url)
    async with db.open_engine(url) as engine:
        await ingest(db.session_factory(engine), [path])
    bot = await start_bot(url)

    _, reply = await bot.command("/claims modle")
    text = as_text(reply)
    assert text.startswith("1 claim matches “modle” · 1–1")  # the digest's own typo
    assert "Did you mean *model*?" in text
    assert await bot.click(buttons(reply)["model"]) == 200
    (ran,) = await bot.responses(1)
    # 44 say "model" or one of its Chinese words; one more by meaning once the background
    # embedding has run.
    assert as_text(ran).startswith(("44 claims match “model”", "45 claims match “model”"))


@pytest.mark.parametrize("typed", ["2609.35259", "https://arxiv.org/abs/2609.35259v1"])
async def test_an_arxiv_id_or_link_alone_shows_that_papers_claims(bot: Bot, typed: str) -> None:
    # No claim's text holds the ID: the paper's claims are listed as it names them.
    _, reply = await bot.command(f"/claims {typed}")
    text = as_text(reply)
    assert text.startswith(f"3 claims match “{typed}”"), text
    assert "come first: the search names it." in text
    hits = re.findall(r"`(2609\.35259#a\d+)`", text)
    assert hits and set(hits) == {"2609.35259#a1", "2609.35259#a2", "2609.35259#a3"}, text
