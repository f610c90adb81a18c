"""name keys: papers found by their names however hyphenated, and by their titles' coined words

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-03

A paper's name key no longer holds hyphens or spaces (`X-Planner` and `xplanner` are one
key), and a paper without a name is keyed by the coined word its title opens with
(`SelfSpec: …`), see storage/lookup_keys.py. The schema does not change; the keys are
recomputed as 0009 did (in batches, a row written only when its keys change).

Downgrading leaves the new keys: the code before this revision then finds a name typed
with hyphens through the search text rather than as a name (and names typed without them
as names); upgrading again recomputes them.
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

from storage.search_reindex import recompute_paper_keys

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    recompute_paper_keys(op.get_bind())


def downgrade() -> None:
    pass
