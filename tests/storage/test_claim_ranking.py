"""The order of matching claims, from their own indexed text (storage/claim_ranking.py)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from storage.claim_ranking import rank
from storage.search_text import BadQuery, index_text, parse_query, read_dictionary


def ranked(typed: str, *texts: str) -> list[int]:
    """The positions of `texts` (ids 1, 2, …) best first for the search `typed`."""
    claims = [(i, index_text(text)) for i, text in enumerate(texts, 1)]
    return rank(parse_query(typed, translate=False), claims)


def test_more_occurrences_rank_first() -> None:
    assert ranked("latency", "latency falls", "latency and latency again") == [2, 1]


def test_a_shorter_claim_ranks_first_for_the_same_count() -> None:
    long = "latency " + "filler words that make the text much longer " * 8
    assert ranked("latency", long, "latency falls") == [2, 1]


def test_the_word_as_typed_ranks_before_its_other_forms() -> None:
    # `benchmarks` and `benchmark` share a token; the form typed earns the bonus.
    assert ranked("benchmarks", "one benchmark", "two benchmarks") == [2, 1]
    assert ranked("AIME", "AIME24 scores", "AIME scores") == [2, 1]


def test_a_hyphenated_word_counts_when_written_as_one() -> None:
    assert ranked("x-planner", "the tool", "xplanner plans", "x-planner plans")[-1] == 1


def test_equal_scores_go_to_the_newer_claim() -> None:
    assert ranked("latency", "latency falls", "latency falls", "latency falls") == [3, 2, 1]


def test_a_chinese_run_typed_whole_ranks_first() -> None:
    # 具身智能 as typed, against a claim holding its words apart.
    assert ranked("具身智能", "智能体的具身训练", "具身智能体") == [2, 1]


def test_translations_count_less_than_the_word_typed() -> None:
    read_dictionary()
    query = parse_query("latency")
    assert query.terms[0].also, "the dictionary pairs latency with 延迟"
    claims = [(1, index_text("延迟 降低")), (2, index_text("latency falls"))]
    assert rank(query, claims) == [2, 1]


words = st.sampled_from(["latency", "model", "模型", "延迟", "x-planner", "AIME24", "the"])
texts = st.lists(words, max_size=12).map(" ".join)


@given(st.lists(words, min_size=1, max_size=3).map(" ".join), st.lists(texts, max_size=8))
def test_every_claim_is_ranked_once_whatever_their_order(
    typed: str, given_texts: list[str]
) -> None:
    query = parse_query(typed)
    claims = [(i, index_text(text)) for i, text in enumerate(given_texts, 1)]
    order = rank(query, claims)
    assert sorted(order) == [i for i, _ in claims]
    assert rank(query, claims[::-1]) == order


@given(st.text(max_size=300), st.lists(st.text(max_size=400), max_size=8))
def test_any_typed_text_ranks_every_claim_once(typed: str, given_texts: list[str]) -> None:
    """Whatever is typed (NUL, emoji, lone surrogates, 300 characters of one CJK letter)
    and whatever the claims hold, each claim is ranked once and the order is total."""
    try:
        query = parse_query(typed)
    except BadQuery:
        return  # answered with a sentence before any search
    claims = [(i, index_text(text)) for i, text in enumerate(given_texts, 1)]
    order = rank(query, claims)
    assert sorted(order) == [i for i, _ in claims]
    assert rank(query, claims[::-1]) == order
