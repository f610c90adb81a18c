"""Chinese in either script, and words across Chinese and English, over signed HTTP."""

from __future__ import annotations

from bot.text_view import as_text
from tests.bot.conftest import Bot
from tests.bot.test_word_forms_http import marked_words


async def test_a_traditional_query_finds_and_marks_simplified_text(bot: Bot) -> None:
    status, reply = await bot.command("/claims 延遲")
    assert status == 200
    words = [word for _, word, _ in marked_words(reply)]
    assert "延迟" in words and "ENEAS" in as_text(reply), as_text(reply)


async def test_a_chinese_query_finds_and_marks_english_words(bot: Bot) -> None:
    status, reply = await bot.command("/claims 幻觉")
    assert status == 200
    words = {word.lower() for _, word, _ in marked_words(reply)}
    assert "hallucination" in words, as_text(reply)  # its English, marked too


async def test_an_english_query_finds_a_deep_read_written_in_chinese(bot: Bot) -> None:
    # Hits say why they matched once search by meaning is ready (built in the background).
    _, reply = await bot.command("/paper hallucination detection")
    text = as_text(reply)
    # Its name, the Chinese line it is found by, and why: by words (幻觉检测), not meaning.
    enoki = text[text.index("*Enoki*") :].split("\n\n")[0]
    assert "幻觉检测" in enoki and "exact words" in enoki, text


async def test_a_chinese_query_finds_an_abstract_finding_by_its_translation(bot: Bot) -> None:
    # The finding is an English sentence of the abstract; the digest's Chinese abstract
    # says it as 策略内数据…, which the hit shows beside it, marked.
    status, reply = await bot.command("/claims 策略内数据")
    assert status == 200
    text = as_text(reply)
    # The English is marked too: policy and data are 策略 and 数据 in English.
    assert "`2609.35259#a3`" in text and "On-*policy* *data*" in text, text
    assert "\n中文摘要：然而，在两种 KL 方向下，*策略内数据*仍然提高了" in text, text


async def test_an_english_term_finds_chinese_claims_through_the_glossary(bot: Bot) -> None:
    # ENEAS#5 and ENEAS#7 quote tables: only their Chinese says latency (延迟), which
    # CC-CEDICT gives as "to delay" alone.
    status, reply = await bot.command("/claims latency")
    assert status == 200
    text = as_text(reply)
    for address in ("ENEAS#5", "ENEAS#7"):
        hit = text[text.index(f"`{address}`") :].split("\n\n")[0]
        assert "*延迟*" in hit and "latency" not in hit.lower(), hit
