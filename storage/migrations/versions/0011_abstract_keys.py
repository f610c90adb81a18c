"""abstract keys: a paper listed with its arXiv ID is found by an entry of its abstract alone

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-05

Papers gain `abstract_key`, the key of their English abstract's first 600 letters and
digits (storage/paper_keys.py), indexed: a deep-read digest's abstract-only entry (its
abstract cut at 1,000 characters) then finds the paper a HuggingFace list stored under its
arXiv key, and the list the entry, instead of becoming a second row.
The keys of stored papers are computed in batches.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from storage.search_reindex import recompute_abstract_keys

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("papers", sa.Column("abstract_key", sa.String(64), nullable=True))
    op.create_index("ix_papers_abstract_key", "papers", ["abstract_key"])
    recompute_abstract_keys(op.get_bind())


def downgrade() -> None:
    op.drop_index("ix_papers_abstract_key", table_name="papers")
    op.drop_column("papers", "abstract_key")  # in place: a rebuilt table would lose the
    # search index's triggers on SQLite
