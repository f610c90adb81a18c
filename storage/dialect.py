"""What differs between SQLite and PostgreSQL outside search (storage/fulltext.py): locks,
snapshots, sequences and bulk inserts. Any other database fails loudly in `backend`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from sqlalchemy import Connection, Table, insert, text
from sqlalchemy.ext.asyncio import AsyncSession

Backend = Literal["sqlite", "postgresql"]


class UnsupportedDatabase(RuntimeError):
    """paperbot's SQL is written for SQLite and PostgreSQL only."""


def backend(bind: AsyncSession | Connection) -> Backend:
    """Which of the two supported stores `bind` talks to; any other raises, so a third
    database never runs SQL written for one of them."""
    name = (bind.get_bind() if isinstance(bind, AsyncSession) else bind).dialect.name
    if name == "sqlite":
        return "sqlite"
    if name == "postgresql":
        return "postgresql"
    raise UnsupportedDatabase(f"paperbot runs on SQLite or PostgreSQL, not {name}")


# An arbitrary constant shared by every replica: "paperbot migrations".
_MIGRATION_LOCK_ID = 0x7061706572
_WRITER_LOCK_ID = 0x7061706573


def lock_for_migrations(connection: Connection) -> None:
    """Serialise migrations between replicas starting at once (PostgreSQL).

    SQLite needs nothing: its write lock already serialises the migrating transactions.
    """
    if backend(connection) == "postgresql":
        connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({_MIGRATION_LOCK_ID})")


async def take_writer_turn(session: AsyncSession) -> None:
    """Writing transactions take turns across processes and replicas until they end:
    PostgreSQL's transaction-level advisory lock does what BEGIN IMMEDIATE does on SQLite."""
    if backend(session) == "postgresql":
        await session.execute(text(f"SELECT pg_advisory_xact_lock({_WRITER_LOCK_ID})"))


async def read_snapshot(session: AsyncSession) -> None:
    """Make the session's transaction read one consistent snapshot of the whole store.
    SQLite's read transactions already do (WAL); PostgreSQL needs REPEATABLE READ."""
    if backend(session) == "postgresql":
        await session.connection(execution_options={"isolation_level": "REPEATABLE READ"})


async def reset_id_sequences(session: AsyncSession, tables: list[str]) -> None:
    """After rows were inserted with their ids: new rows continue after the largest id.
    SQLite does this by itself; PostgreSQL's sequences must be told."""
    if backend(session) != "postgresql":
        return
    for table in tables:
        await session.execute(
            text(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                f"coalesce(max(id), 1), max(id) IS NOT NULL) FROM {table}"
            )
        )


# Rows in one multi-row INSERT on SQLite: a power of two (see insert_many), far below the
# 32,766 parameters SQLite (3.32+) takes in one statement.
_SQLITE_ROWS_PER_INSERT = 2048


async def insert_many(
    session: AsyncSession, table: Table, columns: Sequence[str], rows: Sequence[Sequence[Any]]
) -> None:
    """Insert plain rows (values in the order of `columns`) the fastest way each store has.

    SQLite: multi-row `INSERT … VALUES (…), (…)` statements, written out here (SQLAlchemy
    would compile a bind parameter object for every value). One statement per row costs
    far more, as the full-text index's insert trigger flushes FTS5's pending terms at the
    end of every statement: each row became an index segment to merge (7x slower).
    Statements hold 2048, 1024, …, 1 rows, so that the driver's cache of prepared
    statements (large ones, for many rows) holds a dozen shapes, not one for every count.
    PostgreSQL: asyncpg's prepared `executemany`.
    """
    if not rows:
        return
    if backend(session) != "sqlite":
        await session.execute(insert(table), [dict(zip(columns, row, strict=True)) for row in rows])
        return
    connection = await session.connection()
    head = f"INSERT INTO {table.name} ({', '.join(columns)}) VALUES "
    one = "(" + ", ".join("?" * len(columns)) + ")"
    start = 0
    while start < len(rows):
        count = min(_SQLITE_ROWS_PER_INSERT, 1 << ((len(rows) - start).bit_length() - 1))
        chunk = rows[start : start + count]
        values = tuple(value for row in chunk for value in row)
        await connection.exec_driver_sql(head + ", ".join([one] * count), values)
        start += count


def check_foreign_keys(connection: Connection) -> None:
    """After a migration on SQLite (run with foreign keys off): nothing may dangle."""
    if backend(connection) == "sqlite":
        broken = connection.exec_driver_sql("PRAGMA foreign_key_check").all()
        if broken:
            raise RuntimeError(f"migration left rows with broken foreign keys: {broken[:5]}")
