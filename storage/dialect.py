"""What differs between SQLite and PostgreSQL outside search (storage/fulltext.py): locks,
snapshots, sequences and bulk inserts. Any other database fails loudly in `backend`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from sqlalchemy import BigInteger, ColumnElement, Connection, Table, any_, bindparam, text
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import QueryableAttribute

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


def id_in(
    bind: AsyncSession | Connection, column: QueryableAttribute[int], ids: Sequence[int]
) -> ColumnElement[bool]:
    """`column IN ids` for up to a few thousand ids. PostgreSQL takes them as one array:
    as a thousand parameters, binding and planning them cost twice the statement's run."""
    if backend(bind) == "postgresql":
        return column == any_(bindparam(None, list(ids), type_=ARRAY(BigInteger)))
    return column.in_(list(ids))


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


async def insert_many(
    session: AsyncSession, table: Table, columns: Sequence[str], rows: Sequence[Sequence[Any]]
) -> None:
    """Insert plain rows (values in the order of `columns`) the fastest way each store has.

    SQLite: the rows go into a temporary table of the connection's own, then into the table
    in one `INSERT … SELECT`. FTS5 flushes its pending terms at the end of every statement
    that writes the full-text index (here through the table's insert trigger), and each
    flush is an index segment to merge: one INSERT a row was 7x slower, and multi-row
    `INSERT … VALUES` statements of 2048, 1024, … rows cost SQLite a tenth more of its time
    than this. (One `VALUES` statement of all the rows is as fast, but the driver keeps
    each statement it ran, with a copy of the text bound to it, and each file's count of
    rows makes a statement of its own: about 200 MB more at 10,000 papers.)
    PostgreSQL: COPY, on the session's connection and so in its transaction: the server
    parses no statement per row (a third less time than asyncpg's `executemany`). The
    values must be of the columns' types (COPY's binary format converts nothing).
    """
    if not rows:
        return
    connection = await session.connection()
    if backend(session) == "postgresql":
        raw = (await connection.get_raw_connection()).driver_connection
        assert raw is not None  # an asyncpg connection
        await raw.copy_records_to_table(table.name, records=rows, columns=list(columns))
        return
    names = ", ".join(columns)
    staging = f"{table.name}_to_insert"
    await connection.exec_driver_sql(
        f"CREATE TEMP TABLE IF NOT EXISTS {staging} AS SELECT {names} FROM {table.name} WHERE 0"
    )
    places = ", ".join("?" * len(columns))
    await connection.exec_driver_sql(f"INSERT INTO temp.{staging} VALUES ({places})", [*rows])
    await connection.exec_driver_sql(
        f"INSERT INTO {table.name} ({names}) SELECT {names} FROM temp.{staging}"
    )
    await connection.exec_driver_sql(f"DELETE FROM temp.{staging}")


# PostgreSQL's full-text (GIN) indexes collect new entries in a pending list and merge it
# into the index whenever it outgrows `gin_pending_list_limit` (4 MB by default): every
# file or two of a bulk load. A larger list while ingest writes merges less often, in
# bigger sorted batches (claims store in a third less time); `merge_pending_index_entries`
# merges what is left once the ingest ends, so searches never scan a large pending list.
_INGEST_GIN_PENDING_LIST = "64MB"
_GIN_INDEXES = ("fts_claims", "fts_papers")


async def prepare_ingest_write(session: AsyncSession) -> None:
    """Settings for the rest of an ingest transaction that stores a file."""
    if backend(session) == "postgresql":
        await session.execute(
            text(f"SET LOCAL gin_pending_list_limit = '{_INGEST_GIN_PENDING_LIST}'")
        )


async def merge_pending_index_entries(session: AsyncSession) -> None:
    """After an ingest: PostgreSQL merges the full-text indexes' pending entries now (one
    bulk merge) rather than leave them for autovacuum, scanned by every search meanwhile."""
    if backend(session) == "postgresql":
        for index in _GIN_INDEXES:
            await session.execute(text(f"SELECT gin_clean_pending_list('{index}'::regclass)"))


async def refresh_statistics(session: AsyncSession) -> None:
    """After an ingest stored something: PostgreSQL's planner reads the new rows' statistics
    now rather than once autovacuum gets to them. Without them it guesses a date range
    (`since:` and `until:` together) holds 0.5% of the papers, and plans a search that
    finds every claim of a common word paper by paper: seconds instead of milliseconds."""
    if backend(session) == "postgresql":
        await session.execute(text("ANALYZE papers, claims"))


def check_foreign_keys(connection: Connection) -> None:
    """After a migration on SQLite (run with foreign keys off): nothing may dangle."""
    if backend(connection) == "sqlite":
        broken = connection.exec_driver_sql("PRAGMA foreign_key_check").all()
        if broken:
            raise RuntimeError(f"migration left rows with broken foreign keys: {broken[:5]}")
