"""The SQL that differs between SQLite and PostgreSQL lives here, and only here."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from sqlalchemy import Connection, TextClause, bindparam, text
from sqlalchemy.ext.asyncio import AsyncSession

from storage.search_text import Query

# An arbitrary constant shared by every replica: "paperbot migrations".
_MIGRATION_LOCK_ID = 0x7061706572


def lock_for_migrations(connection: Connection) -> None:
    """Serialise migrations between replicas starting at once (PostgreSQL).

    SQLite needs nothing: its write lock already serialises the migrating transactions.
    """
    if connection.dialect.name == "postgresql":
        connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({_MIGRATION_LOCK_ID})")


def check_foreign_keys(connection: Connection) -> None:
    """After a migration on SQLite (run with foreign keys off): nothing may dangle."""
    if connection.dialect.name == "sqlite":
        broken = connection.exec_driver_sql("PRAGMA foreign_key_check").all()
        if broken:
            raise RuntimeError(f"migration left rows with broken foreign keys: {broken[:5]}")


# --- Full-text search -------------------------------------------------------------------
# Both stores index the same tokens (storage/search_text.py). What differs is the syntax:
# SQLite FTS5 MATCH with bm25, PostgreSQL tsquery with ts_rank. Ranking is applied to the
# newest `window` matches only, which both stores find in id order without scoring the
# rest, so a common word costs no more than a rare one.


def _fts5(query: Query) -> str:
    # Tokens hold letters and digits only, so quoting them is all the escaping needed.
    return " AND ".join(
        f'"{term.tokens[0]}"*' if term.prefix else '"' + " ".join(term.tokens) + '"'
        for term in query.terms
    )


def _tsquery(query: Query) -> str:
    return " & ".join(
        f"'{term.tokens[0]}':*"
        if term.prefix
        else "(" + " <-> ".join(f"'{token}'" for token in term.tokens) + ")"
        for term in query.terms
    )


@dataclass(frozen=True)
class ClaimFilter:
    paper_ids: tuple[int, ...] | None = None
    since: date | None = None
    until: date | None = None


def _claim_conditions(where: ClaimFilter, claim: str, paper: str) -> tuple[str, dict[str, Any]]:
    sql = ""
    params: dict[str, Any] = {}
    if where.paper_ids is not None:
        sql += f" AND {claim}.paper_id IN :paper_ids"
        params["paper_ids"] = list(where.paper_ids)
    if where.since is not None:
        sql += f" AND {paper}.digest_date >= :since"
        params["since"] = where.since
    if where.until is not None:
        sql += f" AND {paper}.digest_date <= :until"
        params["until"] = where.until
    return sql, params


def _bind(sql: str, params: dict[str, Any]) -> TextClause:
    statement = text(sql)
    if "paper_ids" in params:
        statement = statement.bindparams(bindparam("paper_ids", expanding=True))
    return statement


async def match_claims(
    session: AsyncSession, query: Query, where: ClaimFilter, *, limit: int, offset: int,
    window: int,
) -> list[int]:  # fmt: skip
    """Ids of matching claims, best first: relevance, then newer digest, then newer row."""
    conditions, params = _claim_conditions(where, "c", "p")
    params |= {"limit": limit, "offset": offset, "window": window}
    if session.get_bind().dialect.name == "sqlite":
        params["match"] = _fts5(query)
        sql = f"""
            SELECT m.id FROM (
                SELECT claims_fts.rowid AS id, bm25(claims_fts) AS score, p.digest_date AS day
                FROM claims_fts
                JOIN claims c ON c.id = claims_fts.rowid
                JOIN papers p ON p.id = c.paper_id
                WHERE claims_fts MATCH :match {conditions}
                ORDER BY claims_fts.rowid DESC LIMIT :window
            ) AS m
            ORDER BY m.score, m.day DESC, m.id DESC LIMIT :limit OFFSET :offset"""
    else:
        params["match"] = _tsquery(query)
        sql = f"""
            WITH q AS (SELECT to_tsquery('simple', :match) AS q),
            m AS (
                SELECT c.id FROM claims c JOIN papers p ON p.id = c.paper_id, q
                WHERE to_tsvector('simple', c.search_text) @@ q.q {conditions}
                ORDER BY c.id DESC LIMIT :window
            )
            SELECT c.id FROM m JOIN claims c ON c.id = m.id
            JOIN papers p ON p.id = c.paper_id, q
            ORDER BY ts_rank(to_tsvector('simple', c.search_text), q.q) DESC,
                     p.digest_date DESC NULLS LAST, c.id DESC
            LIMIT :limit OFFSET :offset"""
    rows = await session.execute(_bind(sql, params), params)
    return [row[0] for row in rows]


async def match_papers(
    session: AsyncSession, query: Query, *, limit: int, window: int
) -> list[int]:
    """Ids of matching papers, best first; a match in the names counts ten times the text."""
    params: dict[str, Any] = {"limit": limit, "window": window}
    if session.get_bind().dialect.name == "sqlite":
        params["match"] = _fts5(query)
        sql = """
            SELECT id FROM (
                SELECT rowid AS id, bm25(papers_fts, 10.0, 1.0) AS score FROM papers_fts
                WHERE papers_fts MATCH :match ORDER BY rowid DESC LIMIT :window
            ) ORDER BY score, id DESC LIMIT :limit"""
    else:
        params["match"] = _tsquery(query)
        sql = """
            WITH q AS (SELECT to_tsquery('simple', :match) AS q),
            m AS (
                SELECT p.id FROM papers p, q
                WHERE to_tsvector('simple', p.search_head || ' ' || p.search_body) @@ q.q
                ORDER BY p.id DESC LIMIT :window
            )
            SELECT p.id FROM m JOIN papers p ON p.id = m.id, q
            ORDER BY ts_rank(setweight(to_tsvector('simple', p.search_head), 'A')
                             || setweight(to_tsvector('simple', p.search_body), 'D'), q.q) DESC,
                     p.id DESC
            LIMIT :limit"""
    rows = await session.execute(text(sql), params)
    return [row[0] for row in rows]
