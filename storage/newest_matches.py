"""How PostgreSQL finds the newest matches of a search (storage/fulltext.py ranks them).

Its planner picks badly between walking the ids newest first, testing each row, and
reading every match from the text index: it prices the test of a row far below its cost,
and estimates phrases as if their words were independent. So the way is decided here, from
its estimate of the matches and the table's size, and each way is written out so that it
can take no other.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from datetime import date
from typing import Any

from sqlalchemy import TextClause, bindparam, text
from sqlalchemy.ext.asyncio import AsyncSession

from storage import digest_dates

# Lists of ids a search's SQL may hold, bound as one parameter each (`IN :paper_ids`).
_ID_LISTS = ("paper_ids", "without_papers", "without_claims")


def bind(sql: str, params: dict[str, Any]) -> TextClause:
    """`sql` as a statement whose id lists (`IN :paper_ids`) expand to their ids."""
    statement = text(sql)
    for name in _ID_LISTS:
        if name in params and f":{name}" in sql:  # a list of ids found may replace them
            statement = statement.bindparams(bindparam(name, expanding=True))
    return statement


# What testing one row for the words costs, in reads of one match from the text index
# (measured at 100,000 papers: a claim 1.5 µs against 0.23 µs; a paper, whose text is
# longer, 7-10 µs against 0.21 µs). It decides between walking and reading (see `newest`).
TEST_COST = {"claims": 6.5, "papers": 40.0}
# What reading one match costs beyond its index entry when phrases are tested, in those
# entries: a claim's vector, stored in its row, is carried whole through the sort that
# orders the matches (as dear as testing it); a paper's, stored apart, only as a pointer.
CARRIED_COST = {"claims": TEST_COST["claims"], "papers": 0.0}
# From this share of the rows matching, walking is cheapest whatever the store's size:
# PostgreSQL would scan the table rather than combine the indexes for so many.
WALK_SHARE = 1 / 3
# What reading one match from the text index and its row costs, in tests of a row walked.
READ_COST = 2.0
# The newest ids searched first hold about this many times the window's matches.
RANGE_MARGIN = 2
# Newest ids that should hold the window, when this share of the table or more, are read
# with the rest: apart, they save at most the rest, and PostgreSQL tests every row of so
# wide a range rather than combine it with the text index (`/paper Attention Is All You
# Need` at 10,000 papers: 6,854 of 10,000 ids, 42 ms, against 17 reading every match).
RANGE_SHARE = 1 / 2
# Seconds a connection keeps the tables' sizes (`_rows`).
TABLE_ROWS_KEPT = 60.0


async def newest(
    session: AsyncSession,
    table: str,
    key: str,
    matching: str,
    tested: str,
    params: dict[str, Any],
    window: int,
    terms: Sequence[str] = (),
) -> str:
    """SQL for the ids of the newest `window` rows of `matching` (a FROM and WHERE over
    `table`, whose id is `key`) that pass `tested` (the phrases' test, `_words_match`),
    written for how PostgreSQL should find them; `terms`, the rows holding each of the
    words' required terms (a FROM and WHERE each), tell what reading costs.

    There are two ways, and PostgreSQL's planner picks badly between them. Walking the
    ids newest first, testing each row until the window is full, costs the window divided
    by the share of rows matching, times the test of a row. Reading from the text index
    costs each entry it reads (and `key + 0` hides the id index from the ordering): a
    word's matches, or for several words the rows of the rarest (`_walks`). So walking
    wins when matches × read ≥ TEST_COST × window × rows (at 10,000 papers for a word in
    a fifth of the claims, at 100,000 for one in a sixteenth), and whenever
    WALK_SHARE of the rows match (papers' longer text would not walk by TEST_COST). The
    planner prices the test of a row far below its cost and walks for middle words too
    (100 ms for 1,000 claims of a word in 2.5% of them at 10,000 papers); asked for its
    estimate of the matches (a fraction of a millisecond), this decides instead.

    Reading from the text index is done among the newest ids first, as many as should
    hold the window about RANGE_MARGIN times over (for a rare word, all of them):
    combining the text index with the range of ids, PostgreSQL reads the rows of that
    range only, not every match (it would rather walk the range testing each row: plain
    index scans are turned off for that statement, and the ids it found are returned as
    a list). When those held too few, the older ids are walked for the rest or all the
    matches read, whichever those ids say costs less (`_rest_walked`)."""
    matches = await _estimated(session, matching, params)
    rows = await _rows(session, table)
    every = f"{_newest_first(key, matching, tested)} LIMIT :window"
    walked = f"SELECT {key} AS id {matching}{tested} ORDER BY {key} DESC LIMIT :window"
    walking = await _walks(session, table, matches, rows, window, terms, params)
    # A walk expects the phrases as common as the word the index is asked for; they may
    # be far rarer (`AV-GRPO#5` where no claim says `AV`: every claim walked, past the
    # search's time), so a walk with phrases stops where the window should be full.
    span = _newest_span(matches, rows, window, 1.0 if walking else RANGE_SHARE)
    if walking and (not tested or span is None):
        return walked
    if span is None:
        return _narrowed(every, params)
    newest_id = await session.execute(text(f"SELECT max(id) FROM {table}"))
    params["newest_from"] = (newest_id.scalar_one() or 0) - span
    if walking:
        in_span = (
            f"SELECT {key} AS id {matching} AND {key} > :newest_from{tested}"
            f" ORDER BY {key} DESC LIMIT :window"
        )
        ids = [row[0] for row in await session.execute(bind(in_span, params), params)]
    else:
        ranged = _newest_first(key, f"{matching} AND {key} > :newest_from", tested)
        ids = await _without_index_scans(session, f"{ranged} LIMIT :window", params)
    if len(ids) < window and (
        walk := _rest_walked(len(ids), span, window, matches, table, bool(tested))
    ):
        params["rest"], params["walked_from"] = window - len(ids), params["newest_from"] - walk
        older = (
            f"SELECT {key} AS id {matching} AND {key} <= :newest_from"
            f" AND {key} > :walked_from{tested} ORDER BY {key} DESC LIMIT :rest"
        )
        ids += [row[0] for row in await session.execute(bind(older, params), params)]
    if len(ids) < window:
        return _narrowed(every, params)
    params["newest_ids"] = ids
    return _NEWEST_IDS


def _newest_span(
    matches: float, rows: float, window: int, share: float = RANGE_SHARE
) -> int | None:
    """How many of the newest ids should hold the window's matches RANGE_MARGIN times
    over; None if those are `share` of the table or more: every match is read then (or
    every id walked)."""
    span = RANGE_MARGIN * window * rows / max(matches, 1.0)
    return None if span >= rows * share else int(span)


def _rest_walked(
    found: int, span: int, window: int, matches: float, table: str, tested: bool
) -> int:
    """How many ids below the `span` newest (which held `found` of the window) to walk for
    the rest: twice those that should hold it, if testing them costs less than reading
    every match, else 0 (read). Reading carries each claim's whole vector when phrases
    are tested, and those ids hold few that pass (`/claims LoRA` at 10,000 papers: its words
    match a fifth of the claims, its phrases a third of those: 17-29 ms walked, 180-285
    read, the machine busy). When the ids walked hold too few, every match is read after
    all: a walk that falls short costs at most twice that read."""
    if not found:
        return 0
    per_match = 1 + (CARRIED_COST[table] if tested else 0.0)
    walked = (window - found) * span / found
    return int(2 * walked) if walked * TEST_COST[table] <= matches * per_match else 0


def _narrowed(every: str, params: dict[str, Any]) -> str:
    """`every`, the SQL reading every match, with the text index asked for each phrase as
    all its words, `:narrowed` (see fulltext._words_match), where the other ways ask for
    its longest word alone: written out, reading takes no other way whatever PostgreSQL
    estimates, and fewer rows are left for the phrases' test. Those others need its
    estimate: walks and the read of the newest ids are planned on it, and it takes a
    phrase's words as independent (`Llama-3.1-8B`: 27 claims where 28,543 match at
    100,000 papers), which left the newest ids out of the read (39 ms against 16)."""
    if "narrowed" in params:
        params["relaxed"] = params["narrowed"]
    return every


def _newest_first(key: str, matching: str, tested: str) -> str:
    """SQL for the ids of `matching` read from the text index, newest first (`key + 0`
    hides the id index from the ordering), `tested` on them in that order: only on as
    many as the window takes. Testing every match first (a phrase's test reads each row's
    whole vector) took 25 ms for `Humanoid Loco-Manipulation`, in 3,756 papers at
    100,000, against 11."""
    if not tested:
        return f"SELECT {key} AS id {matching} ORDER BY {key} + 0 DESC"
    alias = key.split(".")[0]  # the test names the vector by it, inside and out
    return (
        f"SELECT {key} AS id FROM (SELECT {key}, {alias}.search_fts {matching}"
        f" ORDER BY {key} + 0 DESC OFFSET 0) AS {alias} WHERE true{tested}"
    )


def _walked(matches: float, rows: float, window: int, table: str, read: float) -> bool:
    """Whether the newest matches are found cheapest by walking the ids (see `newest`):
    testing window × rows / matches rows costs less than reading `read` index entries."""
    return matches >= rows * WALK_SHARE or read * matches >= TEST_COST[table] * window * rows


async def _walks(
    session: AsyncSession,
    table: str,
    matches: float,
    rows: float,
    window: int,
    terms: Sequence[str],
    params: dict[str, Any],
) -> bool:
    """`_walked`, reading counted as the entries it reads: those of the rarest term at
    least (it skips through the other terms' entries by them), not only the matches. Two
    words often found together (`延迟 ms`: 177,000 claims at 100,000 papers, estimated at
    96,000 as if independent, of 232,000 and 656,000) were read in 78 ms where walking the
    newest claims takes 10. The terms are estimated only when the matches alone say read."""
    if _walked(matches, rows, window, table, matches):
        return True
    estimates = [await _estimated(session, term, params) for term in terms]
    return _walked(matches, rows, window, table, max(matches, min(estimates, default=matches)))


_NEWEST_IDS = "SELECT unnest(CAST(:newest_ids AS bigint[])) AS id"
# A date range holding at most this many papers has its claims' matches read through the
# papers' ids (PostgreSQL); a wider one is walked, newest claims first.
PAPERS_BY_MEMBERSHIP = 20_000


async def newest_in_dates(
    session: AsyncSession,
    matching: str,
    tested: str,
    since: date | None,
    until: date | None,
    params: dict[str, Any],
    window: int,
    terms: Sequence[str] = (),
) -> str:
    """SQL for the ids of the newest `window` claims of `matching` (FROM and WHERE over
    `claims c`) that pass `tested` and whose paper is in the date range: the claims of its
    papers, newest first (`terms`: see `newest`).

    Walking every claim newest first and testing its paper's date passes all the claims
    after the range first (1.45 million for `until:` the first weeks, at 100,000 papers:
    9 s). So for a common word (see `newest`) the range's papers are walked newest first,
    their claims tested, until the window is full (10-40 ms); for a rarer word in a
    range of at most PAPERS_BY_MEMBERSHIP papers, the text index's matches are combined
    with the claims of those papers (index scans off: 40 ms for a word in 2.5% of the
    claims, where PostgreSQL would test every claim of the range); a wider range, which
    holds most claims, is walked newest claims first unless reading every match from the
    text index tests fewer rows (a rare word, or a range that ends long before the newest
    claims)."""
    dates, bounds = digest_dates.within_sql("p", since, until)
    params |= bounds
    papers = f"FROM papers p WHERE true {dates}"
    matches = await _estimated(session, matching, params)
    rows = await _rows(session, "claims")
    matching += tested
    if await _walks(session, "claims", matches, rows, window, terms, params):
        return f"""
            SELECT x.id FROM (SELECT p.id {papers} ORDER BY p.id DESC) AS r
            CROSS JOIN LATERAL (
                SELECT c.id {matching} AND c.paper_id = r.id ORDER BY c.id DESC OFFSET 0
            ) AS x
            ORDER BY r.id DESC, x.id DESC LIMIT :window"""
    if await _estimated(session, papers, bounds) <= PAPERS_BY_MEMBERSHIP:
        members = f"{matching} AND c.paper_id = ANY(ARRAY(SELECT p.id {papers}))"
        sql = f"SELECT c.id {members} ORDER BY c.id + 0 DESC LIMIT :window"
        params["newest_ids"] = await _without_index_scans(session, sql, params)
        return _NEWEST_IDS
    # A wide range: walk the claims newest first (past those after the range), or read
    # every match from the text index, whichever tests fewer rows.
    in_range = f"{matching} AND c.paper_id IN (SELECT p.id {papers})"
    after = 0.0
    if until is not None:
        later = await _estimated(session, "FROM papers p WHERE p.digest_date > :until", bounds)
        after = rows * later / max(await _rows(session, "papers"), 1.0)
    if matches * READ_COST < after + window * rows / max(matches, 1.0):
        return f"SELECT c.id {in_range} ORDER BY c.id + 0 DESC LIMIT :window"
    return f"SELECT c.id {in_range} ORDER BY c.id DESC LIMIT :window"


async def _estimated(session: AsyncSession, matching: str, params: dict[str, Any]) -> float:
    """PostgreSQL's estimate of the rows of `matching` (a FROM and WHERE): a fraction of a
    millisecond, from its statistics."""
    explained = await session.execute(
        bind(f"EXPLAIN (FORMAT JSON) SELECT 1 {matching}", params), params
    )
    plan = explained.scalar_one()
    return float((plan if isinstance(plan, list) else json.loads(plan))[0]["Plan"]["Plan Rows"])


async def _rows(session: AsyncSession, table: str) -> float:
    """The table's size as the planner knows it, kept on the connection for a minute: a
    `/paper` search and those of its "Did you mean" asked it up to six times, a round
    trip each, for a number that only an ingest changes."""
    known: dict[str, tuple[float, float]] = (await session.connection()).info.setdefault(
        "table_rows", {}
    )
    now = time.monotonic()
    if table not in known or now - known[table][1] > TABLE_ROWS_KEPT:
        sizes = await session.execute(
            text(
                "SELECT greatest(reltuples, 0) FROM pg_class WHERE oid = CAST(:table AS regclass)"
            ),
            {"table": table},
        )
        known[table] = (float(sizes.scalar_one() or 0), now)
    return known[table][0]


async def _without_index_scans(
    session: AsyncSession, sql: str, params: dict[str, Any]
) -> list[int]:
    """The ids `sql` selects, run with plain index scans off: PostgreSQL then combines
    the text index with another (bitmaps), instead of walking one testing each row."""
    await session.execute(text("SELECT set_config('enable_indexscan', 'off', true)"))
    # Not reset if the statement fails: a search past its time goes back to before it
    # (fulltext.search_budget), the setting with it.
    ids = [row[0] for row in await session.execute(bind(sql, params), params)]
    await session.execute(text("SELECT set_config('enable_indexscan', 'on', true)"))
    return ids
