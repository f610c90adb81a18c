"""Engines, sessions and migrations. Callers own their transactions."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from sqlalchemy import Connection, event, inspect, text
from sqlalchemy.engine import URL
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)
from sqlalchemy.util import await_only

from storage import dialect

if TYPE_CHECKING:
    from alembic.config import Config

Sessions = async_sessionmaker[AsyncSession]  # how the rest of paperbot reaches the store

MIGRATIONS = Path(__file__).parent / "migrations"
# The newest migration's revision (tests check it against Alembic's scripts): a store at it
# opens without Alembic, whose import and reading of every script cost every command, the
# load included, about a quarter of a second.
SCHEMA_HEAD = "0013"
SQLITE_BUSY_TIMEOUT_MS = 30_000


def missing_file(url: URL) -> Path | None:
    """The SQLite file `url` names, when it does not exist (opening it would create it)."""
    if url.get_backend_name() != "sqlite" or url.database in (None, "", ":memory:"):
        return None
    path = Path(url.database)
    return None if path.exists() else path


def create_engine(url: URL) -> AsyncEngine:
    """An async engine; for SQLite the file's folder is created and the pragmas set."""
    if url.get_backend_name() != "sqlite":
        # PostgreSQL compiles a statement to machine code (JIT) once its estimated cost
        # passes `jit_above_cost`, as a common word's search does at 100,000 papers: 20-50
        # ms of compiling for statements that run in a few. Ours are all short.
        no_jit = {"server_settings": {"jit": "off"}}
        return create_async_engine(url, pool_pre_ping=True, connect_args=no_jit)
    if url.database and url.database != ":memory:":
        Path(url.database).parent.mkdir(parents=True, exist_ok=True)
    engine = create_async_engine(url)
    event.listen(engine.sync_engine, "connect", _sqlite_on_connect)
    event.listen(engine.sync_engine, "begin", _sqlite_on_begin)
    return engine


def _sqlite_on_connect(dbapi_connection: Any, _record: Any) -> None:
    # Let SQLAlchemy emit BEGIN itself (below) rather than the driver, which would
    # otherwise start transactions late and break transactional DDL in migrations.
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    for pragma in (
        # Set before the first table of a new file, then fixed: 8 KiB pages take the
        # full-text index's writes in fewer pages (a tenth less of the writer's CPU).
        "page_size=8192",
        f"busy_timeout={SQLITE_BUSY_TIMEOUT_MS}",
        "foreign_keys=ON",
        "synchronous=NORMAL",  # durable with WAL except on power loss of the last commit
        "cache_size=-65536",  # 64 MiB of page cache: full-text index writes stay in memory
    ):
        cursor.execute(f"PRAGMA {pragma}")
    _switch_to_wal(cursor)  # readers never wait for the ingest writer
    cursor.close()


def _switch_to_wal(cursor: Any) -> None:
    """Switching a new file to WAL takes its exclusive lock, and while another command
    opening the same new store holds a lock on it, SQLite answers "database is locked" at
    once, without its busy timeout: the switch is tried again until that timeout."""
    deadline = time.monotonic() + SQLITE_BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or time.monotonic() > deadline:
                raise
        await_only(asyncio.sleep(0.01))  # the event loop goes on meanwhile


def _sqlite_on_begin(connection: Connection) -> None:
    connection.exec_driver_sql(connection.get_execution_options().get("sqlite_begin", "BEGIN"))


def session_factory(engine: AsyncEngine) -> Sessions:
    return async_sessionmaker(engine, expire_on_commit=False)


T = TypeVar("T")


async def once_a_session(
    session: AsyncSession, key: Hashable, read: Callable[[], Awaitable[T]]
) -> T:
    """What `read` returns, read once in the session under `key`: a command's searches (its
    own, and the one each "Did you mean" it checks runs) ask the same of the same filters,
    and a command's session lives as long as it does. Only for reads the session does
    not change by writing."""
    kept: dict[Hashable, Any] = session.info.setdefault("read once", {})
    if key not in kept:
        kept[key] = await read()
    result: T = kept[key]
    return result


@asynccontextmanager
async def writing(sessions: Sessions) -> AsyncIterator[AsyncSession]:
    """A transaction that reads and then writes, committed at the end; one at a time.

    On SQLite it takes the write lock when it begins (BEGIN IMMEDIATE), so a second writer
    waits its turn (busy timeout) instead of failing: with a plain BEGIN, a transaction that
    read first cannot write once another writer has committed. Readers never wait (WAL).
    On PostgreSQL an advisory lock does the same across replicas, so two of them ingesting
    the same new file, or claiming the same summary, do it one after the other.
    """
    async with sessions() as session:
        await session.connection(execution_options={"sqlite_begin": "BEGIN IMMEDIATE"})
        await dialect.take_writer_turn(session)
        try:
            yield session
        except BaseException:
            await session.rollback()
            raise
        await session.commit()


@asynccontextmanager
async def open_engine(url: URL) -> AsyncIterator[AsyncEngine]:
    engine = create_engine(url)
    try:
        yield engine
    finally:
        await engine.dispose()


@asynccontextmanager
async def open_store(url: URL) -> AsyncIterator[Sessions]:
    """The store at `url`, migrated to the current schema, as a session factory."""
    async with open_engine(url) as engine:
        await upgrade(engine)
        yield session_factory(engine)


def _alembic_config(connection: Connection | None = None) -> Config:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    return config


def _upgrade(connection: Connection) -> None:
    from alembic import command

    dialect.lock_for_migrations(connection)
    command.upgrade(_alembic_config(connection), "head")
    dialect.check_foreign_keys(connection)


async def upgrade(engine: AsyncEngine) -> None:
    """Apply every pending migration in one transaction; a no-op when the schema is current."""
    async with engine.connect() as connection:
        if await connection.run_sync(_current_revisions) == {SCHEMA_HEAD}:
            return
        await connection.rollback()  # the check's transaction: the upgrade runs in its own
        # SQLite rebuilds a table to alter it; with foreign keys on, dropping the old copy
        # would cascade-delete the rows that point at it. The switch only works outside a
        # transaction, so it is set on the driver's connection before ours begins.
        raw = (await connection.get_raw_connection()).driver_connection
        assert raw is not None
        sqlite = connection.dialect.name == "sqlite"
        if sqlite:
            await raw.execute("PRAGMA foreign_keys=OFF")
        try:
            # Holding the write lock from the start: two commands opening one new store
            # migrate in turn, where a transaction that read first could not write once
            # the other had (SQLite answers "database is locked" at once then).
            await connection.execution_options(sqlite_begin="BEGIN IMMEDIATE")
            async with connection.begin():
                await connection.run_sync(_upgrade)
        finally:
            if sqlite:
                await raw.execute("PRAGMA foreign_keys=ON")


def _current_revisions(connection: Connection) -> set[str]:
    """The revisions the store is at, as Alembic records them; none for a new store."""
    if not inspect(connection).has_table("alembic_version"):
        return set()
    return set(connection.execute(text("SELECT version_num FROM alembic_version")).scalars())


def schema_heads() -> list[str]:
    """The schema revision this version of paperbot migrates to."""
    return [SCHEMA_HEAD]


def migration_heads() -> list[str]:
    """The heads of Alembic's migration scripts, which SCHEMA_HEAD must name."""
    from alembic.script import ScriptDirectory

    return sorted(ScriptDirectory.from_config(_alembic_config()).get_heads())


async def schema_is_current(engine: AsyncEngine) -> bool:
    async with engine.connect() as connection:
        current = await connection.run_sync(_current_revisions)
    return current == {SCHEMA_HEAD}


async def ping(sessions: Sessions) -> str:
    """Ask the database for `SELECT 1`; returns its dialect name."""
    async with sessions() as session:
        await session.execute(text("SELECT 1"))
        return session.get_bind().dialect.name
