"""Chinese in either script, and words across Chinese and English: what a query asks for,
what is indexed, and what is marked. The dictionary is the real CC-CEDICT data."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from storage import bilingual
from storage.search_text import (
    MAX_ALTERNATIVES,
    MAX_BONUS_PHRASES,
    MAX_QUERY_TERMS,
    MAX_TRANSLATED_TOKENS,
    Query,
    Term,
    dictionary_read,
    english_key,
    fold_chinese,
    highlight_spans,
    index_text,
    normalise,
    parse_query,
    read_dictionary,
)

pytestmark = pytest.mark.usefixtures("dictionary")


def holds(indexed: str, term: Term) -> bool:
    return f" {' '.join(term.tokens)} " in f" {indexed} "


def finds(text: str, typed: str) -> bool:
    """Whether every term of `typed`, as typed or translated, is in `text`'s index (tokens
    adjacent, as both stores match a phrase)."""
    indexed = index_text(text)
    return all(
        any(holds(indexed, t) for t in (term, *term.also)) for term in parse_query(typed).terms
    )


def marks(text: str, typed: str) -> list[str]:
    return [text[a:b] for a, b in highlight_spans(text, parse_query(typed))]


@pytest.mark.parametrize(
    ("traditional", "simplified"),
    [("延遲", "延迟"), ("顯存", "显存"), ("提昇", "提升"), ("幻覺檢測", "幻觉检测")],
)
def test_traditional_characters_are_read_as_simplified(traditional: str, simplified: str) -> None:
    assert normalise(traditional) == simplified
    assert index_text(f"推理{traditional}下降") == index_text(f"推理{simplified}下降")
    assert finds(f"推理{simplified}下降", traditional)
    assert finds(f"推理{traditional}下降", simplified)


def test_highlighting_marks_the_characters_as_written() -> None:
    assert marks("首token延遲下降 27.5%", "延迟") == ["延遲"]
    assert marks("首token延迟下降 27.5%", "延遲") == ["延迟"]
    assert marks("顯存占用降低", "显存") == ["顯存"]


@given(st.text(max_size=300))
def test_folding_keeps_every_position_and_is_done_once(text: str) -> None:
    folded = fold_chinese(text)
    assert len(folded) == len(text)
    assert fold_chinese(folded) == folded
    assert [c.isspace() for c in folded] == [c.isspace() for c in text]


@pytest.mark.parametrize(
    ("text", "typed"),
    [
        ("Enoki 的幻觉检测在 HalluEntity 上 AUROC 0.886", "hallucination detection"),
        ("吞吐提升 1.8 倍，处理能力更强", "throughput"),
        ("we observe catastrophic forgetting of general skills", "灾难性遗忘"),
        ("the model reduces latency and delay at decode time", "降低延迟"),
        ("skills lift the success rate by 12 points", "成功率提昇"),
    ],
)
def test_a_word_finds_its_translation(text: str, typed: str) -> None:
    assert finds(text, typed)


@pytest.mark.parametrize(
    ("text", "typed"),
    [
        ("在线校准使训练曲线更稳定", "稳定性"),
        ("技能库让任务成功提高 12 个百分点", "成功率"),
        ("两段文本高度相似", "相似度"),
        ("训练更稳定，收敛更快", "稳定性更好"),
    ],
)
def test_a_noun_made_with_a_suffix_finds_its_word(text: str, typed: str) -> None:
    assert finds(text, typed)
    assert marks(text, typed) == [typed[:2]]  # the word the claim holds


@pytest.mark.parametrize("typed", ["效率", "中性", "率"])  # no word of two or more is left
def test_a_suffix_alone_or_after_one_character_is_a_word_of_its_own(typed: str) -> None:
    assert not any(other.tokens == (typed[:-1],) for other in parse_query(typed).terms[0].also)


def test_a_word_as_typed_is_still_required() -> None:
    assert not finds("幻觉检测", "hallucination benchmark")
    assert not finds("hallucination rates", "幻觉检测")


def test_a_chinese_run_is_cut_into_its_words() -> None:
    query = parse_query("降低延迟")
    assert [term.tokens for term in query.terms] == [("降低",), ("延迟",)]
    assert ("reduc",) in [t.tokens for t in query.terms[0].also]
    assert [t.tokens for t in query.bonus] == [("降低", "低延", "延迟")]  # as typed ranks first


def test_characters_no_word_covers_are_not_required_but_rank() -> None:
    query = parse_query("氪氙智能")  # 氪 and 氙 are words alone, 氪氙 is none
    assert [term.tokens for term in query.terms] == [("智能",)]
    assert ("氪氙",) in [t.tokens for t in query.bonus]
    assert marks("氪氙智能体", "氪氙智能") == ["氪氙智能"]


def test_quoted_and_excluded_words_are_matched_as_typed() -> None:
    quoted = parse_query('"hallucination detection" -幻觉')
    assert not any(term.also for term in quoted.terms)
    assert quoted.excluded[0].tokens == ("幻觉",) and not quoted.excluded[0].also
    assert not parse_query("hallucination", translate=False).terms[0].also


def test_translations_are_marked() -> None:
    assert marks("幻觉检测 on HalluEntity", "hallucination detection") == ["幻觉检测"]
    assert marks("the hallucination rate", "幻觉") == ["hallucination"]


def translated_tokens(query: Query) -> int:
    """The tokens the query adds, each alternative once: a known phrase's stand for each
    of its words and are paid for once."""
    return sum(len(t.tokens) for t in {t for term in query.terms for t in term.also})


# Words that translate, a known phrase's words (`chain of thought`), quotes, exclusions.
SAMPLED_WORDS = [
    *("model", "latency", "幻觉", "检测", "延遲", "-x", '"a b"', "faster"),
    *("chain", "of", "thought", "large", "language", "fine-tuning", "knowledge", "distillation"),
]
CJK = st.characters(min_codepoint=0x4E00, max_codepoint=0x9FFF)
QUERY = st.one_of(
    st.text(max_size=300),
    st.text(CJK, max_size=300),
    st.lists(
        st.sampled_from(SAMPLED_WORDS),
        max_size=60,
    ).map(" ".join),
)


@settings(max_examples=200, deadline=None)
@given(QUERY)
def test_any_query_is_bounded(typed: str) -> None:
    parse_query("延遲 幻觉 model")  # what the first search builds, `serve` builds before serving
    start = time.thread_time()
    query = parse_query(typed[:300])
    # A runaway (a backtracking pattern, an unbounded loop) spends seconds of this thread's
    # CPU; a stalled machine, or another thread holding the interpreter, spends none of it
    # (once that was 3 s of the clock), and collections tens of milliseconds: 1 s of CPU.
    assert time.thread_time() - start < 1.0
    assert len(query.terms) + len(query.excluded) <= MAX_QUERY_TERMS
    assert translated_tokens(query) <= MAX_TRANSLATED_TOKENS
    # A Chinese noun's word without its suffix, its translations, its group's words.
    assert all(len(term.also) <= MAX_ALTERNATIVES for term in query.terms)
    assert len(query.bonus) <= MAX_BONUS_PHRASES
    highlight_spans(typed * 10, query)  # marks within bounds too


def test_hostile_runs_of_one_character_are_cheap() -> None:
    start = time.thread_time()
    for typed in ("的" * 300, "幻" * 300, "幻觉" * 150, "a" * 300):
        parse_query(typed)
    assert time.thread_time() - start < 1.0  # runaways only (see above)


def test_the_dictionary_keeps_short_plain_senses() -> None:
    assert bilingual.plain_senses("to detect") == ["detect"]
    assert bilingual.plain_senses("to reduce; to lower") == ["reduce", "lower"]
    assert bilingual.plain_senses("variant of 檢測|检测") == []
    assert bilingual.plain_senses("CL:個|个[ge4]") == []
    assert bilingual.plain_senses("to take in and send out (in large quantities)") == []


def test_without_the_data_words_are_searched_as_typed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bilingual, "_loaded", None)
    monkeypatch.setattr(bilingual, "data_path", lambda: None)
    assert not read_dictionary() and dictionary_read()  # tried once, not again each search
    assert not parse_query("hallucination").terms[0].also


def test_the_dictionary_is_cached_in_a_file_named_by_what_made_it(tmp_path: Path) -> None:
    data = bilingual.data_path()
    assert data is not None
    made_by = b"this tokenizer"
    read = bilingual.loaded()
    assert read is not None

    first = bilingual.cached(data, fold_chinese, english_key, (tmp_path, made_by))
    [file] = tmp_path.glob("bilingual-*.marshal")
    assert first == read
    # Read from the file: keys made another way would give another dictionary.
    cached = bilingual.cached(data, fold_chinese, str.upper, (tmp_path, made_by))
    assert cached == read
    # Other code makes other keys: its own file.
    assert bilingual.cached(data, fold_chinese, english_key, (tmp_path / "v2", b"v2")) == read
    assert len(list((tmp_path / "v2").glob("bilingual-*.marshal"))) == 1

    file.write_bytes(b"\x00damaged")  # read past, and written again
    assert bilingual.cached(data, fold_chinese, english_key, (tmp_path, made_by)) == read
    assert bilingual.cached(data, fold_chinese, str.upper, (tmp_path, made_by)) == read


@pytest.mark.parametrize(
    ("typed", "text"),
    [
        ("latency", "阈值敏感性显示 Aggressive 区间延迟 1.04 秒"),  # CC-CEDICT: "to delay"
        ("latency", "首 token 时延在 128K 输入上降到 9.8 秒"),
        ("ablation", "消融实验表明两个模块都不可或缺"),  # CC-CEDICT: "to melt"
        ("throughput", "吞吐量提升 2.1 倍"),
        ("消融", "An ablation removes the verifier"),
        ("显存", "peak GPU memory falls by 40%"),
    ],
)
def test_the_glossary_gives_terms_as_papers_use_them(typed: str, text: str) -> None:
    assert finds(text, typed)


def test_glossary_words_cc_cedict_lacks_do_not_cut_chinese_queries() -> None:
    words = bilingual.loaded()
    assert words is not None
    assert words.english["延迟"][0] == "latency"  # the paper's sense before the everyday one
    assert "吞吐量" not in words.english  # a longer new word: found by its term only
    assert words.segment("吞吐量") == ["吞吐", "量"]
    assert finds("Hunyuan 的吞吐提升 2.1 倍", "吞吐量")


def test_every_glossary_line_is_a_term_and_its_chinese_words() -> None:
    """Each term finds its first Chinese word before any everyday word of CC-CEDICT's
    (`agent`: 智能体, not 施事), unless another glossary line gives the same term first."""
    words = bilingual.loaded()
    assert words is not None
    terms = []
    for line in bilingual.GLOSSARY.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            english, *chinese = line.split("\t")
            assert chinese and all(bilingual.HAN.fullmatch(w) for w in chinese), line
            found = words.chinese.get(english_key(english), ())
            assert found and (found[0] == chinese[0] or found[0] in glossary_words()), line
            terms.append(english)
    assert len(terms) == len(set(terms)) > 150


def glossary_words() -> set[str]:
    lines = bilingual.GLOSSARY.read_text(encoding="utf-8").splitlines()
    return {w for line in lines if not line.startswith("#") for w in line.split("\t")[1:]}
