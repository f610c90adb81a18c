"""delivery progress: thread replies still to send, who is sending, subscribers' watermarks

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-03
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("digest_posts", sa.Column("slack_channel", sa.String(length=32), nullable=True))
    op.add_column("digest_posts", sa.Column("pending_replies", sa.JSON(), nullable=True))
    op.add_column(
        "digest_posts", sa.Column("sending_since", sa.DateTime(timezone=True), nullable=True)
    )
    op.add_column("subscriptions", sa.Column("matched_through", sa.Integer(), nullable=True))
    # A post claimed before this version counted as being sent from its claim's time.
    op.execute("UPDATE digest_posts SET sending_since = created_at WHERE status = 'claimed'")


def downgrade() -> None:
    op.drop_column("subscriptions", "matched_through")
    for column in ("sending_since", "pending_replies", "slack_channel"):
        op.drop_column("digest_posts", column)
