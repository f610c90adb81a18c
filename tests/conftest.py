"""Shared fixtures: every storage test runs on a real SQLite file and a real PostgreSQL."""

from __future__ import annotations

import asyncio
import logging
import os
import re
import uuid
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import asyncpg
import pytest
from sqlalchemy.engine import URL, make_url
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession

from jobs.embedding import embed_pending
from jobs.ingest import ingest
from storage import db
from storage.embedders import HashEmbedder
from tests.digests import SEEDS
from tests.postgres import PostgresServer, start_for_test

DATABASES = ["sqlite", "postgresql"]


@pytest.fixture(scope="session", autouse=True)
def session_log(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Every log record of the whole run at DEBUG, unmasked: tests/test_secrets.py greps it."""
    path = tmp_path_factory.mktemp("logs") / "session.log"
    handler = logging.FileHandler(path, encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(levelname)s %(name)s %(message)s"))
    root, level = logging.getLogger(), logging.getLogger().level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    yield path
    root.removeHandler(handler)
    root.setLevel(level)
    handler.close()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tests marked `last` run after all others (they check what the others left behind)."""
    items.sort(key=lambda item: item.get_closest_marker("last") is not None)


@pytest.fixture(scope="session")
def postgres_server_url() -> Iterator[str]:
    """The URL of the session's PostgreSQL server (its `postgres` database)."""
    external = os.environ.get("PAPERBOT_TEST_POSTGRES_URL")
    if external:
        yield external
        return
    server = PostgresServer()
    url = start_for_test(server)
    try:
        yield url
    finally:
        server.stop()


def _asyncpg_dsn(url: URL) -> str:
    return url.set(drivername="postgresql").render_as_string(hide_password=False)


@pytest.fixture
async def postgres_url(postgres_server_url: str) -> AsyncIterator[URL]:
    """A fresh, empty PostgreSQL database for one test."""
    url = await _create_database(postgres_server_url, f"test_{uuid.uuid4().hex[:12]}")
    yield url
    admin = await asyncpg.connect(_asyncpg_dsn(make_url(postgres_server_url)))
    try:
        await admin.execute(f'DROP DATABASE "{url.database}" WITH (FORCE)')
    finally:
        await admin.close()


@pytest.fixture
def sqlite_url(tmp_path: os.PathLike[str]) -> URL:
    return make_url(f"sqlite+aiosqlite:///{tmp_path}/paperbot.db")


@pytest.fixture(params=DATABASES)
def database_url(request: pytest.FixtureRequest) -> URL:
    """An empty database of each kind in turn: the test runs once on each."""
    fixture = "sqlite_url" if request.param == "sqlite" else "postgres_url"
    url: URL = request.getfixturevalue(fixture)
    return url


@pytest.fixture
async def engine(database_url: URL) -> AsyncIterator[AsyncEngine]:
    """An engine on a migrated, empty database of each kind."""
    async with db.open_engine(database_url) as engine:
        await db.upgrade(engine)
        yield engine


@pytest.fixture
async def session(engine: AsyncEngine) -> AsyncIterator[AsyncSession]:
    async with db.session_factory(engine)() as session:
        yield session


_DATABASE_PARAM = re.compile(r"\[(?:[^\]]*-)?(sqlite|postgresql)(?:-[^\]]*)?\]")


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Say how many tests ran on each database, so a run shows both were exercised."""
    counts: Counter[tuple[str, str]] = Counter()
    for outcome in ("passed", "failed", "error", "skipped"):
        for report in terminalreporter.stats.get(outcome, []):
            match = _DATABASE_PARAM.search(getattr(report, "nodeid", ""))
            if match and (report.when == "call" or outcome != "passed"):
                counts[(match.group(1), outcome)] += 1
    if counts:
        terminalreporter.section("tests per database")
        for database in DATABASES:
            line = ", ".join(f"{n} {o}" for (d, o), n in sorted(counts.items()) if d == database)
            terminalreporter.write_line(f"{database}: {line or 'none'}")


async def _ingest_seeds(url: URL) -> None:
    async with db.open_engine(url) as engine:
        await db.upgrade(engine)
        report = await ingest(db.session_factory(engine), [SEEDS])
        assert not report.errors, report.errors
        # Vectors by the stand-in, as `paperbot ingest` makes them with PAPERBOT_EMBEDDER=hash.
        await embed_pending(db.session_factory(engine), HashEmbedder())


async def _create_database(server_url: str, name: str) -> URL:
    server = make_url(server_url)
    admin = await asyncpg.connect(_asyncpg_dsn(server))
    try:
        await admin.execute(f"CREATE DATABASE \"{name}\" TEMPLATE template0 ENCODING 'UTF8'")
    finally:
        await admin.close()
    return server.set(database=name)


@pytest.fixture(scope="session")
def seeded_sqlite_url(tmp_path_factory: pytest.TempPathFactory) -> URL:
    """A SQLite file holding the ingested seeds, shared by the tests that only read it."""
    url = make_url(f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('seeded')}/paperbot.db")
    asyncio.run(_ingest_seeds(url))
    return url


@pytest.fixture(scope="session")
def seeded_postgres_url(postgres_server_url: str) -> URL:
    """A PostgreSQL database holding the ingested seeds, shared by read-only tests."""
    url = asyncio.run(_create_database(postgres_server_url, "seeded"))
    asyncio.run(_ingest_seeds(url))
    return url


@pytest.fixture(params=DATABASES)
def seeded_url(request: pytest.FixtureRequest) -> URL:
    """The seeds, ingested, on each database in turn. Tests must not write to it."""
    url: URL = request.getfixturevalue(
        "seeded_sqlite_url" if request.param == "sqlite" else "seeded_postgres_url"
    )
    return url


@pytest.fixture
async def seeded(seeded_url: URL) -> AsyncIterator[AsyncSession]:
    """A session on the seeded database of each kind."""
    async with db.open_engine(seeded_url) as engine, db.session_factory(engine)() as session:
        yield session
