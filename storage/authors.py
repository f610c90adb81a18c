"""`author:` in a search: read out of what was typed, and which papers it names.

Authors are stored as a JSON list on each paper (HuggingFace papers carry them). A name
matches an author when each of its words is a word of that author's name, in any order
and whatever the case or accents: `author:wang` finds "Limin Wang", `author:"Limin Wang"`
finds him and not "Limin Zhang". The database narrows the papers by a plain substring of
the stored list (both stores can do that), and the words are checked here, on at most
AUTHOR_WINDOW of the newest candidates.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from sqlalchemy import String, cast, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from storage.db import once_a_session
from storage.models import Paper
from storage.search_text import BadQuery, normalise

AUTHOR_WINDOW = 2_000  # candidate papers read per name: the newest ones
MAX_AUTHORS = 3  # `author:` filters in one search
LONGEST_NAME = 100

_AUTHOR = re.compile(r'(?<!\S)author:("[^"]*"|“[^”]*”|"[^"]*$|“[^”]*$|\S*)', re.IGNORECASE)
_NAME_WORD = re.compile(r"[^\W_]+")


def split_authors(text: str) -> tuple[str, tuple[str, ...]]:
    """`text` without its `author:` filters, and the names they give. Raises BadQuery for
    `author:` with no name, a quote left open, or too many of them."""
    names: list[str] = []
    for match in _AUTHOR.finditer(text):
        raw = match.group(1)
        if raw.startswith(('"', "“")) and (len(raw) < 2 or raw[-1] not in '"”'):
            raise BadQuery(
                f'`author:` opens a quote it does not close; write `author:{raw[:40]}"`.'
            )
        name = " ".join(raw.strip('"“”').split())
        if not name_words(name):
            raise BadQuery('`author:` needs a name, like `author:wang` or `author:"Limin Wang"`.')
        if len(name) > LONGEST_NAME:
            raise BadQuery(f"An author's name is at most {LONGEST_NAME} characters.")
        names.append(name)
    if len(names) > MAX_AUTHORS:
        raise BadQuery(f"Use at most {MAX_AUTHORS} `author:` filters in one search.")
    return " ".join(_AUTHOR.sub(" ", text).split()), tuple(dict.fromkeys(names))


def author_spans(text: str) -> list[tuple[int, int]]:
    """Where `author:` filters stand in a search (names, not words to correct)."""
    return [match.span() for match in _AUTHOR.finditer(text)]


async def require_papers_by(session: AsyncSession, names: Sequence[str]) -> list[int]:
    """`papers_by`, or a sentence naming the author no paper has; once a command (each
    look is a pass over every paper's authors)."""
    return await once_a_session(
        session, ("papers by", tuple(names)), lambda: _require_papers_by(session, names)
    )


async def _require_papers_by(session: AsyncSession, names: Sequence[str]) -> list[int]:
    found: list[int] = []
    for name in names:
        found = await papers_by(session, [name])
        if not found:
            raise BadQuery(f"No paper in the store has an author named “{name[:80]}”.")
    if len(names) > 1:
        found = await papers_by(session, names)
    if not found:
        raise BadQuery("No paper in the store has all of those authors.")
    return found


def name_words(name: str) -> tuple[str, ...]:
    return tuple(_NAME_WORD.findall(normalise(name)))


def wrote(authors: Sequence[str], name: str) -> bool:
    """Whether one of `authors` has every word of `name` in their name."""
    wanted = set(name_words(name))
    return bool(wanted) and any(wanted <= set(name_words(a)) for a in authors[:500])


def _stored_form(word: str) -> str:
    """How a word stands inside the stored JSON text, lower case (JSON escapes
    non-ASCII letters as `\\uXXXX`), with LIKE's wildcards escaped by `!`."""
    escaped = json.dumps(word)[1:-1].lower()
    return escaped.replace("!", "!!").replace("%", "!%").replace("_", "!_")


async def papers_by(
    session: AsyncSession,
    names: Sequence[str],
    *,
    low: int | None = None,
    high: int | None = None,
) -> list[int]:
    """Ids of the papers one of whose authors is each of `names`, newest first, among
    the AUTHOR_WINDOW newest candidates (optionally with ids in (`low`, `high`])."""
    if not names:
        return []
    statement = select(Paper.id, Paper.authors)
    for name in names:
        longest = max(_NAME_WORD.findall(name.lower()), key=len, default="")
        pattern = f"%{_stored_form(longest)}%"
        statement = statement.where(
            func.lower(cast(Paper.authors, String)).like(pattern, escape="!")
        )
    if low is not None:
        statement = statement.where(Paper.id > low)
    if high is not None:
        statement = statement.where(Paper.id <= high)
    rows = await session.execute(statement.order_by(Paper.id.desc()).limit(AUTHOR_WINDOW))
    return [
        paper_id
        for paper_id, authors in rows
        if isinstance(authors, list) and all(wrote(authors, name) for name in names)
    ]
