"""Recompute the stored search text of every paper and claim, for a new tokenizer (and
the papers' lookup keys, for a new normalisation or a new key).

Rows are read in batches in id order, so a store of millions of claims never holds more
than a batch in memory, and a row is written only when its search text changes. Each
store's index follows its rows: SQLite's FTS5 tables through their update triggers
(migration 0002), PostgreSQL's generated `search_fts` columns (0004) by themselves.
"""

from __future__ import annotations

from collections.abc import Callable

import sqlalchemy as sa

from storage import lookup_keys, paper_keys
from storage.loading import SEARCH_BODY, SEARCH_HEAD

PAPERS_PER_BATCH = 500  # a paper's text runs to tens of kilobytes
CLAIMS_PER_BATCH = 5_000

Tokenizer = Callable[..., str]
EVERY_ROW = sa.true()


def recompute_search_text(
    bind: sa.Connection, tokenize: Tokenizer, *, holding: tuple[str, ...] = ()
) -> None:
    """Write `tokenize`'s search text into every paper and claim (those whose search text
    holds one of `holding`, if given), in this transaction."""
    papers = sa.table(
        "papers",
        sa.column("id"),
        sa.column("search_head"),
        sa.column("search_body"),
        *(sa.column(name) for name in SEARCH_HEAD + SEARCH_BODY),
    )
    _in_batches(
        bind,
        papers,
        PAPERS_PER_BATCH,
        lambda row: {
            "search_head": tokenize(*(row[name] for name in SEARCH_HEAD)),
            "search_body": tokenize(*(row[name] for name in SEARCH_BODY)),
        },
        where=_holding(holding, papers.c.search_head, papers.c.search_body),
    )
    claims = sa.table(
        "claims",
        sa.column("id"),
        sa.column("text_zh"),
        sa.column("quote_en"),
        sa.column("search_text"),
    )
    _in_batches(
        bind,
        claims,
        CLAIMS_PER_BATCH,
        lambda row: {"search_text": tokenize(row["text_zh"], row["quote_en"])},
        where=_holding(holding, claims.c.search_text),
    )


def _holding(characters: tuple[str, ...], *columns: sa.ColumnClause[str]) -> sa.ColumnElement[bool]:
    """Rows whose `columns` hold one of `characters`; every row if there are none."""
    if not characters:
        return EVERY_ROW
    return sa.or_(*(column.contains(c) for column in columns for c in characters))


def recompute_paper_keys(bind: sa.Connection) -> None:
    """Write the title and name lookup keys of every paper as ingest computes them
    (storage/lookup_keys.py), in this transaction."""
    papers = sa.table(
        "papers",
        sa.column("id"),
        sa.column("title"),
        sa.column("name"),
        sa.column("title_key"),
        sa.column("name_key"),
    )
    _in_batches(
        bind,
        papers,
        PAPERS_PER_BATCH,
        lambda row: lookup_keys.stored_keys(row["name"], row["title"]),
        columns=["title_key", "name_key"],
    )


def recompute_abstract_keys(bind: sa.Connection, kept: int = paper_keys.ABSTRACT_KEPT) -> None:
    """Write the abstract key of every paper as ingest computes it (of its first `kept`
    letters and digits), in this transaction."""
    papers = sa.table(
        "papers", sa.column("id"), sa.column("abstract_en"), sa.column("abstract_key")
    )
    _in_batches(
        bind,
        papers,
        PAPERS_PER_BATCH,
        lambda row: {
            "abstract_key": (
                paper_keys.abstract_key(text, kept) if (text := row["abstract_en"]) else None
            )
        },
        columns=["abstract_key"],
    )


def _in_batches(
    bind: sa.Connection,
    table: sa.TableClause,
    size: int,
    compute: Callable[[sa.RowMapping], dict[str, str | None]],
    columns: list[str] | None = None,
    where: sa.ColumnElement[bool] = EVERY_ROW,
) -> None:
    """Recompute `table`'s search columns (or `columns`) of the rows `where` selects, a
    batch of rows at a time, in id order."""
    update = (
        table.update()
        .where(table.c.id == sa.bindparam("row_id"))
        .values({name: sa.bindparam(name) for name in columns or _search_columns(table)})
    )
    after = 0
    while True:
        rows = (
            bind.execute(
                sa.select(table).where(table.c.id > after, where).order_by(table.c.id).limit(size)
            )
            .mappings()
            .all()
        )
        if not rows:
            return
        changed = []
        for row in rows:
            values = compute(row)
            if any(row[name] != value for name, value in values.items()):
                changed.append({"row_id": row["id"], **values})
        if changed:
            bind.execute(update, changed)
        after = rows[-1]["id"]


def _search_columns(table: sa.TableClause) -> list[str]:
    return [c.name for c in table.c if c.name.startswith("search_")]
