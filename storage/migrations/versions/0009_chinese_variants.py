"""chinese variants: recompute the search text and lookup keys with traditional Chinese folded

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-03

Normalisation now reads traditional Chinese characters as simplified ones (`延遲` as
`延迟`, storage/search_text.py), in the indexed text and in the papers' title and name
keys alike. The schema does not change; the stored values are recomputed as 0006 did
(storage/search_reindex.py: in batches, a row is written only if it changes; the indexes
of both stores follow their rows).

Downgrading leaves the folded values: the tokenizer before this revision finds them by
every query written in simplified characters, and upgrading again recomputes them.
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

from storage.search_reindex import recompute_paper_keys, recompute_search_text
from storage.search_text import index_text

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    recompute_search_text(op.get_bind(), index_text)
    recompute_paper_keys(op.get_bind())


def downgrade() -> None:
    pass
