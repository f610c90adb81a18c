"""Alembic environment: runs on the connection `storage.db.upgrade` hands over, or, for
developers running `alembic` directly, on `PAPERBOT_DATABASE_URL`."""

from __future__ import annotations

import asyncio
import os

from alembic import context
from sqlalchemy import Connection
from sqlalchemy.ext.asyncio import create_async_engine

from storage.models import Base, is_hand_written

target_metadata = Base.metadata


def include_name(name: str | None, type_: str, parent_names: object) -> bool:
    return not is_hand_written(name)


def run_on(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",  # SQLite's ALTER is limited
        compare_type=True,
        include_name=include_name,
    )
    with context.begin_transaction():
        context.run_migrations()


async def run_standalone() -> None:
    url = os.environ.get("PAPERBOT_DATABASE_URL", "sqlite+aiosqlite:///var/paperbot.db")
    engine = create_async_engine(url)
    async with engine.begin() as connection:
        await connection.run_sync(run_on)
    await engine.dispose()


connection = context.config.attributes.get("connection")
if connection is not None:
    run_on(connection)
else:
    asyncio.run(run_standalone())
