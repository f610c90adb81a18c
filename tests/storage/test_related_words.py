"""Words papers use for the same finding (storage/data/ml_related.tsv): a query word also
finds the other words of its group, ranked below the word as typed, and marked."""

from __future__ import annotations

import pytest

from storage import bilingual
from storage.claim_ranking import rank
from storage.search_text import (
    MAX_ALTERNATIVES,
    MAX_TRANSLATED_TOKENS,
    english_key,
    fold_chinese,
    highlight_spans,
    index_text,
    parse_query,
)
from tests.storage.test_cross_language import finds, translated_tokens

pytestmark = pytest.mark.usefixtures("dictionary")


@pytest.mark.parametrize(
    ("text", "typed"),
    [
        ("the system achieved a three-fold speedup over the baseline", "faster"),
        ("推理加速 2.1 倍", "faster"),
        ("human annotators preferred our summaries in 71% of pairs", "human raters"),
        ("general capabilities are retained: MMLU stays within 0.3 points", "preserved"),
        ("the same accuracy at a lower cost per task", "省钱"),
        ("without the verifier, success rate degrades by 12 points", "removing verifier hurts"),
    ],
)
def test_a_word_finds_the_other_words_of_its_group(text: str, typed: str) -> None:
    assert finds(text, typed)


def test_a_word_in_no_group_finds_only_itself_and_its_translations() -> None:
    assert not finds("the system achieved a three-fold speedup", "slower")
    assert not finds("human annotators preferred our summaries", "human robots")


def test_the_word_as_typed_ranks_first_then_its_translation_then_its_group() -> None:
    typed = index_text("the decoder runs faster on long inputs")
    translated = index_text("the decoder runs 更快 on long inputs")
    related = index_text("the decoder runs speedup on long inputs")
    assert rank(parse_query("faster"), [(1, related), (2, translated), (3, typed)]) == [3, 2, 1]


def test_the_words_found_are_marked() -> None:
    text = "a three-fold speedup at 1.14 seconds per frame"
    assert [text[a:b] for a, b in highlight_spans(text, parse_query("faster"))] == ["speedup"]


def test_quoted_words_are_matched_as_typed() -> None:
    assert not finds("a three-fold speedup", '"faster"')


def test_a_query_of_many_grouped_words_stays_within_its_budget() -> None:
    query = parse_query("faster cheaper better robust memory latency improve reduce")
    assert translated_tokens(query) <= MAX_TRANSLATED_TOKENS
    assert all(len(term.also) <= MAX_ALTERNATIVES for term in query.terms)


def test_every_group_is_well_formed() -> None:
    """Each line of the file: two words or more, each keyed apart from the others (two
    forms of one stem are one word), none a single Chinese character, which says too many
    things to stand for a word."""
    words = bilingual.loaded()
    assert words is not None
    lines = [
        line
        for line in bilingual.RELATED_WORDS.read_text(encoding="utf-8").splitlines()
        if line and not line.startswith("#")
    ]
    assert len(lines) >= 40
    for line in lines:
        group = line.split("\t")
        assert len(group) >= 2 and all(w == w.strip() and w for w in group), line
        keys = [english_key(w) if w.isascii() else fold_chinese(w) for w in group]
        assert len(set(keys)) == len(keys), line
        assert all(w.isascii() or len(w) > 1 for w in group), line
        for key in keys:
            assert words.related[key], (line, key)
