"""A paper's whole review, section by section: what the *Full review* button shows."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from storage.models import Paper
from storage.search import PaperRef, paper_details

# (column, heading) in reading order. A deep read carries its review; a HuggingFace entry
# carries two abstracts and the list's Chinese analysis; an abstract-only entry, its abstract.
SECTIONS = (
    ("positioning", "Positioning"),
    ("background", "Background"),
    ("mechanism", "Mechanism"),
    ("experiments", "Experiments"),
    ("novelty", "Novelty"),
    ("soundness", "Soundness"),
    ("significance", "Significance"),
    ("limitations", "Limitations"),
    ("follow_ups", "Follow-ups"),
    ("abstract_en", "Abstract"),
    ("abstract_zh", "Abstract (Chinese)"),
    ("llm_analysis", "Analysis (Chinese)"),
)


@dataclass(frozen=True)
class Review:
    ref: PaperRef
    authors: list[str]
    sections: list[tuple[str, str]]  # (heading, text), only the sections the paper has


async def full_review(session: AsyncSession, key: str) -> Review | None:
    """The paper's review sections; None when the paper is no longer in the store."""
    details = await paper_details(session, key)
    if details is None:
        return None
    columns = [getattr(Paper, column) for column, _ in SECTIONS]
    row = (await session.execute(select(*columns).where(Paper.key == key))).one_or_none()
    if row is None:
        return None
    sections = [
        (heading, text.strip())
        for (_, heading), text in zip(SECTIONS, row, strict=True)
        if text and text.strip()
    ]
    return Review(details.ref, details.authors, sections)
