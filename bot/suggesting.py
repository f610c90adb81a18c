"""Did you mean: which corrections of a search are worth offering.

A correction is offered only when it finds more than what was typed, so a button never
leads to "nothing found" again. The word lookup is CPU work over untrusted text (bounded
in storage/suggestions.py): it runs in a thread.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import NamedTuple, Protocol

from storage.db import Sessions
from storage.search_text import BadQuery, known_word
from storage.suggestions import Suggester

# A search finding fewer results than this offers corrections.
SUGGEST_BELOW = 3
# A correction finding at least this many times what each other one finds is shown at once
# (the others stay offered): of two words one edit away, the more common is likelier meant.
LEADS_BY = 2


class Better(NamedTuple):
    text: str  # the corrected search
    found: int  # what its words find


class Found(Protocol):
    @property
    def matching_words(self) -> int: ...


async def better_searches(
    suggester: Suggester | None,
    sessions: Sessions,
    typed: str,
    found: int,
    search: Callable[[str], Awaitable[Found]],
    *,
    keep: Sequence[tuple[int, int]] = (),
    names_first: bool = False,
) -> list[Better]:
    """Corrections of `typed` whose words `search` finds more results for than its `found`
    (all the words: claims holding all but one do not count), best first; none without a
    `suggester` (no vocabulary yet, or a later page)."""
    if suggester is None or found >= SUGGEST_BELOW:
        return []
    vocabulary = await suggester.vocabulary(sessions)
    if vocabulary is None:
        return []
    texts = await asyncio.to_thread(
        vocabulary.corrections, typed, keep=keep, few=found > 0, names_first=names_first
    )
    better = []
    for text in texts:
        try:
            total = (await search(text)).matching_words
        except BadQuery:
            continue
        if total > found:
            better.append(Better(text, total))
    return better


def leading(fixes: Sequence[Better]) -> Better | None:
    """The correction to show at once, if one stands out: the only one, or one that finds
    LEADS_BY times what every other does. A typo one edit away from a common word and a
    rare one most likely meant the common one (`AUORC`: AUROC, not AUPRC)."""
    best = max(fixes, key=lambda fix: fix.found, default=None)
    if best is None or any(best.found < LEADS_BY * f.found for f in fixes if f is not best):
        return None
    return best


def shown_at_once(fixes: Sequence[Better], typed: str, found: int, by_words: int) -> Better | None:
    """The correction whose results answer instead of what was typed (which `found`
    results, `by_words` of them by its words): the leading one, when nothing was found, or
    when the words found nothing and it only corrects misspellings: a misspelt word's
    neighbours in meaning are weaker evidence than the word it meant."""
    lead = leading(fixes)
    if lead and (not found or (not by_words and misspelt(typed, lead.text))):
        return lead
    return None


def misspelt(typed: str, correction: str) -> bool:
    """Whether `correction` only replaces words of `typed` that no dictionary knows (a
    misspelling), rather than real words the store happens to lack (`zebra`), for which
    the hits by meaning may be what was wanted."""
    kept = {word.casefold() for word in correction.split()}
    replaced = [word for word in typed.split() if word.casefold() not in kept]
    return not any(known_word(word) for word in replaced)
