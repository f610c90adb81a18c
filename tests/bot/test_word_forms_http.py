"""Word forms over signed HTTP: a word finds its other forms, and the reply marks whole words."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.text_view import as_text
from tests.bot.conftest import Bot

_BOLD = re.compile(r"(.?)\*([^*\n]+)\*(.?)")


def marked_words(reply: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(character before, bold text, character after) in the claims' text, not their titles."""
    found = []
    for block in reply["blocks"]:
        text = (block.get("text") or {}).get("text", "")
        if block["type"] == "section" and "\n" in text:
            found += _BOLD.findall(text.split("\n", 1)[1])
    return found


@pytest.mark.parametrize(
    ("typed", "expected"),
    [("benchmark", "benchmarks"), ("GPU", "GPUs"), ("AIME", "AIME24"), ("AIME", "AIME2024")],
)
async def test_a_word_finds_and_marks_its_other_forms(bot: Bot, typed: str, expected: str) -> None:
    status, reply = await bot.command(f"/claims {typed}")
    assert status == 200
    words = [word for _, word, _ in marked_words(reply)]
    assert expected in words, as_text(reply)


async def test_a_name_and_its_year_find_the_short_form(bot: Bot) -> None:
    # GAPO's first claim reports AIME25 (and AIME24, which `AIME 2025` must not find).
    _, reply = await bot.command("/claims AIME 2025")
    words = {word for _, word, _ in marked_words(reply)}
    assert "AIME25" in words and "AIME24" not in words, as_text(reply)
    assert "`GAPO#1`" in as_text(reply)


async def test_the_is_marked_only_as_a_whole_word(bot: Bot) -> None:
    _, reply = await bot.command("/claims the")
    marks = marked_words(reply)
    assert marks and {word.lower() for _, word, _ in marks} == {"the"}
    assert not any(before.isalnum() or after.isalnum() for before, _, after in marks)
    assert "other" in as_text(reply).lower()  # "other" is there, and not marked inside


@pytest.mark.parametrize(
    ("typed", "expected"),
    [("xplanner", "X-Planner"), ("X-Planner", "X-Planner"), ("world model", "World Models")],
)
async def test_paper_finds_names_and_titles_by_their_forms(
    bot: Bot, typed: str, expected: str
) -> None:
    status, reply = await bot.command(f"/paper {typed}")
    assert status == 200
    assert expected in as_text(reply), as_text(reply)


async def test_a_question_typed_as_a_sentence_finds_its_answer(bot: Bot) -> None:
    # `what`, `is`, `the` and `per` are in no claim's answer: they are not required.
    _, reply = await bot.command("/claims what is the latency per frame")
    text = as_text(reply)
    hit = text[text.index("`ENEAS#6`") :].split("\n\n")[0]
    assert "exact words" in hit and "*latency*" in hit and "*frame*" in hit, hit


async def test_a_word_finds_the_words_papers_use_for_it(bot: Bot) -> None:
    # ENEAS#6 says "a three-fold speedup", never "faster".
    _, reply = await bot.command("/claims faster")
    text = as_text(reply)
    hit = text[text.index("`ENEAS#6`") :].split("\n\n")[0]
    assert "*speedup*" in hit, hit


async def test_a_term_of_several_words_finds_its_translation(bot: Bot) -> None:
    # `fine-tuning` is one term the glossary knows: 微调, as the Chinese claims write it.
    _, reply = await bot.command("/claims fine-tuning")
    assert "微调" in {word for _, word, _ in marked_words(reply)}, as_text(reply)
