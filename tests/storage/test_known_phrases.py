"""An English term of several words that the dictionary knows as a whole (`chain of
thought`, `fine-tuning`, `large language model`) is also found in the other language, and
by its group's words: each of its words then stands for the whole term's translations too,
so the hits of the words alone are all still found."""

from __future__ import annotations

import pytest

from storage.claim_ranking import rank
from storage.search_text import (
    MAX_TRANSLATED_TOKENS,
    index_text,
    parse_query,
)
from tests.storage.test_cross_language import finds, marks, translated_tokens

pytestmark = pytest.mark.usefixtures("dictionary")


@pytest.mark.parametrize(
    ("text", "typed"),
    [
        ("思维链提示将 GSM8K 准确率提升 6.1 个百分点", "chain of thought"),
        ("微调后在 MATH-500 上提升 4.2%", "fine-tuning"),
        ("大模型推理的显存占用降低 37%", "large language model"),
        ("奖励模型的偏好准确率为 71.3%", "reward model accuracy"),
    ],
)
def test_a_known_term_of_several_words_finds_its_translation(text: str, typed: str) -> None:
    assert finds(text, typed)
    assert not finds(text, f'"{typed}"')  # quoted: as typed only


def test_each_word_is_still_required_and_still_found_apart() -> None:
    assert finds("the thought that every chain of tools helps", "chain of thought")
    assert not finds("思维链提示", "chain of thought latency")  # latency is in no term here
    assert not finds("the chain of tools", "chain of thought")


def test_an_excluded_word_breaks_the_term() -> None:
    query = parse_query("chain -of thought")
    assert not any(other.tokens == ("思维", "维链") for t in query.terms for other in t.also)


def test_the_words_as_typed_rank_before_the_translation() -> None:
    typed = index_text("chain of thought prompting adds 6.1 points")
    translated = index_text("思维链提示 adds 6.1 points")
    assert rank(parse_query("chain of thought"), [(1, translated), (2, typed)]) == [2, 1]


def test_the_translation_found_is_marked() -> None:
    assert marks("思维链提示将准确率提升", "chain of thought") == ["思维链"]


def test_a_known_term_is_paid_for_once_and_leaves_the_budget_to_the_others() -> None:
    query = parse_query("large language model pruning")
    assert translated_tokens(query) <= MAX_TRANSLATED_TOKENS
    pruning = query.terms[-1]
    assert ("剪枝",) in [other.tokens for other in pruning.also]
