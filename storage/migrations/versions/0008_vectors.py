"""vectors: embeddings of claims and papers for search by meaning

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-03

One table on both stores, keyed by (kind, item id), holding each item's vector from one
embedding model (name and version) as float16 bytes; see storage/models.py (ItemVector).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "item_vectors",
        sa.Column("kind", sa.String(length=8), nullable=False),
        sa.Column("item_id", sa.Integer(), nullable=False),
        sa.Column("paper_id", sa.Integer(), nullable=False),
        sa.Column("claim_id", sa.Integer(), nullable=True),
        sa.Column("model", sa.String(length=200), nullable=False),
        sa.Column("model_version", sa.String(length=100), nullable=False),
        sa.Column("vector", sa.LargeBinary(), nullable=False),
        sa.Column("embedded_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint(
            "(kind = 'claim' AND claim_id = item_id)"
            " OR (kind = 'paper' AND claim_id IS NULL AND paper_id = item_id)",
            name=op.f("ck_item_vectors_item_key"),
        ),
        sa.ForeignKeyConstraint(
            ["claim_id"],
            ["claims.id"],
            name=op.f("fk_item_vectors_claim_id_claims"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["paper_id"],
            ["papers.id"],
            name=op.f("fk_item_vectors_paper_id_papers"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("kind", "item_id", name=op.f("pk_item_vectors")),
    )
    op.create_index(op.f("ix_item_vectors_paper_id"), "item_vectors", ["paper_id"])
    # Claims' vectors cascade through claim_id: without an index each deleted claim
    # would scan the table.
    op.create_index(op.f("ix_item_vectors_claim_id"), "item_vectors", ["claim_id"])
    # A start with a saved index reads only what was embedded since it was saved.
    op.create_index(op.f("ix_item_vectors_embedded_at"), "item_vectors", ["embedded_at"])


def downgrade() -> None:
    op.drop_table("item_vectors")
