"""saved papers: the list a user keeps with *Save*

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-03
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "saved_papers",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.String(length=32), nullable=False),
        sa.Column("paper_key", sa.String(length=64), nullable=False),
        sa.Column("label", sa.Text(), nullable=False),
        sa.Column("arxiv_id", sa.String(length=32), nullable=True),
        sa.Column("saved_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_saved_papers")),
        sa.UniqueConstraint("user_id", "paper_key", name=op.f("uq_saved_papers_user_id_paper_key")),
    )
    op.create_index(op.f("ix_saved_papers_user_id"), "saved_papers", ["user_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_saved_papers_user_id"), table_name="saved_papers")
    op.drop_table("saved_papers")
