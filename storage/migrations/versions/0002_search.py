"""search: normalised lookup keys, search text, full-text indexes, abstract findings

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-02

SQLite gets FTS5 tables over the search columns (external content, kept in sync by
triggers in the same transaction as every write); PostgreSQL gets GIN indexes over
`to_tsvector('simple', …)` of the same columns. Both read the same tokens: see
storage/search_text.py, which also fills the new columns of existing rows here.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from storage.search_text import index_text, normalise

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

HEAD = ("title", "name", "subtitle", "arxiv_id")
BODY = (
    "abstract_en", "abstract_zh", "positioning", "background", "mechanism", "experiments",
    "novelty", "soundness", "significance", "limitations", "follow_ups",
)  # fmt: skip

SQLITE_FTS = [
    """CREATE VIRTUAL TABLE claims_fts USING fts5(
        search_text, content='claims', content_rowid='id',
        tokenize="unicode61 remove_diacritics 0 tokenchars '.'")""",
    """CREATE TRIGGER claims_fts_insert AFTER INSERT ON claims BEGIN
        INSERT INTO claims_fts(rowid, search_text) VALUES (new.id, new.search_text);
    END""",
    """CREATE TRIGGER claims_fts_delete AFTER DELETE ON claims BEGIN
        INSERT INTO claims_fts(claims_fts, rowid, search_text)
        VALUES ('delete', old.id, old.search_text);
    END""",
    """CREATE TRIGGER claims_fts_update AFTER UPDATE OF search_text ON claims BEGIN
        INSERT INTO claims_fts(claims_fts, rowid, search_text)
        VALUES ('delete', old.id, old.search_text);
        INSERT INTO claims_fts(rowid, search_text) VALUES (new.id, new.search_text);
    END""",
    """CREATE VIRTUAL TABLE papers_fts USING fts5(
        search_head, search_body, content='papers', content_rowid='id',
        tokenize="unicode61 remove_diacritics 0 tokenchars '.'")""",
    """CREATE TRIGGER papers_fts_insert AFTER INSERT ON papers BEGIN
        INSERT INTO papers_fts(rowid, search_head, search_body)
        VALUES (new.id, new.search_head, new.search_body);
    END""",
    """CREATE TRIGGER papers_fts_delete AFTER DELETE ON papers BEGIN
        INSERT INTO papers_fts(papers_fts, rowid, search_head, search_body)
        VALUES ('delete', old.id, old.search_head, old.search_body);
    END""",
    """CREATE TRIGGER papers_fts_update AFTER UPDATE OF search_head, search_body ON papers
    BEGIN
        INSERT INTO papers_fts(papers_fts, rowid, search_head, search_body)
        VALUES ('delete', old.id, old.search_head, old.search_body);
        INSERT INTO papers_fts(rowid, search_head, search_body)
        VALUES (new.id, new.search_head, new.search_body);
    END""",
]

POSTGRESQL_FTS = [
    "CREATE INDEX fts_claims ON claims USING gin (to_tsvector('simple', search_text))",
    "CREATE INDEX fts_papers ON papers"
    " USING gin (to_tsvector('simple', search_head || ' ' || search_body))",
]


def upgrade() -> None:
    with op.batch_alter_table("papers") as batch:
        batch.add_column(sa.Column("title_key", sa.Text(), nullable=True))
        batch.add_column(sa.Column("name_key", sa.String(200), nullable=True))
        batch.add_column(sa.Column("search_head", sa.Text(), server_default="", nullable=False))
        batch.add_column(sa.Column("search_body", sa.Text(), server_default="", nullable=False))
        batch.drop_index("ix_papers_name")
        batch.create_index("ix_papers_title_key", ["title_key"])
        batch.create_index("ix_papers_name_key", ["name_key"])
    with op.batch_alter_table("claims") as batch:
        batch.add_column(
            sa.Column("source", sa.String(16), server_default="review", nullable=False)
        )
        batch.add_column(sa.Column("search_text", sa.Text(), server_default="", nullable=False))
        batch.drop_constraint("uq_claims_paper_id_number", type_="unique")
        batch.create_unique_constraint(
            "uq_claims_paper_id_source_number", ["paper_id", "source", "number"]
        )
        batch.create_index("ix_claims_paper_id", ["paper_id"])
    _fill_search_columns()
    statements = SQLITE_FTS if op.get_bind().dialect.name == "sqlite" else POSTGRESQL_FTS
    for statement in statements:
        op.execute(statement)
    if op.get_bind().dialect.name == "sqlite":
        op.execute("INSERT INTO claims_fts(claims_fts) VALUES ('rebuild')")
        op.execute("INSERT INTO papers_fts(papers_fts) VALUES ('rebuild')")


def _fill_search_columns() -> None:
    bind = op.get_bind()
    papers = sa.table(
        "papers",
        sa.column("id"),
        sa.column("title_key"),
        sa.column("name_key"),
        sa.column("search_head"),
        sa.column("search_body"),
        *(sa.column(name) for name in HEAD + BODY),
    )
    for row in bind.execute(sa.select(papers)).mappings().all():
        bind.execute(
            papers.update()
            .where(papers.c.id == row["id"])
            .values(
                title_key=normalise(row["title"]) if row["title"] else None,
                name_key=normalise(row["name"]) if row["name"] else None,
                search_head=index_text(*(row[name] for name in HEAD)),
                search_body=index_text(*(row[name] for name in BODY)),
            )
        )
    claims = sa.table(
        "claims",
        sa.column("id"),
        sa.column("text_zh"),
        sa.column("quote_en"),
        sa.column("search_text"),
    )
    for row in bind.execute(sa.select(claims)).mappings().all():
        bind.execute(
            claims.update()
            .where(claims.c.id == row["id"])
            .values(search_text=index_text(row["text_zh"], row["quote_en"]))
        )


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        for name in ("claims", "papers"):
            for event in ("insert", "delete", "update"):
                op.execute(f"DROP TRIGGER {name}_fts_{event}")
            op.execute(f"DROP TABLE {name}_fts")
    else:
        op.execute("DROP INDEX fts_claims")
        op.execute("DROP INDEX fts_papers")
    op.execute("DELETE FROM claims WHERE source <> 'review'")
    with op.batch_alter_table("claims") as batch:
        batch.drop_index("ix_claims_paper_id")
        batch.drop_constraint("uq_claims_paper_id_source_number", type_="unique")
        batch.create_unique_constraint("uq_claims_paper_id_number", ["paper_id", "number"])
        batch.drop_column("search_text")
        batch.drop_column("source")
    with op.batch_alter_table("papers") as batch:
        batch.drop_index("ix_papers_name_key")
        batch.drop_index("ix_papers_title_key")
        batch.create_index("ix_papers_name", ["name"])
        batch.drop_column("search_body")
        batch.drop_column("search_head")
        batch.drop_column("name_key")
        batch.drop_column("title_key")
