"""The full-text search SQL, written out for each store.

Both stores index the same tokens (storage/search_text.py). What differs is the syntax:
SQLite FTS5 MATCH with bm25, PostgreSQL tsquery with ts_rank for papers; claims are ranked
from their own text, alike on both (storage/claim_ranking.py). Ranking is applied to the
newest `window` matches only, which both stores find in id order without scoring the
rest, so a common word costs no more than a rare one. Any other store is refused
(storage/dialect.backend).
"""

from __future__ import annotations

import asyncio
import functools
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from datetime import date
from typing import Any, Literal

from sqlalchemy import bindparam, text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncSession

from storage import claim_ranking, db, digest_dates, newest_matches
from storage.dialect import backend
from storage.newest_matches import bind
from storage.search_text import Query, SearchTooCostly, Term


@asynccontextmanager
async def search_budget(session: AsyncSession, seconds: float) -> AsyncIterator[None]:
    """Stop the statements run inside past `seconds` with SearchTooCostly. PostgreSQL
    cancels a statement past its `statement_timeout` (set for the rest of this read-only
    transaction, whose other statements are cheap); SQLite
    has no timeout, but a progress handler, called every few thousand steps of the
    statement, interrupts it once the time is up.

    PostgreSQL also plans each search for its own words (`plan_cache_mode`): the driver
    prepares every statement, and after five runs PostgreSQL would reuse a generic plan
    made without knowing how many rows the words match. For a common word that plan
    reads all its matches (70,000 claims at 10,000 papers) and sorts them by id, 270 ms,
    where the plan for the words walks the newest ids and stops at the window, 10 ms;
    planning again costs under a millisecond. Nor does a search scan a whole table: the
    planner prices a scan of the papers without their text, stored apart (TOAST), which
    each row's test of the words then reads (70 ms at 10,000 papers, against 7 ms from the
    text index)."""
    connection = await session.connection()
    if backend(session) == "postgresql":
        await session.execute(
            text(
                "SELECT set_config('statement_timeout', :timeout, true),"
                " set_config('plan_cache_mode', 'force_custom_plan', true),"
                " set_config('enable_seqscan', 'off', true)"
            ),
            {"timeout": str(int(seconds * 1000))},
        )
        # A cancelled statement aborts the transaction, and a command searches on after
        # one ran out of time (the next "Did you mean"): back to here, its statements run.
        await session.execute(text("SAVEPOINT search_budget"))
        try:
            yield
        except DBAPIError as error:
            if getattr(error.orig, "sqlstate", None) == "57014":  # query_canceled
                await session.execute(text("ROLLBACK TO SAVEPOINT search_budget"))
                raise SearchTooCostly() from None
            raise
        return
    raw = (await connection.get_raw_connection()).driver_connection
    assert raw is not None  # an aiosqlite connection
    deadline = time.monotonic() + seconds
    await raw.set_progress_handler(lambda: time.monotonic() > deadline, 10_000)
    try:
        yield
    except DBAPIError as error:
        if "interrupted" in str(error.orig):
            raise SearchTooCostly() from None
        raise
    finally:
        await raw.set_progress_handler(None, 0)


def _fts5_term(term: Term) -> str:
    # Tokens hold letters and digits only, so quoting them is all the escaping needed.
    if term.prefix:
        return f'"{term.tokens[0]}"*'
    phrases = ['"' + " ".join(t.tokens) + '"' for t in (term, *term.also)]
    if term.joined is not None:
        phrases.insert(1, f'"{term.joined}"')
    return phrases[0] if len(phrases) == 1 else f"({' OR '.join(phrases)})"


def _each_left_out(terms: tuple[Term, ...]) -> list[tuple[Term, ...]]:
    """The terms with each left out in turn: what a hit of all the words but one holds."""
    return [terms[:i] + terms[i + 1 :] for i in range(len(terms))]


def _fts5_all(terms: tuple[Term, ...]) -> str:
    return " AND ".join(_fts5_term(term) for term in terms)


def _fts5(query: Query) -> str:
    match = _fts5_all(query.terms)
    if query.all_but_one:
        some = " OR ".join(f"({_fts5_all(t)})" for t in _each_left_out(query.terms))
        match = f"({some}) NOT ({match})"
    if query.excluded:  # FTS5's binary NOT: what matches the left and not the right
        match = f"({match}) NOT ({' OR '.join(_fts5_term(term) for term in query.excluded)})"
    return match


# How a phrase is relaxed for PostgreSQL's text index (GIN), which keeps no positions:
# as one of its words, which PostgreSQL estimates well (`_words_match`), or as all of its
# words, which the index reads as cheaply (it skips through the others by the rarest) and
# which leaves far fewer rows for the phrase's test.
Relaxed = Literal["", "a word", "its words"]
A_WORD: Relaxed = "a word"
ITS_WORDS: Relaxed = "its words"


def _tsquery_phrases(term: Term, relaxed: Relaxed = "") -> list[str]:
    """The term's alternatives in tsquery syntax, any of which satisfies it; `relaxed`,
    each phrase as words that every match of the phrase holds: a word that is an
    alternative of its own, if the phrase holds one (the phrase then finds nothing more:
    `模型量化`, a dictionary word of `量化`, as `量化`, not as `模型`, which most claims
    hold), else its longest word (A_WORD) or all its words (ITS_WORDS)."""
    if term.prefix:
        return [f"'{term.tokens[0]}':*"]
    alternatives = (term, *term.also)
    words = {t.tokens[0] for t in alternatives if len(t.tokens) == 1} | {term.joined}
    phrases = []
    for t in alternatives:
        tokens, joint = t.tokens, " <-> "
        if relaxed:
            own = next((w for w in tokens if w in words), None)
            if own is not None or relaxed == A_WORD:
                tokens = (own or max(tokens, key=len),)
            else:
                tokens, joint = tuple(dict.fromkeys(tokens)), " & "
        phrases.append("(" + joint.join(f"'{token}'" for token in tokens) + ")")
    if term.joined is not None:
        phrases.insert(1, f"'{term.joined}'")
    return phrases


def _tsquery_term(term: Term, relaxed: Relaxed = "") -> str:
    return _either(list(dict.fromkeys(_tsquery_phrases(term, relaxed))))


def _either(phrases: list[str]) -> str:
    return phrases[0] if len(phrases) == 1 else f"({' | '.join(phrases)})"


def _tsquery_all(terms: tuple[Term, ...], relaxed: Relaxed = "", factored: bool = False) -> str:
    """The terms, all required; `factored`, with the alternatives every term shares taken
    out: `(a | b) & (a | c)` as `a | (b & c)`, the same matches. PostgreSQL estimates the
    terms as if independent, which a shared word defeats: `显存 memory` (`(显存 | memori)
    & (memori | 记忆 | 存储)`) 14,666 claims where 39,473 match at 10,000 papers, factored
    39,234, so `newest_matches.newest` walks the newest claims (6 ms) instead of reading
    the matches (20-30 ms)."""
    alternatives = [list(dict.fromkeys(_tsquery_phrases(term, relaxed))) for term in terms]
    first, *others = alternatives or [[]]
    shared = [a for a in first if all(a in other for other in others)]
    if not (factored and shared and others):
        return " & ".join(map(_either, alternatives))
    rest = [[a for a in other if a not in shared] for other in alternatives]
    if not all(rest):  # a term all of whose alternatives are shared: it implies the rest
        return _either(shared)
    return f"{_either(shared)} | ({' & '.join(map(_either, rest))})"


def _tsquery(
    query: Query,
    terms: tuple[Term, ...] | None = None,
    relaxed: Relaxed = "",
    factored: bool = False,
) -> str:
    """The query in tsquery syntax; `relaxed`, with each phrase of the words asked for
    relaxed so (`_tsquery_phrases`; what no word must hold, and a search by all the words
    but one, stay as they are): every match of the query matches that too. `factored`:
    see `_tsquery_all`."""
    terms = query.terms if terms is None else terms
    plain = not query.all_but_one
    match = _tsquery_all(terms, relaxed if plain else "", factored and plain)
    if query.all_but_one:
        some = " | ".join(f"({_tsquery_all(t)})" for t in _each_left_out(terms))
        match = f"({some}) & !({match})"
    if query.excluded:
        match = f"({match}) & !({' | '.join(_tsquery_term(term) for term in query.excluded)})"
    return match


def _claims_tsquery(query: Query, relaxed: Relaxed = "", factored: bool = False) -> str:
    """The tsquery that finds the claims of `query`, without the terms another term
    implies: the same claims as `_tsquery`, and the planner's estimate of how many.

    A word typed with its translation (`奖励 reward`) makes two terms, each the other's
    alternative: `(奖励 | reward) & (reward | 奖励 | 报酬 | 奖赏)`. PostgreSQL estimates
    the two as independent, and so the matches at the square of their share (3,000
    claims, not 21,000, at 10,000 papers): `newest_matches.newest` then reads the matches
    among far too many of the newest ids (40 ms instead of 10). A term whose alternatives
    include all of another's holds wherever that other does, so leaving it out finds the
    same claims; claims are scored from the query's terms, not from this (papers are
    ranked by `ts_rank` over theirs, so theirs keep every term)."""
    if query.all_but_one:  # each term is left out in turn: none may go for good
        return _tsquery(query, relaxed=relaxed, factored=factored)
    alternatives = [frozenset(_tsquery_phrases(term)) for term in query.terms]
    kept = tuple(
        term
        for i, term in enumerate(query.terms)
        if not any(
            other < alternatives[i] or (other == alternatives[i] and j < i)
            for j, other in enumerate(alternatives)
            if j != i
        )
    )
    return _tsquery(query, kept, relaxed, factored)


def _words_match(
    column: str, render: Callable[..., str], params: dict[str, Any]
) -> tuple[str, str]:
    """SQL for `column` matching the query `render` writes in tsquery syntax, written for
    how PostgreSQL should use its text index: what the index is asked for, and the test of
    the phrases on the rows it finds (` AND …`, or none). PostgreSQL estimates a phrase
    (`Qwen2.5-7B`: `qwen2 <-> 5 <-> 7b`) as if its words were independent, 139 claims where
    32,761 match at 100,000 papers, and every plan made on that reads all the matches. So
    the index is asked for each phrase as its longest word (`qwen2`), `:relaxed`, which it
    estimates well; and where every match is read, which needs no estimate, as all its
    words, `:narrowed` (see `newest_matches._narrowed`): `Audio-Video Generation`, whose
    translations hold `text to video`, then leaves 4,867 papers of 100,000 to test where
    its longest words left 25,633 (3,723 pass). `IS TRUE` keeps the phrases' test out of
    the index and out of the estimate that decides the way (PostgreSQL would multiply in
    its estimate of them). Both are asked in their `factored` form (see `_tsquery_all`)."""
    exact = render()
    params["match"] = exact
    params["relaxed"] = render(relaxed=A_WORD, factored=True)
    params["narrowed"] = render(relaxed=ITS_WORDS, factored=True)
    same = render(relaxed=A_WORD) == exact
    tested = "" if same else f" AND ({column} @@ to_tsquery('simple', :match)) IS TRUE"
    return f"{column} @@ to_tsquery('simple', :relaxed)", tested


def _claim_words(query: Query, params: dict[str, Any]) -> tuple[str, str, list[str]]:
    """`_words_match` for claims, and the claims holding each required term alone (as FROM
    and WHERE, for `newest_matches.newest` to tell what reading costs)."""
    found, tested = _words_match("c.search_fts", functools.partial(_claims_tsquery, query), params)
    terms = []
    if not query.all_but_one and len(query.terms) > 1:
        for i, term in enumerate(query.terms):
            params[f"term{i}"] = _tsquery_term(term, relaxed=A_WORD)
            terms.append(f"FROM claims c WHERE c.search_fts @@ to_tsquery('simple', :term{i})")
    return found, tested, terms


def _paper_words(query: Query, params: dict[str, Any]) -> tuple[str, str]:
    return _words_match("p.search_fts", functools.partial(_tsquery, query), params)


@dataclass(frozen=True)
class ClaimFilter:
    paper_ids: tuple[int, ...] | None = None
    since: date | None = None
    until: date | None = None
    # Papers whose claims are left out (their name holds an excluded word: `-Enoki`).
    without_papers: tuple[int, ...] = ()
    without_claims: tuple[int, ...] = ()  # claims already shown by an earlier part


def _claim_conditions(where: ClaimFilter, claim: str, paper: str) -> tuple[str, dict[str, Any]]:
    sql = ""
    params: dict[str, Any] = {}
    if where.paper_ids is not None:
        sql += f" AND {claim}.paper_id IN :paper_ids"
        params["paper_ids"] = list(where.paper_ids)
    dates, bounds = digest_dates.within_sql(paper, where.since, where.until)
    sql += dates
    params |= bounds
    if where.without_papers:
        sql += f" AND {claim}.paper_id NOT IN :without_papers"
        params["without_papers"] = list(where.without_papers)
    if where.without_claims:
        sql += f" AND {claim}.id NOT IN :without_claims"
        params["without_claims"] = list(where.without_claims)
    return sql, params


def _papers_as_typed(
    session: AsyncSession, words: tuple[str, ...], phrases: tuple[Term, ...], params: dict[str, Any]
) -> list[str]:
    """SQL scoring a paper 1 for holding `words` in its names and 1 for holding `phrases`
    (Chinese runs as typed) in its text, each shared among them. PostgreSQL asks the
    paper's stored vector (names weigh A), which ranking reads anyway: a pattern over the
    text of a thousand papers took 20 ms of a search at 10,000 papers."""
    runs = [" ".join(phrase.tokens) for phrase in phrases]
    if backend(session) == "sqlite":  # tokens hold letters and digits: nothing to escape
        head = "(' ' || p.search_head || ' ')"
        whole = "(' ' || p.search_head || ' ' || p.search_body || ' ')"
        return _shared(f"{head} LIKE {{}}", [f"% {w} %" for w in words], "exact", params) + (
            _shared(f"{whole} LIKE {{}}", [f"% {run} %" for run in runs], "bonus", params)
        )
    vector = "p.search_fts @@ to_tsquery('simple', {})"
    return _shared(vector, [f"'{w}':A" for w in words], "exact", params) + _shared(
        vector, [run.replace(" ", " <-> ") for run in runs], "bonus", params
    )


def _shared(test: str, values: list[str], name: str, params: dict[str, Any]) -> list[str]:
    """A score of 1 shared among `values`: `test` (SQL, `{}` where the value goes) of each."""
    sql = []
    for j, value in enumerate(values):
        params[f"{name}{j}"] = value
        sql.append(f"(CASE WHEN {test.format(f':{name}{j}')} THEN {1 / len(values)} ELSE 0 END)")
    return sql


@dataclass(frozen=True)
class Ranked:
    """One page of ids, and how many matches the window holds in all (at most the
    window: `total == window` means "that many or more")."""

    ids: list[int]
    total: int


async def match_claims(
    session: AsyncSession,
    query: Query,
    where: ClaimFilter,
    *,
    limit: int,
    offset: int,
    window: int,
) -> Ranked:
    """Ids of matching claims, best first (score, then the newer row), among the newest
    `window` matches: the database finds those in id order without looking at the rest,
    so a common word costs about what a rare one does."""
    params: dict[str, Any] = {"limit": limit, "offset": offset, "window": window}
    if backend(session) == "sqlite":
        params["match"] = _fts5(query)
        newest = await _sqlite_newest(session, where, params)
        if newest is None:  # a wide date range: listed newest first, unscored
            return await _sqlite_walk(session, where, params)
    else:
        dated = where.since is not None or where.until is not None
        undated = replace(where, since=None, until=None)
        conditions, more = _claim_conditions(undated, "c", "p")
        params |= more
        found, tested, terms = _claim_words(query, params)
        matching = f"FROM claims c WHERE {found} {conditions}"
        if dated:
            newest = await newest_matches.newest_in_dates(
                session, matching, tested, where.since, where.until, params, window, terms
            )
        else:
            newest = await newest_matches.newest(
                session, "claims", "c.id", matching, tested, params, window, terms
            )
    return await _ranked(session, newest, query, params, offset)


async def _ranked(
    session: AsyncSession, newest: str, query: Query, params: dict[str, Any], offset: int
) -> Ranked:
    """One page of the newest matches (`newest`, SQL for their ids), best first
    (storage/claim_ranking.py), and how many the window holds."""
    claims = f"SELECT c.id, c.search_text FROM ({newest}) AS m JOIN claims c ON c.id = m.id"
    rows = [(row[0], row[1]) for row in await session.execute(bind(claims, params), params)]
    # CPU work over the window's text: in a thread, off the event loop.
    ranking = await asyncio.to_thread(claim_ranking.rank, query, rows)
    return Ranked(ranking[offset : offset + params["limit"]], len(rows))


# A date range holding at most this many papers is matched by membership (exact, cheap);
# a wider one by walking the matches newest first until a page is full.
DATE_RANGE_BY_MEMBERSHIP = 2_000


async def _sqlite_newest(
    session: AsyncSession, where: ClaimFilter, params: dict[str, Any]
) -> str | None:
    """The newest matches as FTS5 yields them, in rowid order. A paper filter is exact
    and cheap: the paper's claims were inserted together, so their ids form a short range
    the index can seek to. A narrow date range becomes such a set of claims too; for a
    wide one this returns None.

    A set of claims is tested on each match (`+rowid`), never given to FTS5 as the rowids
    to look up: FTS5 would then look each one up in every term's list, and use that instead
    of the paper's range (at 10,000 papers, `模型 paper:X` took 29 ms against 0.5 ms, and
    `模型 since:` a day 0.3-2.7 s against 4-14 ms)."""
    sql = "SELECT rowid AS id FROM claims_fts WHERE claims_fts MATCH :match"
    if where.paper_ids is not None:
        params["paper_ids"] = list(where.paper_ids)
        bounds = await session.execute(
            bind("SELECT min(id), max(id) FROM claims WHERE paper_id IN :paper_ids", params),
            params,
        )
        params["low"], params["high"] = bounds.one()
        sql += (
            " AND rowid BETWEEN :low AND :high"
            " AND +rowid IN (SELECT id FROM claims WHERE paper_id IN :paper_ids)"
        )
    if where.since is not None or where.until is not None:
        dates, more = _claim_conditions(ClaimFilter(None, where.since, where.until), "p", "p")
        params |= more
        in_range = f"SELECT p.id FROM papers p WHERE 1 = 1 {dates}"
        count = await session.execute(
            text(f"SELECT count(*) FROM ({in_range} LIMIT :cap)"),
            params | {"cap": DATE_RANGE_BY_MEMBERSHIP + 1},
        )
        if count.scalar_one() > DATE_RANGE_BY_MEMBERSHIP:
            return None
        sql += f" AND +rowid IN (SELECT id FROM claims WHERE paper_id IN ({in_range}))"
    if where.without_papers:
        params["without_papers"] = list(where.without_papers)
        sql += " AND rowid NOT IN (SELECT id FROM claims WHERE paper_id IN :without_papers)"
    if where.without_claims:
        params["without_claims"] = list(where.without_claims)
        sql += " AND rowid NOT IN :without_claims"
    return sql + " ORDER BY rowid DESC LIMIT :window"


async def _sqlite_walk(session: AsyncSession, where: ClaimFilter, params: dict[str, Any]) -> Ranked:
    """The newest matches in a wide date range, unscored, and how many the window holds.
    A page inside the window is cut from the window's own walk: a second walk for the page
    would skip the same matches outside the range again.

    The walk goes newest first (the outer ORDER BY: without it SQLite dropped the inner
    one and listed the oldest matches of the range). A range ending well before the newest
    papers is walked between its claims' first and last ids: from the newest match it
    would pass every later one first (`until:` the first 40 days of 500, at 100,000 papers:
    820 ms, against 12 ms to find the ids and 10 to walk)."""
    dates, more = _claim_conditions(where, "c", "p")
    params |= more
    between = ""
    if where.until is not None and await _well_before_the_newest(session, where.until):
        in_range = digest_dates.within_sql("p", where.since, where.until)[0]
        papers = f"SELECT p.id FROM papers p WHERE 1 = 1 {in_range}"
        bounds = await session.execute(
            text(f"SELECT min(id), max(id) FROM claims WHERE paper_id IN ({papers})"), params
        )
        params["low"], params["high"] = bounds.one()
        if params["high"] is None:
            return Ranked([], 0)
        between = " AND rowid BETWEEN :low AND :high"
    walk = f"""
        SELECT f.id FROM (
            SELECT rowid AS id FROM claims_fts WHERE claims_fts MATCH :match{between}
        ) AS f JOIN claims c ON c.id = f.id JOIN papers p ON p.id = c.paper_id
        WHERE 1 = 1 {dates} ORDER BY f.id DESC"""
    offset, limit = params["offset"], params["limit"]
    if offset + limit <= params["window"]:
        found = await session.execute(bind(f"{walk} LIMIT :window", params), params)
        ids = [row[0] for row in found]
        return Ranked(ids[offset : offset + limit], len(ids))
    rows = await session.execute(bind(f"{walk} LIMIT :limit OFFSET :offset", params), params)
    counted = await session.execute(
        bind(f"SELECT count(*) FROM ({walk} LIMIT :window) AS n", params), params
    )
    return Ranked([row[0] for row in rows], counted.scalar_one())


# A range with this share of the papers after it or more is walked between its claims' ids.
AFTER_THE_RANGE = 1 / 20


async def _well_before_the_newest(session: AsyncSession, until: date) -> bool:
    """Whether AFTER_THE_RANGE of the papers or more come after `until` (two counts read
    from the index of digest dates: a few milliseconds at 100,000 papers)."""
    counted = await session.execute(
        text(
            "SELECT (SELECT count(*) FROM papers WHERE digest_date > :until),"
            " (SELECT count(*) FROM papers WHERE digest_date IS NOT NULL)"
        ),
        {"until": until},
    )
    after, dated = counted.one()
    return bool(after) and after >= dated * AFTER_THE_RANGE


async def match_papers(
    session: AsyncSession, query: Query, *, limit: int, window: int
) -> list[int]:
    """Ids of matching papers, best first; a match in the names counts ten times the text,
    and names holding the words as typed (`World Models` for `models`) come first."""
    params: dict[str, Any] = {"limit": limit, "window": window}
    exact = tuple(dict.fromkeys(word for term in query.terms for word in term.exact))
    # A Chinese run as typed (`具身智能`), searched as its words, ranks its papers first.
    bonus = _papers_as_typed(session, exact, query.bonus, params)
    as_typed = f"{' + '.join(bonus)} DESC, " if bonus else ""
    if backend(session) == "sqlite":
        params["match"] = _fts5(query)
        sql = f"""
            SELECT m.id FROM (
                SELECT rowid AS id, bm25(papers_fts, 10.0, 1.0) AS score FROM papers_fts
                WHERE papers_fts MATCH :match ORDER BY rowid DESC LIMIT :window
            ) AS m JOIN papers p ON p.id = m.id
            ORDER BY {as_typed}m.score, m.id DESC LIMIT :limit"""
    else:
        found, tested = _paper_words(query, params)
        matching = f"FROM papers p WHERE {found}"
        newest = await newest_matches.newest(
            session, "papers", "p.id", matching, tested, params, window
        )
        sql = f"""
            SELECT p.id FROM ({newest}) AS m JOIN papers p ON p.id = m.id,
                to_tsquery('simple', :match) AS q
            ORDER BY {as_typed}ts_rank(p.search_fts, q) DESC, p.id DESC
            LIMIT :limit"""
    rows = await session.execute(text(sql), params)
    return [row[0] for row in rows]


async def newest_papers(session: AsyncSession, query: Query, *, limit: int) -> list[int]:
    """Ids of the newest `limit` papers matching in their own text, unranked: enough to
    tell whether the words match one paper or more, at a fraction of ranking's cost."""
    params: dict[str, Any] = {"limit": limit}
    if backend(session) == "sqlite":
        params["match"] = _fts5(query)
        sql = """SELECT rowid FROM papers_fts WHERE papers_fts MATCH :match
                 ORDER BY rowid DESC LIMIT :limit"""
    else:
        found, tested = _paper_words(query, params)
        params["window"] = limit
        sql = await newest_matches.newest(
            session, "papers", "p.id", f"FROM papers p WHERE {found}", tested, params, limit
        )
    rows = await session.execute(text(sql), params)
    return [row[0] for row in rows]


async def papers_matching(
    session: AsyncSession, queries: list[Query], low: int, high: int
) -> list[set[int]]:
    """For each query, which papers with ids in (`low`, `high`] match it in their own text
    or in one of their claims (what `/paper` and `/claims` would find). Meant for the
    papers new since a subscriber's last look: a range of ids binds two numbers however
    many papers it holds, and the claims of recent papers form a short range of ids too,
    which keeps common words cheap."""
    params: dict[str, Any] = {"low": low, "high": high}
    if backend(session) == "sqlite":
        bounds = await session.execute(
            text("SELECT min(id), max(id) FROM claims WHERE paper_id > :low AND paper_id <= :high"),
            params,
        )
        params["claim_low"], params["claim_high"] = bounds.one()
        sql = """
            SELECT rowid FROM papers_fts
            WHERE papers_fts MATCH :match AND rowid > :low AND rowid <= :high
            UNION
            SELECT c.paper_id FROM claims_fts f JOIN claims c ON c.id = f.rowid
            WHERE claims_fts MATCH :match AND f.rowid BETWEEN :claim_low AND :claim_high
              AND c.paper_id > :low AND c.paper_id <= :high"""
        render = _fts5
    else:
        sql = """
            SELECT p.id FROM papers p WHERE p.id > :low AND p.id <= :high
              AND p.search_fts @@ to_tsquery('simple', :match)
            UNION
            SELECT c.paper_id FROM claims c WHERE c.paper_id > :low AND c.paper_id <= :high
              AND c.search_fts @@ to_tsquery('simple', :match)"""
        render = _tsquery
    found = []
    for query in queries:
        rows = await session.execute(text(sql), params | {"match": render(query)})
        found.append({row[0] for row in rows})
    return found


async def papers_by_claims(
    session: AsyncSession, query: Query, *, window: int
) -> tuple[list[int], int]:
    """Ids of the papers owning the newest `window` matching claims, the paper with the
    most of them first (then the newer paper); and how many claims that was."""
    params: dict[str, Any] = {"window": window}
    if backend(session) == "sqlite":
        params["match"] = _fts5(query)
        newest = """SELECT rowid AS id FROM claims_fts WHERE claims_fts MATCH :match
                    ORDER BY rowid DESC LIMIT :window"""
    else:
        found, tested, terms = _claim_words(query, params)
        matching = f"FROM claims c WHERE {found}"
        newest = await newest_matches.newest(
            session, "claims", "c.id", matching, tested, params, window, terms
        )
    sql = f"""
        SELECT c.paper_id, count(*) FROM ({newest}) AS m JOIN claims c ON c.id = m.id
        GROUP BY c.paper_id ORDER BY count(*) DESC, c.paper_id DESC"""
    rows = (await session.execute(text(sql), params)).all()
    return [row[0] for row in rows], sum(row[1] for row in rows)


async def claim_terms(session: AsyncSession, *, newest: int) -> list[tuple[str, int]]:
    """Words of the claims' search index that begin with a Latin letter, each with the
    number of claims holding it. SQLite reads FTS5's own term list (the whole index, no
    claim row is read); PostgreSQL has no such list, so `ts_stat` reads the vectors of the
    `newest` claims only, which bounds the work whatever the store's size."""
    if backend(session) == "sqlite":
        await session.execute(
            text(
                "CREATE VIRTUAL TABLE IF NOT EXISTS temp.claims_terms "
                "USING fts5vocab(main, claims_fts, 'row')"
            )
        )
        # The range lets FTS5 skip the numbers and Chinese pieces instead of reading them.
        sql = (
            "SELECT term, doc FROM temp.claims_terms"
            " WHERE term >= 'a' AND term < '{' AND term GLOB '[a-z][a-z0-9]*'"
        )
        rows = await session.execute(text(sql))
    else:
        newest_claims = (
            "'SELECT search_fts FROM claims WHERE id > '"
            " || (SELECT coalesce(max(id), 0) - :newest FROM claims)"
        )
        sql = f"SELECT word, ndoc FROM ts_stat({newest_claims}) WHERE word ~ '^[a-z][a-z0-9]*$'"
        rows = await session.execute(text(sql), {"newest": int(newest)})
    return [(row[0], row[1]) for row in rows]


NAMED_WINDOW = 200  # papers named by excluded words, at most (the newest)


async def papers_named(session: AsyncSession, terms: tuple[Term, ...]) -> list[int]:
    """The newest papers whose title or name holds any of `terms`: `/claims AUROC -Enoki`
    leaves out the claims of the paper called Enoki, which need not say its own name.
    Once a command: on PostgreSQL a common word's (`-the`) took 65 ms at 100,000 papers,
    and each "Did you mean" the command checked asked again."""
    if not terms:
        return []
    return await db.once_a_session(session, ("named", terms), lambda: _papers_named(session, terms))


async def _papers_named(session: AsyncSession, terms: tuple[Term, ...]) -> list[int]:
    if backend(session) == "sqlite":
        match = "search_head : (" + " OR ".join(_fts5_term(term) for term in terms) + ")"
        sql = "SELECT rowid FROM papers_fts WHERE papers_fts MATCH :match"
        sql += " ORDER BY rowid DESC LIMIT :limit"
    else:
        match = " | ".join(_tsquery_term(term) for term in terms)
        sql = """SELECT id FROM papers WHERE search_fts @@ to_tsquery('simple', :match)
                 AND to_tsvector('simple', search_head) @@ to_tsquery('simple', :match)
                 ORDER BY id DESC LIMIT :limit"""
    rows = await session.execute(text(sql), {"match": match, "limit": NAMED_WINDOW})
    return [row[0] for row in rows]


async def papers_holding(
    session: AsyncSession, terms: tuple[Term, ...], ids: list[int]
) -> set[int]:
    """Which of these papers hold any of `terms` in their own text (title, sections): the
    papers a search with those words excluded leaves out, though a claim of theirs may
    not mention them. `ids` is one page's window at most, bound as a list."""
    if not terms or not ids:
        return set()
    if backend(session) == "sqlite":
        # Each match tested against the list (`+rowid`), between its ends: given the list
        # as rowids, FTS5 evaluated the words once per id (`-"a b"` after `/paper model`
        # at 100,000 papers: 310 ms, against 2 ms).
        params: dict[str, Any] = {"low": min(ids), "high": max(ids)}
        params["match"] = " OR ".join(_fts5_term(term) for term in terms)
        sql = (
            "SELECT rowid FROM papers_fts WHERE papers_fts MATCH :match"
            " AND rowid BETWEEN :low AND :high AND +rowid IN :ids"
        )
    else:
        params = {"match": " | ".join(_tsquery_term(term) for term in terms)}
        sql = (
            "SELECT id FROM papers WHERE search_fts @@ to_tsquery('simple', :match) AND id IN :ids"
        )
    statement = text(sql).bindparams(bindparam("ids", expanding=True))
    params["ids"] = list(ids)
    return {row[0] for row in await session.execute(statement, params)}
