"""The SQL a session's engine runs, as tests that count statements see it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncSession

Statement = tuple[str, object]  # the SQL as the driver gets it, and its parameters


@asynccontextmanager
async def statements_run(session: AsyncSession) -> AsyncIterator[list[Statement]]:
    """Every statement the session's engine runs inside the block, in order."""
    seen: list[Statement] = []

    def keep(
        _conn: object, _cursor: object, statement: str, parameters: object, *_: object
    ) -> None:
        seen.append((statement, parameters))

    engine = (await session.connection()).engine.sync_engine
    event.listen(engine, "before_cursor_execute", keep)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", keep)
