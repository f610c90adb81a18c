"""Before `serve` answers, the pages searches read are warmed (storage/warming.py): after a
restart of the bot, of PostgreSQL or of the machine, the first searches no longer read them
from disk."""

from __future__ import annotations

import uuid

import asyncpg
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import text
from sqlalchemy.engine import URL

from jobs.ingest import ingest
from storage import db
from storage.warming import Relation, plan, warm_store
from tests.digests import SEEDS

# The tables searches read, with their TOAST and every index of either (written apart from
# the module's own query, which it checks).
_SEARCHED = """
    WITH t AS (SELECT oid, reltoastrelid FROM pg_class WHERE relname IN ('papers', 'claims'))
    SELECT sum(pg_relation_size(c.oid)) / current_setting('block_size')::int FROM pg_class c
    WHERE c.oid IN (SELECT oid FROM t) OR c.oid IN (SELECT reltoastrelid FROM t)
       OR c.oid IN (
           SELECT indexrelid FROM pg_index
           WHERE indrelid IN (SELECT oid FROM t) OR indrelid IN (SELECT reltoastrelid FROM t))
"""
_PAPERS_ROWS_AND_TOAST = """
    SELECT (pg_relation_size(oid) + pg_relation_size(reltoastrelid))
        / current_setting('block_size')::int
    FROM pg_class WHERE relname = 'papers'
"""


async def test_postgresql_reads_every_page_searches_read(postgres_url: URL) -> None:
    async with db.open_store(postgres_url) as sessions:
        report = await ingest(sessions, [SEEDS])
        assert not report.errors
        warmed = await warm_store(sessions)
        async with sessions() as session:
            searched = await session.scalar(text(_SEARCHED))
            papers = await session.scalar(text(_PAPERS_ROWS_AND_TOAST))
    assert not warmed.stopped
    assert papers and warmed.buffered == papers  # the seeds fit in the buffers' share
    assert warmed.buffered + warmed.read == searched
    assert str(warmed).startswith("store warmed in ")


async def test_a_role_that_may_not_create_pg_prewarm_is_told_why(postgres_url: URL) -> None:
    role = f"reader_{uuid.uuid4().hex[:8]}"
    async with db.open_store(postgres_url):  # the schema, made by its owner
        pass
    admin = await asyncpg.connect(postgres_url.set(drivername="postgresql").render_as_string(False))
    await admin.execute(f"CREATE ROLE {role} LOGIN")
    await admin.execute(f"GRANT SELECT ON ALL TABLES IN SCHEMA public TO {role}")
    try:
        async with db.open_store(postgres_url.set(username=role)) as sessions:
            warmed = await warm_store(sessions)
    finally:
        await admin.execute(f"DROP OWNED BY {role}; DROP ROLE {role}")
        await admin.close()
    assert (warmed.buffered, warmed.read) == (0, 0)
    assert str(warmed).startswith("store not warmed: pg_prewarm cannot be created: ")
    assert "permission denied" in str(warmed)


async def test_warming_stops_when_its_time_is_up(postgres_url: URL) -> None:
    async with db.open_store(postgres_url) as sessions:
        warmed = await warm_store(sessions, seconds=0)
    assert (warmed.buffered, warmed.read) == (0, 0)
    assert str(warmed) == "store not warmed: 0 s passed"


async def test_sqlite_is_left_to_the_page_cache(sqlite_url: URL) -> None:
    async with db.open_store(sqlite_url) as sessions:
        warmed = await warm_store(sessions)
    assert str(warmed) == "store not warmed: SQLite is read through the page cache"


_RELATIONS = st.lists(
    st.builds(
        Relation,
        name=st.uuids().map(str),
        table=st.sampled_from(["papers", "claims"]),
        kind=st.sampled_from("rti"),
        blocks=st.integers(0, 10_000),
    ),
    max_size=12,
)


@given(_RELATIONS, st.integers(0, 40_000))
def test_the_plan_reads_each_block_once_and_buffers_the_newest_papers(
    relations: list[Relation], shared_buffers: int
) -> None:
    steps = plan(relations, shared_buffers)
    for relation in relations:
        ranges = sorted((s.first, s.last) for s in steps if s.relation == relation.name)
        covered = [block for first, last in ranges for block in range(first, last + 1)]
        assert covered == list(range(relation.blocks))  # each block once, none outside
    buffered = [s for s in steps if s.mode == "buffer"]
    assert sum(s.last - s.first + 1 for s in buffered) <= shared_buffers * 3 // 4
    by_name = {r.name: r for r in relations}
    for step in buffered:
        relation = by_name[step.relation]
        assert relation.table == "papers" and relation.kind in "rt"
        assert step.last == relation.blocks - 1  # the newest blocks
    modes = [step.mode for step in steps]
    assert modes == sorted(modes)  # into the buffers first, then the page cache


def test_the_papers_rows_are_buffered_before_their_toast() -> None:
    relations = [
        Relation("papers_toast", "papers", "t", 300),
        Relation("claims", "claims", "r", 500),
        Relation("papers", "papers", "r", 100),
        Relation("fts_papers", "papers", "i", 50),
    ]
    assert [tuple(step) for step in plan(relations, 400)] == [
        ("papers", "buffer", 0, 99),
        ("papers_toast", "buffer", 100, 299),  # 300 of the 400 buffers: the newest 200
        ("papers_toast", "read", 0, 99),
        ("fts_papers", "read", 0, 49),
        ("claims", "read", 0, 499),
    ]
