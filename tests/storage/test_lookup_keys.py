"""The keys a paper is found by its title or name with, and the words of a search that may
name a paper."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from storage.lookup_keys import (
    LONGEST_NAME,
    name_key,
    namings,
    paper_name_key,
    title_key,
    title_name,
)
from storage.search_text import MAX_QUERY_CHARS, MAX_QUERY_TERMS
from tests.bot.test_correction_properties import TYPED


def test_a_name_is_one_key_however_hyphenated_spaced_or_cased() -> None:
    assert {
        name_key(n) for n in ("X-Planner", "xplanner", "x planner", "X‐Planner", "ＸPlanner")
    } == {"xplanner"}
    assert name_key("WanPE-397B") == name_key("wanpe397b")
    assert title_key("  World   Observer ") == title_key("world observer")


@pytest.mark.parametrize(
    ("title", "name"),
    [
        ("SelfSpec: Draft-Free Speculative Decoding", "SelfSpec"),
        ("LLaMA-Adapter: Efficient Fine-tuning", "LLaMA-Adapter"),
        ("Ψ-Spec：推测解码", "Ψ-Spec"),
        ("GPT4o: a report", "GPT4o"),
        ("Position: Agents Need Memory", None),  # a word that opens titles
        ("Survey: Diffusion Models", None),
        ("Speculative Decoding at Scale", None),  # no colon
        ("Two Words: a title", None),  # a phrase, not a coined word
        ("A" + "b" * LONGEST_NAME + "C: too long", None),
        (None, None),
    ],
)
def test_a_title_names_its_paper_by_the_coined_word_it_opens_with(
    title: str | None, name: str | None
) -> None:
    assert title_name(title) == name


def test_a_paper_is_keyed_by_its_name_before_its_title() -> None:
    assert paper_name_key("X-Planner", "SelfSpec: a title") == "xplanner"
    assert paper_name_key(None, "SelfSpec: a title") == "selfspec"
    assert paper_name_key(None, "Position: a title") is None
    assert paper_name_key("\u200b", None) is None  # nothing left once normalised


def test_the_words_that_may_name_a_paper_and_the_rest() -> None:
    assert namings("ENEAS 延迟") == [("name", "eneas", "延迟"), ("name", "延迟", "ENEAS")]
    assert namings("latency, x-planner.") == [
        ("name", "latency", "x-planner."),
        ("name", "xplanner", "latency,"),
    ]
    link = "https://arxiv.org/abs/2609.35259v2"
    assert namings(f"speedup {link}")[1] == ("arxiv", "2609.35259", "speedup")
    assert namings('"X-Planner results" -GAPO 47') == []  # quoted, excluded, no letter


@settings(max_examples=300)
@given(typed=TYPED)
def test_any_search_gives_few_namings_each_leaving_the_other_words(typed: str) -> None:
    found = namings(typed)
    assert len(found) <= MAX_QUERY_TERMS
    for naming in found:
        assert naming.key and len(naming.rest) < max(len(typed), 1) <= MAX_QUERY_CHARS
        assert all(word in typed for word in naming.rest.split())


@settings(max_examples=300)
@given(typed=TYPED, name=st.sampled_from(["ENEAS", "X-Planner", "SelfSpec", "2609.35259"]))
def test_a_name_typed_anywhere_leaves_every_other_word_in_order(typed: str, name: str) -> None:
    assume(not set(typed) & set('"“”'))  # a quote would make the name part of a phrase
    words = f"{typed} {name}"
    assume(len(words.split()) <= MAX_QUERY_TERMS)  # words past those are not read
    key = "2609.35259" if name[0].isdigit() else name_key(name)
    naming = next(n for n in namings(words) if n.key == key)
    if name_key(name) not in {name_key(w) for w in typed.split()}:
        assert naming.rest.split() == typed.split()
