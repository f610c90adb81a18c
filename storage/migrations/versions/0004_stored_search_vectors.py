"""stored search vectors on PostgreSQL

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-02

The GIN indexes of 0002 were over expressions (`to_tsvector('simple', …)`), so a query
that the planner answered by walking the primary key recomputed the vector of every row
it looked at. The vectors are now stored columns (`search_fts`, generated from the search
text, names weighted A and the rest D for ranking) with their GIN indexes: nothing is
computed per row at query time. SQLite's FTS5 tables already store their index.
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

UPGRADE = [
    "DROP INDEX fts_claims",
    "DROP INDEX fts_papers",
    "ALTER TABLE claims ADD COLUMN search_fts tsvector"
    " GENERATED ALWAYS AS (to_tsvector('simple', search_text)) STORED",
    "ALTER TABLE papers ADD COLUMN search_fts tsvector GENERATED ALWAYS AS ("
    "setweight(to_tsvector('simple', search_head), 'A')"
    " || setweight(to_tsvector('simple', search_body), 'D')) STORED",
    "CREATE INDEX fts_claims ON claims USING gin (search_fts)",
    "CREATE INDEX fts_papers ON papers USING gin (search_fts)",
]

DOWNGRADE = [
    "DROP INDEX fts_claims",
    "DROP INDEX fts_papers",
    "ALTER TABLE claims DROP COLUMN search_fts",
    "ALTER TABLE papers DROP COLUMN search_fts",
    "CREATE INDEX fts_claims ON claims USING gin (to_tsvector('simple', search_text))",
    "CREATE INDEX fts_papers ON papers"
    " USING gin (to_tsvector('simple', search_head || ' ' || search_body))",
]


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for statement in UPGRADE:
            op.execute(statement)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for statement in DOWNGRADE:
            op.execute(statement)
