"""word forms: recompute the search text of every paper and claim

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-03

The tokenizer now indexes English words as their stems, followed by the other forms words
are found by (storage/search_text.py). The schema does not change; the stored search text
is recomputed (storage/search_reindex.py: in batches, a row is written only if it
changes; the indexes of both stores follow their rows).

Downgrading writes the search text as the tokenizer before word forms made it.
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

from storage.search_reindex import recompute_search_text
from storage.search_text import _CJK_RUN, _TOKEN, index_text, normalise

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    recompute_search_text(op.get_bind(), index_text)


def downgrade() -> None:
    recompute_search_text(op.get_bind(), _tokens_before_word_forms)


def _tokens_before_word_forms(*parts: str | None) -> str:
    """What index_text gave before word forms: the tokens as written, nothing appended."""
    tokens: list[str] = []
    for run in _TOKEN.findall(normalise(" ".join(p for p in parts if p))):
        if _CJK_RUN.fullmatch(run):
            tokens.extend(map(str.__add__, run, run[1:]))
            tokens.append(run[-1])
        else:
            tokens.append(run)
    return " ".join(tokens)
