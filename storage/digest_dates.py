"""A `since:` / `until:` range as conditions on the papers' digest date: the one place that
writes them, as SQLAlchemy expressions or, for hand-written SQL, as text and parameters."""

from __future__ import annotations

from datetime import date

from sqlalchemy import ColumnElement

from storage.models import Paper


def within(since: date | None, until: date | None) -> list[ColumnElement[bool]]:
    """Conditions on `Paper` for the range (none for an open one)."""
    bounds = []
    if since is not None:
        bounds.append(Paper.digest_date >= since)
    if until is not None:
        bounds.append(Paper.digest_date <= until)
    return bounds


def within_sql(paper: str, since: date | None, until: date | None) -> tuple[str, dict[str, date]]:
    """The same over the papers as `paper` in hand-written SQL: ` AND …` and its values."""
    sql, params = "", {}
    if since is not None:
        sql += f" AND {paper}.digest_date >= :since"
        params["since"] = since
    if until is not None:
        sql += f" AND {paper}.digest_date <= :until"
        params["until"] = until
    return sql, params
