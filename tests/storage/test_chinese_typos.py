"""Chinese typos: a pinyin input method's wrong pick (`延尺` for `延迟`) is corrected to the
dictionary words that sound like it. The dictionary is the real CC-CEDICT data."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from storage import bilingual
from storage.suggestions import build_vocabulary


@pytest.fixture(scope="module")
def words(dictionary: None) -> bilingual.Dictionary:
    loaded = bilingual.loaded()
    assert loaded is not None
    return loaded


@pytest.mark.parametrize(
    ("typed", "meant"),
    [("延尺", "延迟"), ("吞土", "吞吐"), ("幻角", "幻觉"), ("训连", "训练"), ("数剧", "数据")],
)
def test_a_wrong_character_of_the_same_sound_is_corrected_first(
    words: bilingual.Dictionary, typed: str, meant: str
) -> None:
    assert words.homophones(typed)[0] == meant


@pytest.mark.parametrize(("typed", "meant"), [("范化", "泛化"), ("较准", "校准")])
def test_a_glossary_word_that_cc_cedict_lacks_is_corrected_too(
    words: bilingual.Dictionary, typed: str, meant: str
) -> None:
    # 泛化 (generalization) is the glossary's alone: it sounds as its characters read.
    assert words.homophones(typed)[:1] == [meant]


def test_words_are_left_alone_and_only_the_stretch_that_makes_none_is_corrected(
    words: bilingual.Dictionary,
) -> None:
    assert words.mistyped("模型") == []
    assert words.mistyped("降低延迟") == []
    assert words.mistyped("降低延尺") == [(2, 4, ["延迟"])]
    # A longer stretch of single characters is read pair by pair.
    assert words.mistyped("吞土量很高") == [(0, 2, ["吞吐"])]


def test_a_word_that_shares_no_character_is_no_correction(words: bilingual.Dictionary) -> None:
    # 严饬 sounds like 延尺 too, but an input method's slip keeps most of what was typed.
    assert "严饬" not in words.homophones("延尺")


def test_the_search_text_is_corrected_in_place(words: bilingual.Dictionary) -> None:
    vocabulary = build_vocabulary([], [("latency", 50)])
    assert vocabulary.corrections("GAPO 延尺 latncy") == ["GAPO 延迟 latency"]
    assert vocabulary.corrections("延遲") == []  # traditional for 延迟: a word, as typed
    assert vocabulary.corrections("paper:延尺 模型", keep=[(0, 8)]) == []


HAN = st.characters(min_codepoint=0x4E00, max_codepoint=0x9FFF)


@settings(max_examples=300)
@given(run=st.text(HAN, max_size=300))
def test_any_chinese_text_gets_spans_inside_it_that_sound_alike(
    words: bilingual.Dictionary, run: str
) -> None:
    spans = words.mistyped(run)
    ends = [0]
    for start, end, options in spans:
        assert ends[-1] <= start < end <= len(run)  # in order, not overlapping
        ends.append(end)
        assert 1 <= len(options) <= bilingual.HOMOPHONES
        for option in options:
            assert len(option) == end - start and option != run[start:end]
