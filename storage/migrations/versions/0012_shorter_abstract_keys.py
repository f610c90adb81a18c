"""shorter abstract keys: an abstract-only entry cut at 400 characters finds its paper

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-05

The abstract key of a paper holds the first 240 letters and digits of its English
abstract instead of 600 (storage/paper_keys.py): pipelines cut an abstract-only entry's
abstract at other lengths than 1,000 characters, and a copy cut at 500 or 700 became a
second paper. The keys of stored papers are computed again; down, as they were.
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

from storage.search_reindex import recompute_abstract_keys

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

EARLIER_KEPT = 600  # letters and digits the keys of 0011 held


def upgrade() -> None:
    recompute_abstract_keys(op.get_bind())


def downgrade() -> None:
    recompute_abstract_keys(op.get_bind(), EARLIER_KEPT)
