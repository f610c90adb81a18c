"""SQL is written for SQLite and PostgreSQL only: any other database is refused by name."""

from __future__ import annotations

from typing import cast

import pytest
from sqlalchemy import Connection, create_mock_engine, text
from sqlalchemy.ext.asyncio import AsyncSession

from storage import dialect, fulltext


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
