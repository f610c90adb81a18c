"""Did you mean: which corrections of a search are worth offering.

A correction is offered only when it finds more than what was typed, so a button never
leads to "nothing found" again. The word lookup is CPU work over untrusted text (bounded
in storage/suggestions.py): it runs in a thread.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Protocol

from storage.db import Sessions
from storage.search_text import BadQuery, known_word
from storage.suggestions import Suggester

# A search finding fewer results than this offers corrections.
SUGGEST_BELOW = 3


class Found(Protocol):
    @property
    def total(self) -> int: ...


async def better_searches(
    suggester: Suggester | None,
    sessions: Sessions,
    typed: str,
    found: int,
    search: Callable[[str], Awaitable[Found]],
    *,
    keep: Sequence[tuple[int, int]] = (),
    names_first: bool = False,
    within_paper: bool = False,
) -> list[str]:
    """Corrections of `typed` that `search` finds more results for than its `found`, best
    first; none without a `suggester` (no vocabulary yet, or a later page). With
    `within_paper` (`/claims`), a paper's name among the words may become its filter."""
    if suggester is None or found >= SUGGEST_BELOW:
        return []
    vocabulary = await suggester.vocabulary(sessions)
    if vocabulary is None:
        return []

    def candidates() -> list[str]:
        texts = vocabulary.corrections(typed, keep=keep, few=found > 0, names_first=names_first)
        filtered = vocabulary.within_paper(typed, keep) if within_paper else None
        return [*texts, filtered] if filtered else texts

    texts = await asyncio.to_thread(candidates)
    better = []
    for text in texts:
        try:
            if (await search(text)).total > found:
                better.append(text)
        except BadQuery:
            continue
    return better


def misspelt(typed: str, correction: str) -> bool:
    """Whether `correction` only replaces words of `typed` that no dictionary knows (a
    misspelling), rather than real words the store happens to lack (`zebra`), for which
    the hits by meaning may be what was wanted."""
    kept = {word.casefold() for word in correction.split()}
    replaced = [word for word in typed.split() if word.casefold() not in kept]
    return not any(known_word(word) for word in replaced)
