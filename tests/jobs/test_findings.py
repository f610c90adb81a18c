"""Which abstract sentences count as stated results, and their Chinese translations."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jobs.findings import Finding, findings


@pytest.mark.parametrize(
    ("abstract", "expected"),
    [
        (None, []),
        ("", []),
        (
            "We study memory. Our 4B model achieves the best results on eight benchmarks. "
            "It is simple.",
            ["Our 4B model achieves the best results on eight benchmarks."],
        ),
        (
            "PSTL also outperforms dense state supervision. We release the code.",
            ["PSTL also outperforms dense state supervision."],
        ),
        ("Accuracy rises to 86.20% (from 80.1%).", ["Accuracy rises to 86.20% (from 80.1%)."]),
        (
            "It is faster than the baseline in every setting we tried.",
            ["It is faster than the baseline in every setting we tried."],
        ),
        ("We introduce FlowBalance, a verifier-grounded method.", []),
        (
            "Ours OUTPERFORMS every baseline we tried.",
            ["Ours OUTPERFORMS every baseline we tried."],
        ),
        (
            "Ours outperforms Müller's baseline we tried.",  # not ASCII: folded as it is read
            ["Ours outperforms Müller's baseline we tried."],
        ),
        ("Ours is described in the Überblick appendix.", []),
        ("Ours is described in the appendix, thankfully.", []),  # `than` only as a word
        ("Up 3%.", []),  # too short to be a finding on its own
        ("Line one\nwraps here with 12 numbers.", ["Line one wraps here with 12 numbers."]),
    ],
)
def test_result_sentences(abstract: str | None, expected: list[str]) -> None:
    assert result_sentences(abstract) == expected


def result_sentences(abstract: str | None) -> list[str]:
    """The findings, without a Chinese abstract to pair them with."""
    return [finding.sentence for finding in findings(abstract, None)]


# An abstract as the HuggingFace digests give it: English, then the Chinese translation.
EN = (
    "We present WeatherMixer, a 1.2B-parameter foundation model pretrained on 40 years of "
    "ERA5 reanalysis. It is trained once. WeatherMixer outperforms the ECMWF HRES forecast "
    "on 91% of the 1,380 targets of WeatherBench 2. A 10-day global forecast takes 47 "
    "seconds on a single GPU, about 4,000 times less energy than the physics-based model."
)
ZH = (
    "我们提出 WeatherMixer，一个在 40 年 ERA5 再分析数据上预训练、包含 12 亿参数的基础模型。"
    "它只训练一次。"
    "在 WeatherBench 2 的 1,380 个检验目标中，WeatherMixer 有 91% 优于 ECMWF HRES 预报。"
    "在单张 GPU 上完成一次 10 天全球预报只需 47 秒，能耗约为物理模型的四千分之一。"
)
ZH_SENTENCES = [s + "。" for s in ZH.split("。") if s]


def test_each_finding_takes_its_sentence_of_the_chinese_abstract() -> None:
    found = findings(EN, ZH)
    assert [f.sentence for f in found] == result_sentences(EN)  # the same findings
    assert [f.translation for f in found] == [ZH_SENTENCES[0], ZH_SENTENCES[2], ZH_SENTENCES[3]]


def test_a_sentence_the_translator_split_in_two_takes_both() -> None:
    split = ZH.replace("，能耗", "。能耗")
    assert (
        findings(EN, split)[-1].translation
        == "在单张 GPU 上完成一次 10 天全球预报只需 47 秒。能耗约为物理模型的四千分之一。"
    )


def test_findings_the_translator_merged_into_one_sentence_keep_none() -> None:
    # The last two findings are one Chinese sentence: neither is its translation alone.
    merged = ZH.replace("预报。在单张", "预报，在单张")
    assert [f.translation for f in findings(EN, merged)] == [ZH_SENTENCES[0], "", ""]


@pytest.mark.parametrize(
    "chinese",
    [
        None,
        "",
        "这是一篇关于天气预报的论文。",  # a one-line summary, no translation
        "。！？",
    ],
)
def test_without_a_translation_findings_keep_no_chinese(chinese: str | None) -> None:
    found = findings(EN, chinese)
    assert [f.sentence for f in found] == result_sentences(EN)
    assert {f.translation for f in found} == {""}


_SENTENCE_TEXT = st.text(st.sampled_from("abc 19.%,ABC我们模型提升能耗。！？\n!?"), max_size=80)


@settings(max_examples=300, deadline=None)
@given(
    english=st.lists(_SENTENCE_TEXT, max_size=30).map(". ".join),
    chinese=st.one_of(st.none(), st.lists(_SENTENCE_TEXT, max_size=30).map("。".join)),
)
def test_any_abstracts_give_the_findings_and_translations_taken_in_order(
    english: str, chinese: str | None
) -> None:
    found = findings(english, chinese)
    assert [f.sentence for f in found] == result_sentences(english)
    rest = "".join((chinese or "").split())
    for finding in found:  # each translation is text of the Chinese abstract, in order
        if finding.translation:  # (but for the spaces between its sentences)
            translation = "".join(finding.translation.split())
            at = rest.find(translation)
            assert at >= 0
            rest = rest[at + len(translation) :]


def test_a_long_abstract_is_aligned_within_its_bound() -> None:
    english = " ".join(f"Result {i} improves accuracy by {i}%." for i in range(150))
    chinese = "".join(f"结果 {i} 将准确率提升 {i}%。" for i in range(150))
    assert {f.translation for f in findings(english, chinese)} == {""}  # over the bound
    shorter = " ".join(english.split(" ")[: 6 * 90])
    found = findings(shorter, "".join(f"结果 {i} 将准确率提升 {i}%。" for i in range(90)))
    assert found[42].translation == "结果 42 将准确率提升 42%。"


def test_an_english_copy_in_place_of_the_chinese_is_no_translation() -> None:
    english = "Alpha improves accuracy by 3.2% over the baseline."
    assert findings(english, english) == [Finding(english, "")]
