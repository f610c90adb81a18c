"""The tokenizer's word forms: what is indexed, what a query asks for, and what is marked."""

from __future__ import annotations

import itertools
import re
import time

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from storage.search_text import (
    MAX_QUERY_TOKENS,
    highlight_spans,
    index_text,
    parse_query,
    word_forms,
)


def finds(text: str, typed: str) -> bool:
    """Whether every term of `typed` is in `text`'s index as the stores read it: a phrase's
    tokens adjacent (or a hyphenated word's joined form), a single Chinese character as the
    start of a token."""
    indexed = f" {index_text(text)} "
    return all(
        re.search(rf" {re.escape(term.tokens[0])}", indexed)
        if term.prefix
        else f" {' '.join(term.tokens)} " in indexed or f" {term.joined} " in indexed
        for term in parse_query(typed).terms
    )


def marks(text: str, typed: str) -> list[str]:
    return [text[a:b] for a, b in highlight_spans(text, parse_query(typed))]


@pytest.mark.parametrize(
    ("word", "token"),
    [
        ("benchmarks", "benchmark"),
        ("models", "model"),
        ("detection", "detect"),
        ("llms", "llm"),
        ("gpus", "gpu"),
        ("ppos", "ppo"),
        ("aime24", "aime24"),
        ("0.886", "0.886"),
        ("延迟", "延迟"),
    ],
)
def test_a_word_is_indexed_as_its_stem(word: str, token: str) -> None:
    assert word_forms(word)[0] == token


@pytest.mark.parametrize(
    ("text", "typed"),
    [
        ("Results on three benchmarks", "benchmark"),
        ("one benchmark", "benchmarks"),
        ("eight NVIDIA A800 GPUs", "GPU"),
        ("LLMs reason", "LLM"),
        ("World Models", "world model"),
        ("reported on AIME24 and AIME25", "AIME"),
        ("reported on AIME24", "aime 24"),
        ("AIME2024 | 74.3", "AIME"),
        ("X-Planner ranks second", "xplanner"),
        ("X-Planner ranks second", "X-Planner"),
        ("X-Planner ranks second", "x planner"),
        ("xplanner ranks second", "xplanner"),
        ("xplanner ranks second", "X-Planner"),
        ("finetuned on", "fine-tune"),
        ("on Qwen2.5-7B", "Qwen2.5-7B"),
        ("reported on AIME24", "AIME2024"),
        ("AIME2024 | 74.3", "aime24"),
        ("COCO2017", "coco17"),
        ("GPT-4.5 and GPT-4", "gpt4"),
        ("GPT-4.5 and GPT-4", "4.5"),
        ("Results on three benchmarks", '"three benchmark"'),
        ("延迟下降 27.5%", "延迟"),
        ("延迟下降 27.5%", "迟"),
        ("median AUROC of 0.886", '"auroc of 0.886"'),
    ],
)
def test_a_text_is_found_by_other_forms_of_its_words(text: str, typed: str) -> None:
    assert finds(text, typed)


@pytest.mark.parametrize(
    ("text", "typed"),
    [
        ("three benchmarks", '"benchmark three"'),
        ("the other one", "oth"),
        ("AIME24", "AIME2025"),
        ("X-Planner", '"planner x"'),
        ("a planner", "xplanner"),
    ],
)
def test_other_words_and_other_orders_are_not_found(text: str, typed: str) -> None:
    assert not finds(text, typed)


def test_the_other_forms_follow_the_text_so_phrases_stay_adjacent() -> None:
    indexed = index_text("X-Planner improves AIME24 benchmarks")
    assert indexed.startswith("x planner improv aime24 benchmark ")
    assert set(indexed.split()[5:]) == {"xplanner", "improves", "aim", "aime", "24", "benchmarks"}
    assert index_text("延迟下降") == "延迟 迟下 下降 降"  # Chinese as before


@pytest.mark.parametrize(
    ("text", "typed", "marked"),
    [
        ("the other theory", "the", ["the"]),
        ("on three benchmarks", "benchmark", ["benchmarks"]),
        ("AIME24 and AIME2024; we aim", "AIME", ["AIME24", "AIME2024", "aim"]),
        ("X-Planner beats U-Scratch", "xplanner", ["X-Planner"]),
        ("X-Planner beats U-Scratch", "X-Planner", ["X-Planner"]),
        ("xplanner beats U-Scratch", "X-Planner", ["xplanner"]),
        ("AIME2024 and AIME24", "AIME2024", ["AIME2024", "AIME24"]),
        ("World Models are world-models", '"world model"', ["World Models", "world-models"]),
        ("推理延迟下降", "延迟", ["延迟"]),
        ("延迟 and AUROC 0.886", "auroc 0.886", ["AUROC", "0.886"]),
    ],
)
def test_highlighting_marks_whole_words(text: str, typed: str, marked: list[str]) -> None:
    assert marks(text, typed) == marked


def test_words_typed_as_written_are_known_for_ranking() -> None:
    (aime,) = parse_query("AIME").terms
    assert (aime.tokens, aime.exact) == (("aim",), ("aime",))
    (phrase,) = parse_query('"world models"').terms
    assert (phrase.tokens, phrase.exact) == (("world", "model"), ("models",))
    assert parse_query("benchmark").terms[0].exact == ()


@pytest.mark.parametrize(
    "typed", ["延" * 300, "😀" * 300, "\x00" * 300, "a-" * 150, "a1" * 150, "x" * 300]
)
def test_hostile_text_is_cheap_to_index_read_and_mark(typed: str) -> None:
    started = time.thread_time()  # this thread's CPU: what a runaway spends
    query = parse_query(typed)
    assert sum(len(term.tokens) for term in query.terms) <= MAX_QUERY_TOKENS
    for text in (typed, typed * 300):
        index_text(text)
        highlight_spans(text, query)
    assert time.thread_time() - started < 1.0


WORDISH = st.text(
    alphabet=st.sampled_from([*"abesilmrxyzAEGIMPSX0123456789", "-", ".", " ", "延", "迟"]),
    max_size=60,
)


@given(WORDISH)
def test_any_text_finds_itself_and_marks_within_itself(text: str) -> None:
    query = parse_query(text)
    assume(not query.notes)  # a phrase searched with its repeats collapsed is another phrase
    assert finds(text, text)
    spans = highlight_spans(text, query)
    assert all(0 <= a < b <= len(text) for a, b in spans)
    assert all(b < c for (_, b), (c, _) in itertools.pairwise(spans))


@given(st.text(max_size=200))
def test_indexed_tokens_hold_no_query_syntax(text: str) -> None:
    """Quoting a token is all the escaping FTS5 and tsquery need."""
    for token in index_text(text).split():
        assert not re.search(r"""[\s"'*:&|!()<>\\^%_-]""", token), token


def test_a_name_typed_with_a_year_is_one_term_found_by_its_short_form_too() -> None:
    (term,) = parse_query("AIME 2025").terms
    assert term.tokens == ("aim", "2025")  # the two words in a row (`aime`'s stem)
    assert [also.tokens for also in term.also] == [("aime25",)]  # as AIME2025 and AIME25

    def found(text: str) -> bool:
        indexed = f" {index_text(text)} "
        return any(f" {' '.join(t.tokens)} " in indexed for t in (term, *term.also))

    assert found("AIME25 accuracy") and found("AIME2025") and found("AIME 2025 accuracy")
    assert not found("AIME 2024 accuracy in 2025")


@pytest.mark.parametrize("typed", ["results 2024", "aime 2025", "AIME 25", "AIME 2025x"])
def test_other_words_with_numbers_stay_apart(typed: str) -> None:
    assert len(parse_query(typed).terms) == 2


NAMES_AND_YEARS = st.lists(
    st.sampled_from(
        ["AIME", "CVPR", "NeurIPS", "aime", "results", "2024", "2025", "25", "-", "延迟"]
    )
    | st.text(max_size=8),
    max_size=60,
).map(" ".join)


@given(typed=NAMES_AND_YEARS)
def test_names_with_years_in_any_search_stay_within_the_limits(typed: str) -> None:
    query = parse_query(typed[:300])
    assert sum(len(term.tokens) for term in query.terms) <= MAX_QUERY_TOKENS
    for term in query.terms:
        if term.also and term.also[0].tokens[0].endswith(("24", "25")) and len(term.tokens) == 2:
            (joined,) = term.also  # a name and its year: the phrase, or the short form
            assert joined.tokens == (word_forms(term.runs[0] + term.runs[1])[0],)
