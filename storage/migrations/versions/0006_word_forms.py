"""word forms: recompute the search text of every paper and claim

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-03

The tokenizer now indexes English words as their stems, followed by the other forms words
are found by (storage/search_text.py). The schema does not change; the stored search text
is recomputed, in batches of rows read in id order so that a store of millions of claims
never holds more than a batch in memory. Each store's index follows its rows: SQLite's
FTS5 tables through their update triggers (0002), PostgreSQL's generated `search_fts`
columns (0004) by themselves. A row whose search text is already current is not written.

Downgrading writes the search text as the tokenizer before word forms made it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import sqlalchemy as sa
from alembic import op

from storage.search_text import _CJK_RUN, _TOKEN, index_text, normalise

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# The fields of each search column, as storage/loading.py fills them.
HEAD = ("title", "name", "subtitle", "arxiv_id")
BODY = (
    "abstract_en", "abstract_zh", "positioning", "background", "mechanism", "experiments",
    "novelty", "soundness", "significance", "limitations", "follow_ups",
)  # fmt: skip
PAPERS_PER_BATCH = 500  # a paper's text runs to tens of kilobytes
CLAIMS_PER_BATCH = 5_000

Tokenizer = Callable[..., str]


def upgrade() -> None:
    _recompute(index_text)


def downgrade() -> None:
    _recompute(_tokens_before_word_forms)


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


def _recompute(tokenize: Tokenizer) -> None:
    papers = sa.table(
        "papers", sa.column("id"), sa.column("search_head"), sa.column("search_body"),
        *(sa.column(name) for name in HEAD + BODY),
    )  # fmt: skip
    _in_batches(
        papers,
        PAPERS_PER_BATCH,
        lambda row: {
            "search_head": tokenize(*(row[name] for name in HEAD)),
            "search_body": tokenize(*(row[name] for name in BODY)),
        },
    )
    claims = sa.table(
        "claims", sa.column("id"), sa.column("text_zh"), sa.column("quote_en"),
        sa.column("search_text"),
    )  # fmt: skip
    _in_batches(
        claims,
        CLAIMS_PER_BATCH,
        lambda row: {"search_text": tokenize(row["text_zh"], row["quote_en"])},
    )


def _in_batches(
    table: sa.TableClause, size: int, compute: Callable[[sa.RowMapping], dict[str, str]]
) -> None:
    """Recompute `table`'s search columns a batch of rows at a time, in id order."""
    bind = op.get_bind()
    update = (
        table.update()
        .where(table.c.id == sa.bindparam("row_id"))
        .values({name: sa.bindparam(name) for name in _search_columns(table)})
    )
    after = 0
    while True:
        rows = (
            bind.execute(
                sa.select(table).where(table.c.id > after).order_by(table.c.id).limit(size)
            )
            .mappings()
            .all()
        )
        if not rows:
            return
        changed = []
        for row in rows:
            values = compute(row)
            if any(row[name] != value for name, value in values.items()):
                changed.append({"row_id": row["id"], **values})
        if changed:
            bind.execute(update, changed)
        after = rows[-1]["id"]


def _search_columns(table: sa.TableClause) -> list[str]:
    return [c.name for c in table.c if c.name.startswith("search_")]
