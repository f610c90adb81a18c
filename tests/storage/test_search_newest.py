"""The newest matches of a word, whichever way the store finds them: PostgreSQL walks the
ids for a common word, reads a rarer one from the text index (among the newest ids first,
then all of them when those hold too few), and every way finds the same claims."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from datetime import date

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from storage import fulltext, newest_matches
from storage.dialect import backend
from storage.models import Claim, Paper
from storage.search_text import Query, Term, index_text, parse_query
from tests.statements import statements_run

CLAIMS = 600
WINDOW = 20


def words_of(i: int) -> str:
    """Claim i (oldest first) holds `common` every other time, `middle` one time in ten,
    `fading` every other time among the oldest 200 only, and `rare` in five claims."""
    words = ["filler"]
    if i % 2 == 0:
        words.append("common")
    if i % 10 == 0:
        words.append("middle")
    if i < 200 and i % 2 == 1:
        words.append("fading")
    if i % 120 == 7:
        words.append("rare")
    return " ".join(words)


async def add_paper(session: AsyncSession, key: str, quotes: list[str], **fields: object) -> None:
    """A paper whose claims say `quotes`, in that order (their ids rising)."""
    paper = Paper(key=key, kind="huggingface", **fields)
    session.add(paper)
    await session.flush()
    for number, quote in enumerate(quotes, 1):
        session.add(
            Claim(
                paper_id=paper.id,
                number=number,
                text_zh="",
                quote_en=quote,
                search_text=index_text(quote),
            )
        )


async def stored(session: AsyncSession) -> AsyncSession:
    await session.commit()
    if backend(session) == "postgresql":  # the planner's statistics, as autovacuum keeps them
        await session.execute(text("ANALYZE claims"))
        await session.execute(text("ANALYZE papers"))
        await session.commit()
    return session


@pytest.fixture
async def store(session: AsyncSession) -> AsyncSession:
    await add_paper(session, "p", [words_of(i) for i in range(CLAIMS)], title="A paper")
    return await stored(session)


async def newest_claims(
    session: AsyncSession,
    words: str,
    where: fulltext.ClaimFilter | None = None,
    window: int = WINDOW,
) -> fulltext.Ranked:
    """The newest `window` claims holding `words` (not translated), as `/claims` finds them."""
    query = parse_query(words, translate=False)
    filters = where or fulltext.ClaimFilter()
    return await fulltext.match_claims(
        session, query, filters, limit=window, offset=0, window=window
    )


@pytest.mark.parametrize("word", ["common", "middle", "fading", "rare"])
async def test_the_newest_matches_are_found_whichever_way(store: AsyncSession, word: str) -> None:
    ids = list((await store.execute(text("SELECT id FROM claims ORDER BY id"))).scalars())
    matching = [claim_id for i, claim_id in enumerate(ids) if word in words_of(i).split()]
    newest = set(sorted(matching, reverse=True)[:WINDOW])
    query = parse_query(word, translate=False)

    ranked = await fulltext.match_claims(
        store, query, fulltext.ClaimFilter(), limit=WINDOW, offset=0, window=WINDOW
    )
    assert set(ranked.ids) == newest
    assert ranked.total == len(newest)

    papers, counted = await fulltext.papers_by_claims(store, query, window=WINDOW)
    assert counted == len(newest)
    assert len(papers) == 1


@pytest.mark.parametrize(
    "words", [("common", "middle"), ("common", "fading"), ("middle", "rare"), ("fading", "rare")]
)
async def test_two_words_find_their_newest_matches(
    store: AsyncSession, words: tuple[str, str]
) -> None:
    ids = list((await store.execute(text("SELECT id FROM claims ORDER BY id"))).scalars())
    matching = [c for i, c in enumerate(ids) if set(words) <= set(words_of(i).split())]
    ranked = await newest_claims(store, " ".join(words))
    assert set(ranked.ids) == set(sorted(matching, reverse=True)[:WINDOW])


PHRASE_WAYS: dict[str, dict[str, object]] = {  # the ways to a phrase's matches, forced
    "walked": {"TEST_COST": {"claims": 0.0}},
    "all read": {"TEST_COST": {"claims": 1e9}, "WALK_SHARE": 2.0, "RANGE_MARGIN": 1e9},
    "newest read": {
        "TEST_COST": {"claims": 1e9},
        "WALK_SHARE": 2.0,
        "RANGE_MARGIN": 1.5,
        "RANGE_SHARE": 1.0,
    },
}


@pytest.mark.parametrize("way", PHRASE_WAYS)
async def test_a_phrase_finds_its_newest_matches_whichever_way(
    session: AsyncSession, way: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The phrase is tested on the rows the text index gives for its words, newest first,
    until the window is full: the same claims as testing them all."""
    for name, value in PHRASE_WAYS[way].items():
        monkeypatch.setattr(newest_matches, name, value)
    orders = ["alpha beta filler", "beta alpha filler", "alpha filler beta"]
    await add_paper(session, "p", [orders[i % 3] for i in range(CLAIMS)])
    await stored(session)
    ids = list((await session.execute(text("SELECT id FROM claims ORDER BY id"))).scalars())
    ranked = await newest_claims(session, '"alpha beta"')
    assert set(ranked.ids) == set(ids[::3][-WINDOW:])
    assert ranked.total == WINDOW


def test_reading_costs_the_entries_of_the_rarest_term() -> None:
    """Measured at 100,000 papers (1,583,528 claims): `延迟 ms`, estimated at 95,743
    matches, its terms in 655,921 and 231,142 claims, is walked (10 ms, reading 78 ms);
    `量化 latency` (33,724; its rarer term in 81,712) is read (24 ms, walking 56 ms)."""
    rows, window = 1_583_528, 1000
    assert not newest_matches._walked(95_743, rows, window, "claims", read=95_743)
    assert newest_matches._walked(95_743, rows, window, "claims", read=231_142)
    assert not newest_matches._walked(33_724, rows, window, "claims", read=81_712)


def test_the_rest_of_a_window_is_walked_when_the_newest_ids_say_walking_costs_less() -> None:
    """Measured at 10,000 papers (158,664 claims): `LoRA`'s words match about 31,800 claims;
    the newest 12,000 ids held 370 that pass its phrases. Walking on for the other 630
    (about 20,000 ids) took 17-29 ms where reading every match took 180-285."""
    walk = newest_matches._rest_walked(370, 12_000, 1000, 31_800, "claims", tested=True)
    assert walk == 2 * (630 * 12_000 // 370)
    # A plain word's matches are read cheaply (no vectors carried): that many ids are not.
    assert not newest_matches._rest_walked(370, 12_000, 1000, 31_800, "claims", tested=False)
    # None passed among the newest: nothing tells how far the rest lies, so it is read.
    assert not newest_matches._rest_walked(0, 12_000, 1000, 31_800, "claims", tested=True)


async def test_a_table_s_size_is_asked_once_a_minute_on_a_connection(
    store: AsyncSession, monkeypatch: pytest.MonkeyPatch
) -> None:
    """PostgreSQL: the planner's count of a table's rows, which every search weighs, is one
    round trip per connection a minute, not one per search (`/paper` and its "Did you
    mean" asked it six times)."""
    if backend(store) != "postgresql":
        pytest.skip("SQLite's searches need no table sizes")
    connection = await store.connection()
    connection.info.pop("table_rows", None)  # left by an earlier test on this connection
    async with statements_run(store) as run:
        for word in ("common", "middle", "rare"):
            assert (await newest_claims(store, word)).ids
        assert len([sql for sql, _ in run if "pg_class" in sql]) == 1
        monkeypatch.setattr(newest_matches, "TABLE_ROWS_KEPT", 0.0)  # a minute later
        await newest_claims(store, "common")
        assert len([sql for sql, _ in run if "pg_class" in sql]) == 2


@pytest.mark.parametrize(
    ("phrase", "holds"),
    [
        ("zz common", lambda i: False),  # `zz` in no claim: the phrase in none
        ("common middle", lambda i: i % 10 == 0),  # in a fifth of those holding `common`
        ("filler common", lambda i: i % 2 == 0),  # in all of them
    ],
)
async def test_a_walk_testing_a_phrase_stops_where_its_word_says_the_window_is(
    store: AsyncSession, phrase: str, holds: Callable[[int], bool]
) -> None:
    """PostgreSQL walks the newest claims for a phrase whose longest word is common,
    testing the phrase on each; the phrase may be far rarer than the word (`AV-GRPO#5`
    where no claim says `AV`: at 100,000 papers every claim was walked, 840 ms, and the
    search ran out of time). The walk stops where the word says the window should be
    full, and the rest is walked or read: the same claims, and every walk bounded."""
    ids = list((await store.execute(text("SELECT id FROM claims ORDER BY id"))).scalars())
    expected = sorted((c for i, c in enumerate(ids) if holds(i)), reverse=True)[:WINDOW]
    async with statements_run(store) as run:
        ranked = await newest_claims(store, f'"{phrase}"')
    walks = [sql for sql, _ in run if "IS TRUE ORDER BY c.id DESC" in sql]  # each claim tested
    assert set(ranked.ids) == set(expected)
    if backend(store) == "postgresql":
        assert walks and all(" c.id > " in walk for walk in walks)


async def test_a_walk_that_falls_short_reads_the_rest_of_the_newest_matches(
    session: AsyncSession, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A word frequent in the newest claims and the oldest, absent between: the newest ids
    hold part of the window, the ids walked below them none, and every match is then read
    for the rest: the same claims as testing them all."""
    monkeypatch.setattr(newest_matches, "TEST_COST", {"claims": 0.5})
    monkeypatch.setattr(newest_matches, "RANGE_MARGIN", 1.0)
    monkeypatch.setattr(newest_matches, "RANGE_SHARE", 1.0)
    quotes = [
        "filler trend" if (i >= CLAIMS - 40 or i < 100) and i % 2 == 0 else "filler"
        for i in range(CLAIMS)
    ]
    await add_paper(session, "p", quotes)
    await stored(session)
    ids = list((await session.execute(text("SELECT id FROM claims ORDER BY id"))).scalars())
    holding = [claim_id for claim_id, quote in zip(ids, quotes, strict=True) if "trend" in quote]

    ranked = await newest_claims(session, "trend", window=30)

    assert set(ranked.ids) == set(holding[-30:])


DAYS = 30  # one paper a day, 20 claims each: the same 600 claims over a month


@pytest.fixture
async def dated_store(session: AsyncSession) -> AsyncSession:
    per_paper = CLAIMS // DAYS
    for day in range(DAYS):
        quotes = [words_of(day * per_paper + n) for n in range(per_paper)]
        await add_paper(session, f"p{day}", quotes, digest_date=date(2026, 1, 1 + day))
    return await stored(session)


RANGES = {  # the first days, the middle of the month, from the middle on, all but the last days
    "old": (None, date(2026, 1, 5)),
    "middle": (date(2026, 1, 10), date(2026, 1, 14)),
    "recent": (date(2026, 1, 15), None),
    "wide and old": (None, date(2026, 1, 25)),
}
# Each way PostgreSQL may be asked for a range's newest matches, forced in turn: by the
# word's frequency (walking the range's papers, or the text index with their claims), and
# for a range too wide for its papers' ids (walking the claims, or reading every match).
WAYS = {
    "as planned": {},
    "wide, walked": {"PAPERS_BY_MEMBERSHIP": 0, "READ_COST": 1e9},
    "wide, read": {"PAPERS_BY_MEMBERSHIP": 0, "READ_COST": 0.0},
}


@pytest.mark.parametrize("way", WAYS)
async def test_a_date_range_finds_its_newest_matches_whichever_way(
    dated_store: AsyncSession, way: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, value in WAYS[way].items():
        monkeypatch.setattr(newest_matches, name, value)
    ids = list((await dated_store.execute(text("SELECT id FROM claims ORDER BY id"))).scalars())
    per_paper = CLAIMS // DAYS
    for word in ("common", "middle", "fading", "rare"):
        for span, (since, until) in RANGES.items():
            matching = [
                claim_id
                for i, claim_id in enumerate(ids)
                if word in words_of(i).split()
                and (since is None or date(2026, 1, 1 + i // per_paper) >= since)
                and (until is None or date(2026, 1, 1 + i // per_paper) <= until)
            ]
            newest = set(sorted(matching, reverse=True)[:WINDOW])
            where = fulltext.ClaimFilter(since=since, until=until)
            ranked = await newest_claims(dated_store, word, where)
            assert (set(ranked.ids), ranked.total) == (newest, len(newest)), (word, span)


@pytest.mark.parametrize("walk_share", [0.0, 1.0])  # walked, or read from the text index
async def test_a_phrase_finds_only_its_words_in_a_row(
    session: AsyncSession, walk_share: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    """PostgreSQL's index is asked for a phrase's longest word (`qwen2`), and the phrase is
    tested on what it finds: claims holding the words apart are not matches."""
    monkeypatch.setattr(newest_matches, "WALK_SHARE", walk_share)
    quotes = ["Qwen2.5-7B wins", "Qwen2 beats 7B models on 5 tasks", "7B Qwen2 5", "Qwen2.5-7B"]
    await add_paper(session, "p", quotes * 10, title="A paper")
    await stored(session)
    query = parse_query("Qwen2.5-7B", translate=False)
    ranked = await fulltext.match_claims(
        session, query, fulltext.ClaimFilter(), limit=100, offset=0, window=WINDOW
    )
    rows = await session.execute(text("SELECT id, quote_en FROM claims ORDER BY id DESC"))
    newest = [claim_id for claim_id, quote in rows if quote.startswith("Qwen2.5-7B")][:WINDOW]
    assert sorted(ranked.ids) == sorted(newest)
    assert ranked.total == len(newest)


WORDS = ("alpha", "bravo", "delta", "kilo")


async def test_terms_sharing_alternatives_find_the_claims_holding_every_term(
    session: AsyncSession,
) -> None:
    """A word typed with its translation makes terms that share alternatives (`显存 memory`:
    `(显存 | memory) & (memory | 记忆)`), which PostgreSQL is asked for in a factored form
    (`memory | (显存 & 记忆)`): every pair of terms, and some triples, over claims holding
    each combination of four words, find exactly the claims holding every term."""
    subsets = [
        frozenset(combo)
        for size in range(1, len(WORDS) + 1)
        for combo in itertools.combinations(WORDS, size)
    ]
    await add_paper(session, "p", [" ".join(["filler", *sorted(s)]) for s in subsets])
    await stored(session)
    claims = list((await session.execute(text("SELECT id FROM claims ORDER BY id"))).scalars())
    pairs = list(itertools.product(subsets, repeat=2))
    triples = list(itertools.product(subsets, repeat=3))[::37]
    for alternatives in pairs + triples:
        terms = tuple(
            Term(
                (words[0],), runs=(words[0],), also=tuple(Term((w,), runs=(w,)) for w in words[1:])
            )
            for words in (sorted(a) for a in alternatives)
        )
        ranked = await fulltext.match_claims(
            session, Query(terms), fulltext.ClaimFilter(), limit=100, offset=0, window=100
        )
        holding = {
            claim_id
            for claim_id, held in zip(claims, subsets, strict=True)
            if all(held & a for a in alternatives)
        }
        assert set(ranked.ids) == holding, alternatives


@pytest.mark.parametrize("walk_share", [0.0, 1.0])  # walked, or read from the text index
async def test_a_phrase_holding_another_alternative_s_word_is_asked_for_as_that_word(
    session: AsyncSession, walk_share: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`量化` is also searched as its dictionary word `模型量化`: PostgreSQL's index is asked
    for `量化` alone, which every match of the phrase holds, not for the phrase's `模型`,
    which most claims hold and which the phrase's test then rejects one by one. The same
    claims are found either way."""
    monkeypatch.setattr(newest_matches, "WALK_SHARE", walk_share)
    quotes = ["model quant wins", "model alone", "quant alone", "quant then model", "filler"]
    await add_paper(session, "p", quotes * 10, title="A paper")
    await stored(session)
    phrase = Term(("model", "quant"), runs=("model", "quant"))
    query = Query((Term(("quant",), runs=("quant",), also=(phrase,)),))
    for relaxed in (fulltext.A_WORD, fulltext.ITS_WORDS):
        assert "model" not in fulltext._claims_tsquery(query, relaxed=relaxed)
    ranked = await fulltext.match_claims(
        session, query, fulltext.ClaimFilter(), limit=100, offset=0, window=100
    )
    rows = await session.execute(text("SELECT id, quote_en FROM claims"))
    assert set(ranked.ids) == {claim_id for claim_id, quote in rows if "quant" in quote}


def test_a_phrase_is_read_from_the_text_index_as_its_longest_word_or_as_all_its_words() -> None:
    """PostgreSQL's index keeps no positions: it is asked for a phrase's longest word where
    its estimate decides the way, and for all its words where every match is read (fewer
    rows to test); a word of the phrase that is an alternative of its own stands alone."""
    phrase = Term(("text", "to", "video"), runs=("text", "to", "video"))
    query = Query((Term(("generation",), runs=("generation",), also=(phrase,)),))
    assert fulltext._tsquery(query) == "(('generation') | ('text' <-> 'to' <-> 'video'))"
    assert fulltext._tsquery(query, relaxed=fulltext.A_WORD) == "(('generation') | ('video'))"
    narrowed = fulltext._tsquery(query, relaxed=fulltext.ITS_WORDS)
    assert narrowed == "(('generation') | ('text' & 'to' & 'video'))"
    owning = Query((Term(("video",), runs=("video",), also=(phrase,)),))
    assert fulltext._tsquery(owning, relaxed=fulltext.ITS_WORDS) == "('video')"


def test_every_match_is_read_when_the_newest_ids_would_be_half_the_table() -> None:
    """Measured: `/paper Attention Is All You Need` at 10,000 papers, estimated at 2,918
    matches, would read the newest 6,854 ids apart (PostgreSQL testing each row of them:
    42 ms, against 17 reading every match); `Audio-Video Generation` at 100,000 papers,
    25,649 matches, reads the newest 7,797 first."""
    assert newest_matches._newest_span(2_918, 10_000, 1000) is None
    assert newest_matches._newest_span(25_649, 100_000, 1000) == 7_797
    assert newest_matches._newest_span(0, 100_000, 1000) is None


def test_the_rest_of_a_window_of_papers_is_read_when_its_phrases_are_tested() -> None:
    """Measured at 100,000 papers: `Audio-Video Generation`'s words match about 25,600
    papers, the newest 7,797 ids held 310 passing its phrase; walking on for the rest
    (about 17,000 papers, each a long vector to test) took 108 ms, reading every match
    (their vectors stored apart, carried as pointers) 20 ms."""
    assert not newest_matches._rest_walked(310, 7_797, 1000, 25_649, "papers", tested=True)
