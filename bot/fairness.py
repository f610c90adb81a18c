"""Search work is shared fairly: one search at a time for each user, a few at once in all.

A search is bounded in cost (storage/search_text.py, the time budget in storage/fulltext.py)
but not in number: a member firing costly searches would otherwise hold every database
connection while others wait. A second search from the same user while one runs is told to
wait; the others queue for one of `at_once` slots, first come, first served.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any

from bot import blocks
from bot.blocks import Message

SEARCHES_AT_ONCE = 4  # per process; the database has two cores' worth of work to give

WAIT = blocks.text_reply(
    "Your previous search is still running; its answer will appear here. Search again when it has."
)


class SearchGate:
    def __init__(self, at_once: int = SEARCHES_AT_ONCE) -> None:
        self._slots = asyncio.Semaphore(at_once)
        self._searching: set[str] = set()

    async def run(self, user: str, search: Coroutine[Any, Any, Message]) -> Message:
        """The search's reply, or a request to wait when `user` has one running."""
        if user in self._searching:
            search.close()
            return WAIT
        self._searching.add(user)
        try:
            async with self._slots:
                return await search
        finally:
            self._searching.discard(user)
