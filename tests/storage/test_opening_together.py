"""Commands that open a store that does not exist yet at the same moment: the first deploy,
when `serve`'s first scan, a cron `ingest` and an operator's command start together."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from sqlalchemy import text
from sqlalchemy.engine import make_url

from storage import db


async def test_opening_a_new_file_another_command_is_creating_waits_its_turn(
    tmp_path: Path,
) -> None:
    """Switching a new file to WAL takes its exclusive lock, and while another command
    holds the file's write lock (creating it), SQLite refuses the switch at once, without
    its busy timeout. Opening the store waits instead, the event loop going on meanwhile,
    and then opens it in WAL mode."""
    path = tmp_path / "new.db"
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # the other command, in the middle of creating the file
    ticks = 0

    async def tick() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.01)
            ticks += 1

    async def open_store() -> str:
        async with db.open_engine(make_url(f"sqlite+aiosqlite:///{path}")) as engine:
            await db.upgrade(engine)
            async with engine.connect() as connection:
                return str((await connection.execute(text("PRAGMA journal_mode"))).scalar_one())

    ticking = asyncio.create_task(tick())
    opening = asyncio.create_task(open_store())
    await asyncio.sleep(0.5)
    assert not opening.done(), "the store opened under another command's write lock"
    other.execute("COMMIT")
    other.close()
    assert await asyncio.wait_for(opening, 10) == "wal"
    ticking.cancel()
    assert ticks >= 20  # the loop was not held while the opener waited
