"""SQL is written for SQLite and PostgreSQL only: any other database is refused by name,
and what each store does its own way (a bulk insert) comes out the same on both."""

from __future__ import annotations

from typing import cast

import pytest
from asyncpg import UniqueViolationError
from sqlalchemy import Connection, create_mock_engine, select, text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from storage import dialect, fulltext
from storage.loading import CLAIMS
from storage.models import Claim, Paper
from storage.search import search_claims
from storage.search_text import index_text


async def test_each_supported_store_is_named(session: AsyncSession) -> None:
    assert dialect.backend(session) == session.get_bind().dialect.name


def test_a_third_database_fails_loudly() -> None:
    mysql = cast(Connection, create_mock_engine("mysql://", lambda *_, **__: None))
    with pytest.raises(dialect.UnsupportedDatabase, match="SQLite or PostgreSQL, not mysql"):
        dialect.backend(mysql)


async def test_postgresql_compiles_no_statement_to_machine_code(session: AsyncSession) -> None:
    """A common word's search passes PostgreSQL's cost threshold for JIT at 100,000 papers:
    20-50 ms of compiling for a statement that runs in a few."""
    if dialect.backend(session) != "postgresql":
        pytest.skip("JIT is PostgreSQL's")
    assert (await session.execute(text("SHOW jit"))).scalar_one() == "off"


async def test_a_search_on_postgresql_never_scans_a_whole_table(session: AsyncSession) -> None:
    """The planner prices a table scan without the text stored apart (TOAST), which each
    row's test of the words reads: 70 ms at 10,000 papers against 7 ms from the index."""
    if dialect.backend(session) != "postgresql":
        pytest.skip("planner settings are PostgreSQL's")
    async with fulltext.search_budget(session, 1.0):
        assert (await session.execute(text("SHOW enable_seqscan"))).scalar_one() == "off"


async def test_claims_inserted_in_bulk_are_stored_in_order_and_searchable(
    session: AsyncSession,
) -> None:
    """Two inserts in one transaction, a failed one rolled back between: each stores its
    rows in order and indexes them, and nothing of the failed one is left to the next."""
    paper = Paper(key="arxiv:2601.00001", kind="huggingface", title="Bulk")
    session.add(paper)
    await session.flush()
    paper_id = paper.id
    columns = ("paper_id", "number", "text_zh", "quote_en", "source", "search_text")

    def rows(numbers: range, word: str) -> list[tuple[int, int, str, str, str, str]]:
        quotes = {n: f"{word} result {n}" for n in numbers}
        return [(paper_id, n, "", q, "review", index_text(q)) for n, q in quotes.items()]

    await dialect.insert_many(session, CLAIMS, columns, rows(range(1, 301), "alpha"))
    await dialect.insert_many(session, CLAIMS, columns, rows(range(301, 311), "beta"))
    await session.commit()
    # Numbers 305-310 are taken. (COPY's error on PostgreSQL is the driver's own.)
    with pytest.raises((IntegrityError, UniqueViolationError)):
        await dialect.insert_many(session, CLAIMS, columns, rows(range(305, 400), "x"))
    await session.rollback()
    await dialect.insert_many(session, CLAIMS, columns, rows(range(311, 313), "gamma"))
    await session.commit()

    stored = (await session.execute(select(Claim.number).order_by(Claim.id))).scalars().all()
    assert stored == list(range(1, 313))
    assert (await search_claims(session, "beta", all_but_one=False)).total == 10
    assert (await search_claims(session, "gamma", all_but_one=False)).total == 2
    if dialect.backend(session) == "sqlite":  # the full-text index agrees with its rows
        await session.execute(text("INSERT INTO claims_fts(claims_fts) VALUES ('integrity-check')"))
