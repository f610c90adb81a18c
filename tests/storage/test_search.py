"""Paper lookup and claim search on the seeds, the same on SQLite and PostgreSQL."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import pytest
from sqlalchemy.engine import URL
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession

from jobs.ingest import ingest
from storage import db, fulltext, paper_keys
from storage import search as search_module
from storage.search import (
    ALL_BUT_ONE_WORD,
    PAGE_SIZE,
    ClaimHit,
    lookup_paper,
    parse_claim_search,
    search_claims,
)
from storage.search_text import MAX_QUERY_CHARS, BadQuery, QueryTooLong, parse_query
from tests.digests import Entry, huggingface_digest, write
from tests.statements import statements_run

DISTILLATION = "On-Policy or Off-Policy Learning? A Systematic Study of Distillation Dynamics"


def contains(hit: ClaimHit, word: str) -> bool:
    return word.lower() in (hit.text_zh + " " + hit.quote_en).lower()


@pytest.mark.parametrize(
    "typed",
    [
        "2609.35259",
        "2609.35259v2",
        "https://arxiv.org/abs/2609.35259",
        "arxiv.org/pdf/2609.35259v1.pdf",
        "https://papers.cool/arxiv/2609.35259",
        DISTILLATION,
        DISTILLATION.upper(),
    ],
)
async def test_ids_urls_and_titles_open_the_paper(seeded: AsyncSession, typed: str) -> None:
    found = await lookup_paper(seeded, typed)
    assert found.one is not None
    assert found.one.title == DISTILLATION


@pytest.mark.parametrize("name", ["GAPO", "ENEAS", "Hunyuan-A13B", "av-grpo", "Ｇａｐｏ"])
async def test_derived_names_open_their_deep_read(seeded: AsyncSession, name: str) -> None:
    found = await lookup_paper(seeded, name)
    assert found.how == "name"
    assert found.one is not None
    assert found.one.kind == "deep_read"
    assert found.one.name is not None and found.one.name.lower() == name.lower().replace(
        "ｇａｐｏ", "gapo"
    )


async def test_words_of_a_title_find_the_paper(seeded: AsyncSession) -> None:
    found = await lookup_paper(seeded, "OneStreamer")
    assert found.one is not None
    assert found.one.title is not None and found.one.title.startswith("OneStreamer:")


async def test_full_text_ranks_several_papers(seeded: AsyncSession) -> None:
    found = await lookup_paper(seeded, "强化学习")
    assert found.how == "text"
    assert len(found.papers) > 1
    assert len({p.id for p in found.papers}) == len(found.papers)


async def test_an_unknown_paper_finds_nothing(seeded: AsyncSession) -> None:
    assert (await lookup_paper(seeded, "2601.00000")).papers == []
    assert (await lookup_paper(seeded, "zzyzx-nonexistent")).papers == []


async def test_auroc_finds_the_rlcd_claims_with_0_886_among_them(seeded: AsyncSession) -> None:
    page = await search_claims(seeded, "AUROC")
    assert page.hits and all(contains(hit, "auroc") for hit in page.hits)
    rlcd = [hit for hit in page.hits if hit.paper.name == "RLCDAlignBench"]
    assert any("0.886" in hit.text_zh for hit in rlcd)
    top = page.hits[0]
    marked = [top.text_zh[a:b] for a, b in top.zh_spans]
    marked += [top.quote_en[a:b] for a, b in top.en_spans]
    assert marked and all(word.lower() == "auroc" for word in marked)


@pytest.mark.parametrize(
    ("word", "count", "english"), [("延迟", 7, "latency"), ("召回", 1, "recall")]
)
async def test_two_character_chinese_words(
    seeded: AsyncSession, word: str, count: int, english: str
) -> None:
    page = await search_claims(seeded, word)
    reviewed = [hit for hit in page.hits if hit.source == "review"]
    holding = [hit for hit in reviewed if word in hit.text_zh]
    assert len(holding) == count and reviewed[:count] == holding  # the word as typed first
    assert all(english in hit.quote_en.lower() for hit in reviewed[count:])  # then its English
    assert all(hit.text_zh[a:b] == word for hit in holding for a, b in hit.zh_spans)


@pytest.mark.parametrize("typed", ["0.886", "AUROC 0.971", '"median AUROC"', "auroc 0.886"])
async def test_numbers_and_phrases(seeded: AsyncSession, typed: str) -> None:
    page = await search_claims(seeded, typed)
    assert page.matching_words == 1
    assert page.hits[0].paper.name == "RLCDAlignBench" and not page.hits[0].matched_by
    assert all(hit.matched_by == ALL_BUT_ONE_WORD for hit in page.hits[1:])


async def test_a_percentage_matches_as_written(seeded: AsyncSession) -> None:
    page = await search_claims(seeded, "86.20%")
    assert all(contains(hit, "86.20") for hit in page.hits)
    assert any(contains(hit, "86.20%") for hit in page.hits)


async def test_a_single_chinese_character_matches_inside_words(seeded: AsyncSession) -> None:
    page = await search_claims(seeded, "迟")
    assert page.hits and all("迟" in hit.text_zh + hit.quote_en for hit in page.hits)


async def test_paper_filter_narrows_to_that_paper(seeded: AsyncSession) -> None:
    assert (await search_claims(seeded, "AUROC paper:GAPO")).hits == []
    page = await search_claims(seeded, "AUROC paper:RLCDAlignBench")
    assert page.hits and {hit.paper.name for hit in page.hits} == {"RLCDAlignBench"}


async def test_paper_filter_alone_lists_the_claims_in_order(seeded: AsyncSession) -> None:
    page = await search_claims(seeded, "paper:GAPO")
    assert [hit.number for hit in page.hits] == list(range(1, 11))
    assert not page.has_next


async def test_date_filters_use_the_digest_date(seeded: AsyncSession) -> None:
    september = await search_claims(seeded, "AUROC until:2026-09-30")
    october = await search_claims(seeded, "AUROC since:2026-10-01")
    assert september.hits
    assert all(
        h.paper.digest_date and h.paper.digest_date <= date(2026, 9, 30) for h in september.hits
    )
    assert all(
        h.paper.digest_date and h.paper.digest_date >= date(2026, 10, 1) for h in october.hits
    )


async def test_pages_are_stable_and_do_not_overlap(seeded: AsyncSession) -> None:
    pages = [await search_claims(seeded, "模型", page=n) for n in (1, 2, 3)]
    again = [await search_claims(seeded, "模型", page=n) for n in (1, 2, 3)]
    ids = [hit.claim_id for page in pages for hit in page.hits]
    assert len(pages[0].hits) == PAGE_SIZE and pages[0].has_next
    assert len(ids) == len(set(ids))
    assert ids == [hit.claim_id for page in again for hit in page.hits]


async def test_abstract_sentences_are_found_and_labelled(seeded: AsyncSession) -> None:
    page = await search_claims(seeded, "27.5%")
    abstract = [hit for hit in page.hits if hit.source == "abstract"]
    assert abstract
    assert all(hit.paper.kind == "huggingface" for hit in abstract)
    # The sentence, and the same sentence of the Chinese abstract.
    assert any("27.5%" in hit.quote_en and "仅监督 27.5%" in hit.text_zh for hit in abstract)


async def test_bad_filters_say_what_is_wrong(seeded: AsyncSession) -> None:
    with pytest.raises(BadQuery, match="needs a date like 2026-09-28"):
        await search_claims(seeded, "AUROC since:yesterday")
    with pytest.raises(BadQuery, match="No paper is called"):
        await search_claims(seeded, "AUROC paper:NoSuchThing")
    with pytest.raises(BadQuery, match="after `until:`"):
        await search_claims(seeded, "x since:2026-10-02 until:2026-10-01")
    with pytest.raises(QueryTooLong, match=f"keep it under {MAX_QUERY_CHARS}"):
        await search_claims(seeded, "a" * 10_000)


HOSTILE = [
    '"',
    '""',
    "'",
    "''",
    "*",
    "**",
    "OR",
    "AND",
    "NOT",
    "NEAR",
    "NEAR(a b)",
    "a OR b",
    "-",
    "-a",
    "a -b",
    ":",
    "a:b",
    "::",
    "(",
    ")",
    "()",
    "(a",
    "a)",
    "^",
    "{a}",
    "[a]",
    "a*b",
    "'; DROP TABLE claims; --",
    "1' OR '1'='1",
    "\\",
    "%",
    "_",
    "%_%",
    "\x00",
    "\t\n",
    "\ud800",
    "a\udfffb",
    "😀",
    "👩‍🔬 AUROC",
    "\u200b",
    "AU\u200bROC",
    "\ufeff延迟",
    "ＡＵＲＯＣ",
    "ǅ",
    "ß",
    "İ",
    "x" * MAX_QUERY_CHARS,
    "延" * 200,
    "a " * 150,
    "0",
    "-1",
    "1e309",
    "NaN",
    "null",
    "paper:",
    "since:",
    'paper:""',
    '"unterminated',
    "“curly”",
    'a"b"c',
    "\u202eevil",
    "<!channel>",
    "<@U123>",
    "&amp;",
    "col:AUROC",
    "claims_fts:a",
    "{search_text}: x",
]


@pytest.mark.parametrize("typed", HOSTILE, ids=range(len(HOSTILE)))
async def test_hostile_input_never_raises_a_database_error(
    seeded: AsyncSession, typed: str
) -> None:
    for search in (lookup_paper, search_claims):
        try:
            result = await search(seeded, typed)
        except BadQuery as refusal:
            assert str(refusal).endswith((".", ").")), refusal
        else:
            assert result is not None


async def test_zero_width_and_full_width_forms_match_like_plain_text(seeded: AsyncSession) -> None:
    plain = await search_claims(seeded, "AUROC")
    for variant in ("AU\u200bROC", "ＡＵＲＯＣ", "auroc"):
        assert [h.claim_id for h in (await search_claims(seeded, variant)).hits] == [
            h.claim_id for h in plain.hits
        ]


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("2609.35259", "2609.35259"),
        ("2609.35259v12", "2609.35259"),
        ("https://arxiv.org/abs/2609.35259v2", "2609.35259"),
        ("http://export.arxiv.org/pdf/2609.35259.pdf", "2609.35259"),
        ("arXiv:2609.35259", "2609.35259"),
        ("0704.0001", "0704.0001"),
        ("2609.352", None),
        ("see 2609.35259", None),
        ("GAPO", None),
        ("hep-th/9901001", "hep-th/9901001"),
        ("arXiv:MATH.gt/0309136v2", "math.GT/0309136"),
        ("https://arxiv.org/abs/cond-mat/0102536v1", "cond-mat/0102536"),
        ("hep-th/99", None),
    ],
)
def test_arxiv_ids_and_urls(typed: str, expected: str | None) -> None:
    assert paper_keys.arxiv_id(typed) == expected


def test_filters_are_read_out_of_the_words() -> None:
    search = parse_claim_search('延迟 Paper:"Hunyuan-A13B" since:2026-09-01 latency')
    assert (search.words, search.paper, search.since) == (
        "延迟 latency",
        "Hunyuan-A13B",
        date(2026, 9, 1),
    )


QUERIES = [
    "AUROC", "延迟", "召回", "0.886", "86.20%", "模型", "显存", "GAPO", "强化学习 reward", "27.5%",
    "迟", '"median AUROC"', "AUROC paper:RLCDAlignBench", "AUROC until:2026-09-30",
    "benchmark", "GPU", "AIME", "aime 24", "xplanner", "X-Planner", '"evaluate model"',
    "Qwen3-8B", "world model",
]  # fmt: skip


async def test_both_stores_find_the_same_hits(
    seeded_sqlite_url: URL, seeded_postgres_url: URL
) -> None:
    results = []
    for url in (seeded_sqlite_url, seeded_postgres_url):
        found = {}
        async with db.open_engine(url) as engine, db.session_factory(engine)() as session:
            for query in QUERIES:
                claims = set()
                page_number = 1
                while True:
                    page = await search_claims(session, query, page=page_number)
                    claims |= {(h.paper.key, h.source, h.number) for h in page.hits}
                    if not page.has_next:
                        break
                    page_number += 1
                papers = set()
                page_number = 1
                while True:
                    matches = await lookup_paper(session, query, page=page_number)
                    papers |= {p.key for p in matches.papers}
                    if not matches.has_next:
                        break
                    page_number += 1
                found[query] = (claims, papers)
        results.append(found)
    for query in QUERIES:
        assert results[0][query] == results[1][query], query


async def test_a_wide_date_range_finds_what_a_narrow_one_finds(
    seeded: AsyncSession, monkeypatch: pytest.MonkeyPatch
) -> None:
    narrow = await search_claims(seeded, "AUROC until:2026-09-30")
    monkeypatch.setattr(fulltext, "DATE_RANGE_BY_MEMBERSHIP", 0)  # walk the matches instead
    wide = await search_claims(seeded, "AUROC until:2026-09-30")
    assert narrow.hits
    assert {h.claim_id for h in wide.hits} == {h.claim_id for h in narrow.hits}


async def test_every_page_of_a_wide_date_range_comes_from_one_ranking(
    seeded: AsyncSession, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pages inside the window are cut from one walk of it, each telling the same total."""
    monkeypatch.setattr(fulltext, "DATE_RANGE_BY_MEMBERSHIP", 0)  # walk the matches
    query = parse_query("模型")
    where = fulltext.ClaimFilter(until=date(2026, 9, 30))
    window = 7
    whole = await fulltext.match_claims(seeded, query, where, limit=window, offset=0, window=window)
    assert len(whole.ids) == whole.total == window  # more match: the window is full
    pages = [
        await fulltext.match_claims(seeded, query, where, limit=limit, offset=offset, window=window)
        for offset, limit in ((0, 3), (3, 3), (6, 1))
    ]
    assert [i for page in pages for i in page.ids] == whole.ids
    assert [page.total for page in pages] == [window] * 3


@pytest.mark.parametrize(
    "where",
    [
        fulltext.ClaimFilter(until=date(2026, 9, 30)),  # the newest digest after it
        fulltext.ClaimFilter(since=date(2026, 9, 10)),
        fulltext.ClaimFilter(since=date(2026, 9, 10), until=date(2026, 9, 30)),
    ],
    ids=["until", "since", "both"],
)
async def test_a_wide_date_range_lists_its_newest_matches(
    seeded: AsyncSession, monkeypatch: pytest.MonkeyPatch, where: fulltext.ClaimFilter
) -> None:
    """Walked, a wide range's window is its newest matches, as a narrow range's is (and
    PostgreSQL's): SQLite's walk listed the oldest ones first."""
    query = parse_query("模型")
    every = await fulltext.match_claims(seeded, query, where, limit=500, offset=0, window=500)
    newest = sorted(every.ids, reverse=True)[:7]
    assert 7 < every.total < 500
    monkeypatch.setattr(fulltext, "DATE_RANGE_BY_MEMBERSHIP", 0)  # walk the matches
    walked = await fulltext.match_claims(seeded, query, where, limit=7, offset=0, window=7)
    assert set(walked.ids) == set(newest)


@pytest.mark.parametrize("typed", ["奖励 reward", "reward 奖励", "幻觉 hallucination", "模型 GRPO"])
async def test_a_word_typed_with_its_translation_finds_the_same_claims(
    seeded: AsyncSession, monkeypatch: pytest.MonkeyPatch, typed: str
) -> None:
    """The claims are found by the terms no other term implies (one of a word and its
    translation): the same claims, ranked alike, as by every term."""
    await search_module.read_dictionary()
    query = parse_query(typed)
    if typed == "模型 GRPO":  # neither implies the other: both are kept
        assert fulltext._claims_tsquery(query) == fulltext._tsquery(query)
    else:
        assert len(query.terms) == 2
        fewer = min(query.terms, key=lambda term: len(fulltext._tsquery_phrases(term)))
        assert fulltext._claims_tsquery(query) == fulltext._tsquery(query, (fewer,))
    hits, second = await all_claims(seeded, typed), await search_claims(seeded, typed, page=2)
    papers = await lookup_paper(seeded, typed)  # with the papers of matching claims
    monkeypatch.setattr(fulltext, "_claims_tsquery", fulltext._tsquery)
    assert hits and hits == await all_claims(seeded, typed)
    assert second == await search_claims(seeded, typed, page=2)  # hits and total alike
    assert papers.papers and papers == await lookup_paper(seeded, typed)


# --- Word forms ------------------------------------------------------------------------


def marked(hit: ClaimHit) -> list[str]:
    return [hit.text_zh[a:b] for a, b in hit.zh_spans] + [
        hit.quote_en[a:b] for a, b in hit.en_spans
    ]


async def all_claims(session: AsyncSession, typed: str) -> list[ClaimHit]:
    hits, page_number = [], 1
    while True:
        page = await search_claims(session, typed, page=page_number)
        hits += page.hits
        if not page.has_next:
            return hits
        page_number += 1


async def test_a_word_finds_its_other_forms(seeded: AsyncSession) -> None:
    singular = {h.claim_id for h in await all_claims(seeded, "benchmark")}
    plural = {h.claim_id for h in await all_claims(seeded, "benchmarks")}
    assert singular == plural
    texts = [(h.text_zh + " " + h.quote_en).lower() for h in await all_claims(seeded, "benchmark")]
    assert any("benchmarks" in t for t in texts)
    assert any(re.search(r"\bbenchmark\b", t) for t in texts)


async def test_a_word_typed_as_written_ranks_before_its_other_forms(seeded: AsyncSession) -> None:
    hits = await all_claims(seeded, "benchmarks")
    written = ["benchmarks" in (h.text_zh + " " + h.quote_en).lower() for h in hits]
    assert True in written and False in written
    assert written == sorted(written, reverse=True)  # every exact hit before any other


async def test_gpu_finds_gpus_and_highlights_the_whole_word(seeded: AsyncSession) -> None:
    hits = await all_claims(seeded, "GPU")
    assert any(re.search(r"\bGPUs\b", h.quote_en) for h in hits)
    assert {word.lower() for h in hits for word in marked(h)} <= {"gpu", "gpus"}


async def test_aime_finds_aime24_and_aime2024_first_and_marks_them_whole(
    seeded: AsyncSession,
) -> None:
    page = await search_claims(seeded, "AIME")
    texts = [h.text_zh + " " + h.quote_en for h in page.hits]
    assert any("AIME24" in t for t in texts) and any("AIME2024" in t for t in texts)
    aime = [bool(re.search(r"aime", t, re.IGNORECASE)) for t in texts]
    assert aime == sorted(aime, reverse=True)  # `aim`, its stem, ranks after
    words = {w for h in page.hits for w in marked(h) if "aime" in w.lower()}
    assert words and all(re.fullmatch(r"AIME\d*", w, re.IGNORECASE) for w in words)


@pytest.mark.parametrize("typed", ["AIME24", "aime 24", "AIME2024"])
async def test_letters_and_digits_are_found_whole_and_by_their_parts(
    seeded: AsyncSession, typed: str
) -> None:
    hits = await all_claims(seeded, typed)
    texts = [contains_text(h) for h in hits if h.matched_by != ALL_BUT_ONE_WORD]
    assert all(re.search(r"aime\s*(20)?24", t, re.IGNORECASE) for t in texts)
    assert any("AIME24" in t for t in texts) and any("AIME2024" in t for t in texts)


async def test_a_name_with_a_year_finds_its_short_form_after_itself(seeded: AsyncSession) -> None:
    texts = [contains_text(h) for h in await all_claims(seeded, "AIME2024")]
    as_typed = ["AIME2024" in t for t in texts]
    assert as_typed == sorted(as_typed, reverse=True) and as_typed[0] and not as_typed[-1]


def contains_text(hit: ClaimHit) -> str:
    return hit.text_zh + " " + hit.quote_en


@pytest.mark.parametrize("typed", ["xplanner", "X-Planner", "x planner", "X‐Planner"])
async def test_hyphenated_names_are_found_joined_and_apart(
    seeded: AsyncSession, typed: str
) -> None:
    found = await lookup_paper(seeded, typed)
    assert any("X-Planner" in (p.title or "") + (p.name or "") for p in found.papers), found
    page = await search_claims(seeded, typed)
    hits = [h for h in page.hits if h.matched_by != ALL_BUT_ONE_WORD]  # all the words
    own = [h for h in hits if h.paper.name == "X-Planner"]
    assert own and all(h in own or "X-Planner" in contains_text(h) for h in hits)
    if " " not in typed:  # one word that names the paper: its claims come first
        assert [p.name for p in page.first] == ["X-Planner"]
        assert page.hits[: len(own)] == own
        assert [h.number for h in own] == list(range(1, len(own) + 1))
    assert {w for h in hits for w in marked(h)} <= {"X-Planner", "X", "Planner"}


async def test_paper_world_model_finds_world_models(seeded: AsyncSession) -> None:
    found = await lookup_paper(seeded, "world model")
    titles = [p.title or "" for p in found.papers]
    assert any("World Models" in t for t in titles), titles


async def test_quoted_words_still_match_only_adjacent_words(seeded: AsyncSession) -> None:
    adjacent = await all_claims(seeded, '"evaluate model"')
    assert any("evaluated models" in h.quote_en for h in adjacent)
    pattern = r"evaluat\w*[\W_]+models?\b"
    assert all(re.search(pattern, contains_text(h), re.IGNORECASE) for h in adjacent)
    assert all(any(re.fullmatch(pattern, w, re.IGNORECASE) for w in marked(h)) for h in adjacent)
    reversed_ = {h.claim_id for h in await all_claims(seeded, '"model evaluate"')}
    assert not reversed_ & {h.claim_id for h in adjacent}
    titles = [p.title or "" for p in (await lookup_paper(seeded, '"world model"')).papers]
    assert any("World Models" in t for t in titles), titles


@pytest.mark.parametrize("typed", ["Qwen3-8B", "qwen3-8b", "Qwen3.5-35B"])
async def test_a_version_stays_findable_as_typed(seeded: AsyncSession, typed: str) -> None:
    hits = await all_claims(seeded, typed)
    assert hits and all(typed.lower() in contains_text(h).lower() for h in hits)
    assert (await lookup_paper(seeded, typed)).papers


async def test_the_does_not_mark_the_inside_of_other_words(seeded: AsyncSession) -> None:
    page = await search_claims(seeded, "the")
    assert page.hits
    assert {w.lower() for h in page.hits for w in marked(h)} == {"the"}
    hit = next(h for h in page.hits if re.search(r"\w(?i:the)|(?i:the)\w", h.quote_en))
    for start, end in hit.en_spans:
        assert not hit.quote_en[start - 1 : start].isalnum()
        assert not hit.quote_en[end : end + 1].isalnum()


async def test_a_hyphenated_word_finds_it_written_as_one(
    engine: AsyncEngine, tmp_path: Path
) -> None:
    entries = [
        Entry(
            "2610.10001",
            "XPlanner: planning ahead",
            "We release a planner. Our xplanner improves success by 12.1% over the baseline.",
        ),
        Entry(
            "2610.10002",
            "Finetuned judges",
            "Judges finetuned on preferences agree 8.5% more often than the baseline.",
        ),
    ]
    write(tmp_path / "digests" / "hf.txt", huggingface_digest("2026-10-12", entries))
    assert not (await ingest(db.session_factory(engine), [tmp_path / "digests"])).errors
    async with db.session_factory(engine)() as session:
        for typed, title in [("X-Planner", "XPlanner"), ("fine-tune", "Finetuned judges")]:
            found = await lookup_paper(session, typed)
            assert [p.title for p in found.papers][:1] == [
                next(e.title for e in entries if e.title.startswith(title))
            ], typed
            page = await search_claims(session, typed)
            assert page.hits and all(h.en_spans for h in page.hits), typed


async def test_paper_finds_a_paper_through_its_claims(seeded: AsyncSession) -> None:
    found = await lookup_paper(seeded, "WanPE-397B")  # in eight of WanPE's claims only
    assert found.one is not None and found.one.name == "WanPE"
    assert found.via_claims == {found.one.id}


async def test_papers_matching_in_their_own_text_come_before_those_found_by_claims(
    seeded: AsyncSession,
) -> None:
    ranked = []
    for page in (1, 2, 3):
        ranked += (await lookup_paper(seeded, "benchmark", page=page)).papers
    found = await lookup_paper(seeded, "benchmark")
    via = [ref.id in found.via_claims for ref in ranked]
    assert any(via) and not all(via)
    assert via == sorted(via)  # never a paper of its own text after one found by claims


async def test_paper_lists_give_their_true_total_and_every_page(seeded: AsyncSession) -> None:
    first = await lookup_paper(seeded, "agent")
    assert (len(first.papers), first.has_next, first.capped) == (10, True, False)
    second = await lookup_paper(seeded, "agent", page=2)
    assert second.total == first.total and not second.has_next
    assert len(second.papers) == first.total - 10
    assert len({p.id for p in first.papers + second.papers}) == first.total


async def test_claim_pages_give_their_total(seeded: AsyncSession) -> None:
    page, seen = 1, 0
    while True:
        found = await search_claims(seeded, "模型", page=page)
        seen += len(found.hits)
        if not found.has_next:
            break
        page += 1
    assert page > 1
    assert found.total == seen and not found.capped
    assert (await search_claims(seeded, "模型", page=page + 3)).total == seen
    alone = await search_claims(seeded, "paper:GAPO")
    assert alone.total == 10 and len(alone.hits) == 10 and not alone.has_next


async def test_totals_stop_at_the_ranking_window(
    seeded: AsyncSession, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(search_module, "RANK_WINDOW", 5)
    claims = await search_claims(seeded, "模型")
    assert (claims.total, claims.capped, claims.has_next) == (5, True, False)
    papers = await lookup_paper(seeded, "agent")
    assert (papers.total, papers.capped) == (5, True)


async def test_a_command_looks_an_author_and_named_papers_up_once_however_often_it_searches(
    seeded: AsyncSession,
) -> None:
    """A command searches again for each "Did you mean" it checks, with the same
    `author:` and excluded words; finding the author's papers is a pass over every paper's
    authors, and the papers an excluded word names a search of their own (at 100,000 papers
    ten passes took 360 ms, four searches for `-the` 260 ms on PostgreSQL): each is done
    once in the command's session."""
    async with statements_run(seeded) as run:
        found = await search_claims(seeded, "PSTL author:wang -Enoki")
        await search_claims(seeded, "PSLT author:wang -Enoki")  # a correction, checked
        papers = await lookup_paper(seeded, "streaming author:wang")
    authors = [sql for sql, _ in run if "papers.authors" in sql and "LIKE" in sql]
    named = [sql for sql, _ in run if "search_head" in sql]  # SQLite's column, or the vector
    assert len(authors) == 1 and len(named) == 1
    assert len(found.hits) == 2 and papers.total == 3
    assert {hit.paper.id for hit in found.hits} <= {paper.id for paper in papers.papers}
