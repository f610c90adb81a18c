"""initial schema

Revision ID: 0001
Revises:
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "digest_posts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("channel", sa.String(length=64), nullable=False),
        sa.Column("period", sa.String(length=64), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("slack_ts", sa.String(length=32), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("posted_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_digest_posts")),
        sa.UniqueConstraint("channel", "period", name=op.f("uq_digest_posts_channel_period")),
    )
    op.create_table(
        "documents",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("path", sa.Text(), nullable=False),
        sa.Column("content_hash", sa.String(length=64), nullable=False),
        sa.Column("format", sa.String(length=32), nullable=True),
        sa.Column("digest_date", sa.Date(), nullable=True),
        sa.Column("size_bytes", sa.Integer(), nullable=False),
        sa.Column("parser_version", sa.String(length=32), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_documents")),
        sa.UniqueConstraint("path", name=op.f("uq_documents_path")),
    )
    op.create_table(
        "ingest_runs",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("trigger", sa.String(length=16), nullable=False),
        sa.Column("triggered_by", sa.String(length=64), nullable=True),
        sa.Column("forced", sa.Boolean(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("documents_new", sa.Integer(), nullable=False),
        sa.Column("documents_changed", sa.Integer(), nullable=False),
        sa.Column("documents_unchanged", sa.Integer(), nullable=False),
        sa.Column("documents_failed", sa.Integer(), nullable=False),
        sa.Column("papers_new", sa.Integer(), nullable=False),
        sa.Column("papers_updated", sa.Integer(), nullable=False),
        sa.Column("errors", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ingest_runs")),
    )
    op.create_index(op.f("ix_ingest_runs_started_at"), "ingest_runs", ["started_at"], unique=False)
    op.create_table(
        "papers",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("arxiv_id", sa.String(length=32), nullable=True),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("title", sa.Text(), nullable=True),
        sa.Column("name", sa.String(length=200), nullable=True),
        sa.Column("subtitle", sa.Text(), nullable=True),
        sa.Column("authors", sa.JSON(), nullable=False),
        sa.Column("categories", sa.JSON(), nullable=False),
        sa.Column("pdf_url", sa.Text(), nullable=True),
        sa.Column("arxiv_url", sa.Text(), nullable=True),
        sa.Column("coolpaper_url", sa.Text(), nullable=True),
        sa.Column("published_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("source_updated_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("digest_date", sa.Date(), nullable=True),
        sa.Column("abstract_en", sa.Text(), nullable=True),
        sa.Column("abstract_zh", sa.Text(), nullable=True),
        sa.Column("llm_analysis", sa.Text(), nullable=True),
        sa.Column("positioning", sa.Text(), nullable=True),
        sa.Column("background", sa.Text(), nullable=True),
        sa.Column("mechanism", sa.Text(), nullable=True),
        sa.Column("experiments", sa.Text(), nullable=True),
        sa.Column("novelty", sa.Text(), nullable=True),
        sa.Column("soundness", sa.Text(), nullable=True),
        sa.Column("significance", sa.Text(), nullable=True),
        sa.Column("limitations", sa.Text(), nullable=True),
        sa.Column("follow_ups", sa.Text(), nullable=True),
        sa.Column("first_ingested_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_papers")),
        sa.UniqueConstraint("arxiv_id", name=op.f("uq_papers_arxiv_id")),
        sa.UniqueConstraint("key", name=op.f("uq_papers_key")),
    )
    op.create_index(op.f("ix_papers_digest_date"), "papers", ["digest_date"], unique=False)
    op.create_index(
        op.f("ix_papers_first_ingested_at"), "papers", ["first_ingested_at"], unique=False
    )
    op.create_index(op.f("ix_papers_name"), "papers", ["name"], unique=False)
    op.create_table(
        "claims",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("paper_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("text_zh", sa.Text(), nullable=False),
        sa.Column("quote_en", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(
            ["paper_id"], ["papers.id"], name=op.f("fk_claims_paper_id_papers"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_claims")),
        sa.UniqueConstraint("paper_id", "number", name=op.f("uq_claims_paper_id_number")),
    )
    op.create_table(
        "digest_post_papers",
        sa.Column("post_id", sa.Integer(), nullable=False),
        sa.Column("paper_id", sa.Integer(), nullable=False),
        sa.Column("channel", sa.String(length=64), nullable=False),
        sa.ForeignKeyConstraint(
            ["paper_id"],
            ["papers.id"],
            name=op.f("fk_digest_post_papers_paper_id_papers"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["post_id"],
            ["digest_posts.id"],
            name=op.f("fk_digest_post_papers_post_id_digest_posts"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("post_id", "paper_id", name=op.f("pk_digest_post_papers")),
        sa.UniqueConstraint(
            "channel", "paper_id", name=op.f("uq_digest_post_papers_channel_paper_id")
        ),
    )
    op.create_table(
        "paper_documents",
        sa.Column("paper_id", sa.Integer(), nullable=False),
        sa.Column("document_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["document_id"],
            ["documents.id"],
            name=op.f("fk_paper_documents_document_id_documents"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["paper_id"],
            ["papers.id"],
            name=op.f("fk_paper_documents_paper_id_papers"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("paper_id", "document_id", name=op.f("pk_paper_documents")),
    )
    op.create_index(
        op.f("ix_paper_documents_document_id"), "paper_documents", ["document_id"], unique=False
    )


def downgrade() -> None:
    op.drop_index(op.f("ix_paper_documents_document_id"), table_name="paper_documents")
    op.drop_table("paper_documents")
    op.drop_table("digest_post_papers")
    op.drop_table("claims")
    op.drop_index(op.f("ix_papers_name"), table_name="papers")
    op.drop_index(op.f("ix_papers_first_ingested_at"), table_name="papers")
    op.drop_index(op.f("ix_papers_digest_date"), table_name="papers")
    op.drop_table("papers")
    op.drop_index(op.f("ix_ingest_runs_started_at"), table_name="ingest_runs")
    op.drop_table("ingest_runs")
    op.drop_table("documents")
    op.drop_table("digest_posts")
