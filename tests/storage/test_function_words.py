"""A question typed as a sentence: the words that carry no finding (`how`, `the`, `是否`)
are not required of a hit; typed alone, quoted or excluded they are searched as typed."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from storage.search_text import FUNCTION_WORDS, parse_query
from tests.storage.test_cross_language import finds

pytestmark = pytest.mark.usefixtures("dictionary")


def required(typed: str) -> list[tuple[str, ...]]:
    return [term.tokens for term in parse_query(typed).terms]


@pytest.mark.parametrize(
    ("typed", "words"),
    [
        ("how many training examples", [("train",), ("exampl",)]),
        ("does the gain carry over to other models", [("gain",), ("carri",), ("model",)]),
        ("提升是否只是随机波动", [("提升",), ("随机",), ("波动",)]),
        ("off-policy data", [("off", "polici"), ("data",)]),  # part of a word: kept
    ],
)
def test_function_words_are_not_required(typed: str, words: list[tuple[str, ...]]) -> None:
    assert required(typed) == words


def test_function_words_spend_none_of_the_translations_a_search_may_add() -> None:
    query = parse_query("是否只是如何怎么什么哪些多少 降低延迟")
    assert [term.tokens for term in query.terms] == [("降低",), ("延迟",)]
    assert all(term.also for term in query.terms)  # 延迟 still finds latency


def test_a_question_finds_the_claim_that_answers_it() -> None:
    claim = "the system achieved a latency of 1.14 seconds per frame"
    assert finds(claim, "what is the latency per frame")
    assert finds("我们保留了 20 条证明：提升并非随机波动", "提升是否只是随机波动")


@pytest.mark.parametrize(
    ("typed", "words", "excluded"),
    [
        ("the", [("the",)], []),  # nothing else typed: searched as typed
        ("how to", [("how",), ("to",)], []),
        ('"the" model', [("the",), ("model",)], []),  # quoted: as typed
        ("the -model", [("the",)], [("model",)]),  # nothing else required
        ("-the model", [("model",)], [("the",)]),  # excluded: as typed
    ],
)
def test_function_words_alone_quoted_or_excluded_are_kept(
    typed: str, words: list[tuple[str, ...]], excluded: list[tuple[str, ...]]
) -> None:
    query = parse_query(typed)
    assert [t.tokens for t in query.terms] == words
    assert [t.tokens for t in query.excluded] == excluded


@given(st.lists(st.sampled_from([*sorted(FUNCTION_WORDS)[:40], "latency", "延迟"]), max_size=12))
def test_a_query_always_requires_something_when_anything_is_typed(words: list[str]) -> None:
    query = parse_query(" ".join(words))
    assert bool(query.terms) == bool(words)
    if {"latency", "延迟"} & set(words):
        assert all(term.runs[0] not in FUNCTION_WORDS for term in query.terms)
