"""Reading what searches read into memory before the bot serves, so that the first searches
after a restart (of the bot, of PostgreSQL or of the machine) do not wait for the disk.

On PostgreSQL, at 100,000 papers with 1 GB of shared buffers, the benchmark's first pass of
searches had a p99 of 299 ms for `/paper` once the machine's page cache was emptied, and
186-233 ms for its slowest searches right after an ingest, against 50-80 ms on a second
pass. Those searches read the rows of thousands of claims, and the search vector of every
paper matching a phrase (`loco-manipulation`), which PostgreSQL keeps apart (TOAST) and
reads again to check word order.

So the tables searches read (papers and claims: rows, TOAST, indexes) are read into the
page cache, and the papers' rows and search vectors, newest first, into PostgreSQL's own
buffers, up to three quarters of them. At 100,000 papers that took 3 s from a cold disk
and 1.2 s from the page cache. It takes pg_prewarm, a contrib module PostgreSQL ships:
created here when the role may (deploy/docker-compose.yml's may); otherwise nothing is
warmed and the log says why. A store larger than `seconds` allows is warmed that far.

SQLite is left to the page cache: from a cold one, searches at 10,000 papers still met
their target.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import NamedTuple

from sqlalchemy import text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncSession

from storage import dialect
from storage.db import Sessions

WARM_SECONDS = 30.0
_TABLES = ("papers", "claims")  # the order they are read in
_BUFFERED = "papers"  # its rows and TOAST go into shared buffers as well
_BUFFER_SHARE = 0.75  # of shared buffers: the rest stays for what searches read next
_KIND_ORDER = "rti"  # rows, TOAST, indexes: what the slowest searches read most first


class Relation(NamedTuple):
    name: str
    table: str  # which of _TABLES it belongs to
    kind: str  # pg_class.relkind: "r" rows, "t" TOAST, "i" index
    blocks: int


class Prewarm(NamedTuple):
    """One call of pg_prewarm: blocks `first` to `last` of a relation, into PostgreSQL's
    buffers ("buffer") or only into the page cache ("read")."""

    relation: str
    mode: str
    first: int
    last: int


def plan(relations: list[Relation], shared_buffers: int) -> list[Prewarm]:
    """The calls that warm `relations`, given the server's shared buffers (in blocks)."""
    relations = sorted(
        (r for r in relations if r.blocks),
        key=lambda r: (_TABLES.index(r.table), _KIND_ORDER.index(r.kind)),
    )
    budget = int(shared_buffers * _BUFFER_SHARE)
    buffered, read = [], []
    for relation in relations:
        last = relation.blocks - 1
        buffered_here = relation.table == _BUFFERED and relation.kind != "i"
        take = min(relation.blocks, budget) if buffered_here else 0
        if take:  # the newest rows are at the end, and searches show the newest first
            buffered.append(Prewarm(relation.name, "buffer", relation.blocks - take, last))
            budget -= take
        if take < relation.blocks:
            read.append(Prewarm(relation.name, "read", 0, last - take))
    return buffered + read


_RELATIONS = text(
    """
    SELECT r.oid::regclass::text, t.relname, r.relkind::text, pg_relation_size(r.oid) / :block
    FROM pg_class t
    JOIN pg_class r ON r.oid IN (t.oid, t.reltoastrelid) OR r.oid IN (
        SELECT indexrelid FROM pg_index WHERE indrelid IN (t.oid, t.reltoastrelid)
    )
    WHERE t.oid IN ({})
    """.format(", ".join(f"to_regclass('{table}')" for table in _TABLES))
)


@dataclass
class Warmed:
    """What warming did: blocks read into PostgreSQL's buffers and into the page cache only."""

    buffered: int = 0
    read: int = 0
    block: int = 8192  # bytes
    seconds: float = 0.0
    stopped: str = ""  # why it warmed nothing, or stopped early

    def __str__(self) -> str:
        if not (self.buffered or self.read) and self.stopped:
            return f"store not warmed: {self.stopped}"
        megabytes = self.block / 1024**2
        return (
            f"store warmed{f' in part ({self.stopped})' if self.stopped else ''} in "
            f"{self.seconds:.1f} s: {self.buffered * megabytes:,.0f} MB into PostgreSQL's "
            f"buffers, {self.read * megabytes:,.0f} MB into the page cache"
        )


async def warm_store(sessions: Sessions, seconds: float = WARM_SECONDS) -> Warmed:
    """Warm the store's caches for searching, within `seconds`."""
    started = time.monotonic()
    async with sessions.begin() as session:
        if dialect.backend(session) != "postgresql":
            return Warmed(stopped="SQLite is read through the page cache")
        why_not = await _prewarm_available(session)
        if why_not:
            return Warmed(stopped=why_not)
        block = int(await session.scalar(text("SELECT current_setting('block_size')")) or 0)
        buffers = await session.scalar(
            text("SELECT setting::bigint FROM pg_settings WHERE name = 'shared_buffers'")
        )
        rows = await session.execute(_RELATIONS, {"block": block})
        steps = plan([Relation(*row) for row in rows], int(buffers or 0))
    warmed = Warmed(block=block)
    for step in steps:
        left = seconds - (time.monotonic() - started)
        if left <= 0:
            warmed.stopped = f"{seconds:g} s passed"
            break
        blocks = await _prewarm(sessions, step, left)
        if isinstance(blocks, str):
            warmed.stopped = blocks
            break
        if step.mode == "buffer":
            warmed.buffered += blocks
        else:
            warmed.read += blocks
    warmed.seconds = time.monotonic() - started
    return warmed


async def _prewarm_available(session: AsyncSession) -> str:
    """Why pg_prewarm cannot be called, or "" when it can (created now if need be)."""
    if await session.scalar(text("SELECT to_regproc('pg_prewarm') IS NOT NULL")):
        return ""
    try:
        async with session.begin_nested():
            await session.execute(text("CREATE EXTENSION IF NOT EXISTS pg_prewarm"))
    except DBAPIError as error:  # no right to create it, or not installed
        return f"pg_prewarm cannot be created: {_message(error)}"
    return ""


async def _prewarm(sessions: Sessions, step: Prewarm, seconds: float) -> int | str:
    """Run one step within `seconds`: the blocks pg_prewarm read, or why it stopped."""
    async with sessions() as session:
        try:
            async with session.begin():
                await session.execute(_TIMEOUT, {"timeout": f"{max(1, int(seconds * 1000))}ms"})
                return int(await session.scalar(_PREWARM, step._asdict()) or 0)
        except DBAPIError as error:  # the time is up, or the relation is gone
            return _message(error)


_TIMEOUT = text("SELECT set_config('statement_timeout', :timeout, true)")
_PREWARM = text("SELECT pg_prewarm(CAST(:relation AS regclass), :mode, 'main', :first, :last)")


def _message(error: DBAPIError) -> str:
    return str(error.orig).strip().splitlines()[-1]
