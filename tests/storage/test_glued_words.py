"""Words typed without a space between them, as Chinese is written (`GPU显存`, `召回、精度`,
`延迟，F1`), are each a word of the search, as if spaces parted them, instead of one phrase
whose words must stand side by side. What joins a name or a number (`x-planner`, `1,000`)
and what is quoted or excluded stay as typed."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy.ext.asyncio import AsyncSession

from storage.search import search_claims
from storage.search_text import Term, parse_query
from tests.storage.test_all_but_one_word import ids
from tests.storage.test_cross_language import finds

pytestmark = pytest.mark.usefixtures("dictionary")


def terms(typed: str) -> list[Term]:
    return list(parse_query(typed).terms)


@pytest.mark.parametrize(
    ("glued", "spaced"),
    [
        ("GPU显存", "GPU 显存"),
        ("召回、精度", "召回 精度"),
        ("延迟，F1", "延迟 F1"),  # a full-width comma
        ("latency,speedup", "latency speedup"),
        ("延迟:F1", "延迟 F1"),
        ("显存(GPU)", "显存 GPU"),
        ("X-Planner的成功率", "X-Planner 成功率"),  # 的 carries no finding
        ("HalluEntity上的AUROC", "HalluEntity AUROC"),
    ],
)
def test_glued_words_are_searched_as_if_spaced(glued: str, spaced: str) -> None:
    assert terms(glued) == terms(spaced)


@pytest.mark.parametrize(
    ("typed", "tokens"),
    [
        ('"GPU显存"', [("gpu", "显存")]),  # quoted: a phrase, as typed
        ("1,000", [("1", "000")]),  # a number's separator joins it
        ("x-planner", [("x", "planner")]),
        ("2.5-7B", [("2.5", "7b")]),
    ],
)
def test_what_joins_a_name_or_a_number_or_is_quoted_is_kept(
    typed: str, tokens: list[tuple[str, ...]]
) -> None:
    assert [term.tokens for term in terms(typed)] == tokens


def test_excluded_glued_words_are_excluded_as_typed() -> None:
    query = parse_query("-GPU显存 延迟")
    assert [t.tokens for t in query.excluded] == [("gpu", "显存")]
    assert [t.tokens for t in query.terms] == [("延迟",)]


def test_a_claim_holding_the_words_apart_is_found() -> None:
    claim = "在单张 GPU 上，TriCache 的 KV 缓存显存占用降低 4.1 倍"
    assert finds(claim, "GPU显存")
    assert finds("召回提升 3 个点，精度不变", "召回、精度")
    assert not finds(claim, '"GPU显存"')  # quoted: side by side only


_CHINESE = st.text(st.sampled_from("延迟显存召回精度吞吐模型训练推理"), min_size=1, max_size=6)
_LATIN = st.text(st.sampled_from("abcdefgxyz0123"), min_size=1, max_size=8)


@given(_CHINESE, _LATIN, st.sampled_from(["", "、", "，", ",", ";", "。", "(", ")"]))
def test_a_change_of_script_or_a_mark_between_them_parts_two_words(
    chinese: str, latin: str, mark: str
) -> None:
    for glued, spaced in (
        (chinese + mark + latin, f"{chinese} {latin}"),
        (latin + mark + chinese, f"{latin} {chinese}"),
    ):
        assert terms(glued) == terms(spaced)


async def test_claims_of_glued_words_are_those_of_the_words_spaced(seeded: AsyncSession) -> None:
    for glued, spaced in [("GPU显存", "GPU 显存"), ("延迟，F1", "延迟 F1")]:
        found = await ids(seeded, glued)
        assert found and found == await ids(seeded, spaced)
        page = await search_claims(seeded, glued)
        assert not page.notes  # no "long phrase" note: nothing was read as one
