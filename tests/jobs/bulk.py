"""Many papers at once, inserted as rows: an archive load without parsing 10,000 entries."""

from __future__ import annotations

from datetime import date

from sqlalchemy import insert

from storage.db import Sessions
from storage.models import Paper
from storage.search_text import index_text

BATCH = 2_000


async def add_papers(
    sessions: Sessions,
    count: int,
    *,
    day: date,
    abstract: str = "We study sparse routing in mixture models.",
    prefix: str = "bulk",
) -> None:
    """`count` HuggingFace-like papers, each a new paper of `day`, searchable by their
    title (`<prefix> paper N`) and abstract."""
    for start in range(0, count, BATCH):
        rows = []
        for n in range(start, min(start + BATCH, count)):
            title = f"{prefix} paper {n}"
            rows.append(
                {
                    "key": f"text:{prefix}{n:08d}",
                    "kind": "huggingface",
                    "title": title,
                    "abstract_en": abstract,
                    "digest_date": day,
                    "authors": [],
                    "categories": [],
                    "search_head": index_text(title),
                    "search_body": index_text(abstract),
                }
            )
        async with sessions.begin() as session:
            await session.execute(insert(Paper), rows)
