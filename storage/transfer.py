"""Export and import of the whole store as JSON lines, to move between SQLite and PostgreSQL.

The first line describes the export (format version and schema revision); every other line
is one row: `{"table": …, "row": {…}}`, tables in foreign-key order. Ids are kept, so the
ledger of summaries, the ingest history and every paper's first-ingested time survive the
move; full-text indexes are rebuilt by the target database as rows arrive, and search
vectors are not exported (`paperbot ingest` embeds them again).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterable, Iterator
from datetime import date, datetime
from typing import Any

from sqlalchemy import Date, Table, func, insert, select
from sqlalchemy.ext.asyncio import AsyncSession

from storage import dialect
from storage.models import Base, UTCDateTime

FORMAT = "paperbot-export"
VERSION = 1
BATCH = 1_000
MAX_DEPTH = 16  # of lists and objects in a row; the deepest column value is 3


class BadExport(ValueError):
    """The export cannot be imported; the message says where and why."""


# Derived from the other tables and large: vectors are embedded again after an import.
NOT_EXPORTED = frozenset({"item_vectors"})


def _tables() -> list[Table]:
    return [t for t in Base.metadata.sorted_tables if t.name not in NOT_EXPORTED]


def _encode(value: Any) -> Any:
    return value.isoformat() if isinstance(value, date | datetime) else value


def _decoder(table: Table) -> dict[str, Any]:
    """Column name → function turning its JSON value back into a Python value."""
    decoders: dict[str, Any] = {}
    for column in table.columns:
        if isinstance(column.type, UTCDateTime):
            decoders[column.name] = datetime.fromisoformat
        elif isinstance(column.type, Date):
            decoders[column.name] = date.fromisoformat
    return decoders


async def export_lines(session: AsyncSession, schema: list[str]) -> AsyncIterator[str]:
    """Every row of the store as JSON lines, read in one consistent snapshot."""
    await dialect.read_snapshot(session)
    header = {
        "format": FORMAT,
        "version": VERSION,
        "schema": schema,
        "tables": [t.name for t in _tables()],
    }
    yield json.dumps(header)
    for table in _tables():
        result = await session.stream(select(table).order_by(*table.primary_key.columns))
        async for row in result.mappings():
            line = {"table": table.name, "row": {k: _encode(v) for k, v in row.items()}}
            yield json.dumps(line, ensure_ascii=False)


async def is_empty(session: AsyncSession) -> bool:
    for table in _tables():
        if (await session.execute(select(func.count()).select_from(table))).scalar_one():
            return False
    return True


async def import_lines(
    session: AsyncSession, lines: Iterable[bytes], schema: list[str]
) -> dict[str, int]:
    """Insert every row of an export into an empty store; returns rows per table.
    Raises BadExport for a line that is not part of an export of this schema; the caller
    rolls the transaction back, so an import is all or nothing."""
    tables = {t.name: t for t in _tables()}
    decoders = {name: _decoder(t) for name, t in tables.items()}
    counts = dict.fromkeys(tables, 0)
    batch: list[dict[str, Any]] = []
    batch_table: str | None = None

    async def flush() -> None:
        if batch and batch_table is not None:
            await session.execute(insert(tables[batch_table]), batch)
            batch.clear()

    numbered = _numbered(lines)
    _check_header(next(numbered, (1, "")), schema)
    for number, text in numbered:
        if not text.strip():
            continue
        name, row = _row(number, text, tables)
        if name != batch_table or len(batch) >= BATCH:
            await flush()
            batch_table = name
        decode = decoders[name]
        try:
            batch.append(
                {k: decode[k](v) if k in decode and v is not None else v for k, v in row.items()}
            )
        except (TypeError, ValueError) as error:
            raise BadExport(f"line {number}: {error}") from None
        counts[name] += 1
    await flush()
    await dialect.reset_id_sequences(session, [t.name for t in tables.values() if "id" in t.c])
    return counts


def _numbered(lines: Iterable[bytes]) -> Iterator[tuple[int, str]]:
    """The lines as text, with their numbers; a line that is not UTF-8 is refused."""
    for number, raw in enumerate(lines, start=1):
        try:
            yield number, raw.decode("utf-8")
        except UnicodeDecodeError:
            raise BadExport(f"line {number}: not UTF-8 text") from None


def _json(number: int, text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError as error:
        raise BadExport(f"line {number}: not JSON ({error})") from None
    except RecursionError:  # the JSON parser recurses once per level
        raise BadExport(f"line {number}: JSON nested too deeply") from None


def _check_header(first: tuple[int, str], schema: list[str]) -> None:
    try:
        header = _json(*first)
    except BadExport:
        header = None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise BadExport("line 1: not a paperbot export (made by `paperbot export`)")
    if header.get("version") != VERSION or header.get("schema") != schema:
        raise BadExport(
            f"line 1: the export is of schema {header.get('schema')}, this paperbot's is "
            f"{schema}: import it with the paperbot version that made it, then upgrade"
        )


def _row(number: int, text: str, tables: dict[str, Table]) -> tuple[str, dict[str, Any]]:
    line = _json(number, text)
    name = line.get("table") if isinstance(line, dict) else None
    row = line.get("row") if isinstance(line, dict) else None
    if name not in tables or not isinstance(row, dict):
        raise BadExport(f"line {number}: not a row of a paperbot table")
    unknown = set(row) - set(tables[name].c.keys())
    if unknown:
        raise BadExport(f"line {number}: {name} has no column {sorted(unknown)[0]!r}")
    if _too_deep(row):
        raise BadExport(f"line {number}: JSON nested too deeply")
    return name, row


def _too_deep(value: Any) -> bool:
    """Whether `value` nests deeper than any column holds (lists of flat objects), which
    would only exhaust the stack of whatever encodes it later."""
    pending = [(value, 0)]
    while pending:
        item, depth = pending.pop()
        if isinstance(item, dict | list):
            if depth == MAX_DEPTH:
                return True
            pending.extend(
                (v, depth + 1) for v in (item.values() if isinstance(item, dict) else item)
            )
    return False
