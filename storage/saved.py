"""Saved papers: a user's reading list, at most MAX_SAVED, and its BibTeX."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from storage.models import Paper, SavedPaper
from storage.search import PaperDetails, papers_details
from storage.search_text import BadQuery

MAX_SAVED = 200


@dataclass(frozen=True)
class SavedItem:
    key: str
    label: str  # as it was when saved
    arxiv_id: str | None
    saved_at: datetime
    details: PaperDetails | None  # None: the paper has left the store


async def save(session: AsyncSession, user: str, key: str) -> tuple[bool, int]:
    """Save a paper for `user`: (newly saved, how many they have now). Raises BadQuery
    for a paper no longer in the store, or past the limit."""
    found = await papers_details(session, [key])
    if not found:
        raise BadQuery("That paper is no longer in the store.")
    count = await _count(session, user)
    already = await session.execute(
        select(SavedPaper.id).where(SavedPaper.user_id == user, SavedPaper.paper_key == key)
    )
    if already.first() is not None:
        return False, count
    if count >= MAX_SAVED:
        raise BadQuery(
            f"You have saved {MAX_SAVED} papers, the most a list holds; remove some with "
            "`/paper saved` first."
        )
    ref = found[0].ref
    try:
        async with session.begin_nested():
            session.add(
                SavedPaper(
                    user_id=user, paper_key=key, label=ref.label[:2000], arxiv_id=ref.arxiv_id
                )
            )
    except IntegrityError:  # saved twice at once: the same as saved already
        return False, count
    return True, count + 1


async def _count(session: AsyncSession, user: str) -> int:
    counted = await session.execute(
        select(func.count()).select_from(SavedPaper).where(SavedPaper.user_id == user)
    )
    return int(counted.scalar_one())


async def remove(session: AsyncSession, user: str, key: str) -> str | None:
    """Remove a saved paper; its label, or None when it was not saved."""
    row = (
        await session.execute(
            select(SavedPaper).where(SavedPaper.user_id == user, SavedPaper.paper_key == key)
        )
    ).scalar_one_or_none()
    if row is None:
        return None
    await session.execute(delete(SavedPaper).where(SavedPaper.id == row.id))
    return row.label


async def saved(session: AsyncSession, user: str) -> list[SavedItem]:
    """A user's saved papers, the last saved first, each with its card when still stored."""
    rows = (
        (
            await session.execute(
                select(SavedPaper)
                .where(SavedPaper.user_id == user)
                .order_by(SavedPaper.saved_at.desc(), SavedPaper.id.desc())
                .limit(MAX_SAVED)
            )
        )
        .scalars()
        .all()
    )
    details = {d.ref.key: d for d in await papers_details(session, [r.paper_key for r in rows])}
    return [
        SavedItem(r.paper_key, r.label, r.arxiv_id, r.saved_at, details.get(r.paper_key))
        for r in rows
    ]


# --- BibTeX -----------------------------------------------------------------------------

_NOT_KEY = re.compile(r"[^a-z0-9]")
_SPECIAL = str.maketrans(
    {
        "{": "(",
        "}": ")",
        "\\": "/",
        "%": r"\%",
        "&": r"\&",
        "#": r"\#",
        "_": r"\_",
        "$": r"\$",
        "~": "-",
        "^": "",
    }
)


def _field(text: str) -> str:
    return " ".join(text.translate(_SPECIAL).split())


async def bibtex(session: AsyncSession, user: str) -> tuple[str, int]:
    """BibTeX of a user's saved papers that have an arXiv ID (those still in the store
    with their authors and year; those gone with what was saved), and how many saved
    papers were left out for having none."""
    items = await saved(session, user)
    with_id = [item for item in items if item.arxiv_id]
    published = dict(
        (
            await session.execute(
                select(Paper.key, Paper.published_at).where(
                    Paper.key.in_([item.key for item in with_id])
                )
            )
        ).all()
    )
    entries, used = [], set()
    for item in with_id:
        assert item.arxiv_id is not None
        details = item.details
        authors = details.authors if details else []
        when = published.get(item.key)
        year = str(when.year) if when else f"20{item.arxiv_id[:2]}"
        title = details.ref.label if details else item.label
        first = _NOT_KEY.sub("", (authors[0].split() or [""])[-1].lower()) if authors else ""
        word = next((w for w in _NOT_KEY.sub(" ", title.lower()).split() if len(w) > 3), "")
        key = f"{first or 'arxiv'}{year}{word}" or item.arxiv_id
        while key in used:
            key += "x"
        used.add(key)
        lines = [f"@misc{{{key},", f"  title = {{{_field(title)}}},"]
        if authors:
            lines.append(f"  author = {{{_field(' and '.join(authors[:100]))}}},")
        lines += [
            f"  year = {{{year}}},",
            f"  eprint = {{{item.arxiv_id}}},",
            "  archivePrefix = {arXiv},",
            f"  url = {{https://arxiv.org/abs/{item.arxiv_id}}},",
            "}",
        ]
        entries.append("\n".join(lines))
    return "\n\n".join(entries), len(items) - len(with_id)
