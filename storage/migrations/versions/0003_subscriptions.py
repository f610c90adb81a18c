"""subscriptions: words a user or a channel follows

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "subscriptions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("subscriber", sa.String(length=32), nullable=False),
        sa.Column("words", sa.String(length=200), nullable=False),
        sa.Column("post_time", sa.String(length=5), nullable=True),
        sa.Column("created_by", sa.String(length=32), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_subscriptions")),
        sa.UniqueConstraint("subscriber", "words", name=op.f("uq_subscriptions_subscriber_words")),
    )
    op.create_index(
        op.f("ix_subscriptions_subscriber"), "subscriptions", ["subscriber"], unique=False
    )


def downgrade() -> None:
    op.drop_index(op.f("ix_subscriptions_subscriber"), table_name="subscriptions")
    op.drop_table("subscriptions")
