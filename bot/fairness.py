"""Search work is shared fairly: one search at a time for each user, a few at once in all.

A search is bounded in cost (storage/search_text.py, the time budget in storage/fulltext.py)
but not in number: a member firing costly searches would otherwise hold every database
connection while others wait. A second search from the same user while one runs is told to
wait; the others queue for one of `at_once` slots, first come, first served.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Coroutine
from typing import Any

from bot import blocks
from bot.blocks import Message

SEARCHES_AT_ONCE = 4  # per process; the database has two cores' worth of work to give
# Background work (embedding, and the look for what waits to be embedded at start) waits
# until no search has run for QUIET_SPELL, but never longer than QUIET_WAIT: a bot searched
# without a break still embeds what an ingest added. A search sent right after another
# (a member paging, several members at once) would otherwise meet a step begun between them.
QUIET_WAIT = 2.0
QUIET_SPELL = 0.1

WAIT = blocks.text_reply(
    "Your previous search is still running; its answer will appear here. Search again when it has."
)


class SearchGate:
    def __init__(self, at_once: int = SEARCHES_AT_ONCE) -> None:
        self._slots = asyncio.Semaphore(at_once)
        self._searching: set[str] = set()
        self._quiet = asyncio.Event()  # set while no search runs or waits
        self._quiet.set()
        self._last_ended = -QUIET_SPELL  # loop time when a search last ended

    async def run(self, user: str, search: Coroutine[Any, Any, Message]) -> Message:
        """The search's reply, or a request to wait when `user` has one running."""
        if user in self._searching:
            search.close()
            return WAIT
        self._searching.add(user)
        self._quiet.clear()
        try:
            async with self._slots:
                return await search
        finally:
            self._searching.discard(user)
            self._last_ended = asyncio.get_running_loop().time()
            if not self._searching:
                self._quiet.set()

    async def quiet(self, at_most: float = QUIET_WAIT) -> None:
        """Return once no search has run for QUIET_SPELL seconds, or after `at_most`:
        background work goes between searches, not beside them (two cores: beside them, it
        slows them)."""
        loop = asyncio.get_running_loop()
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(at_most):
                while True:
                    await self._quiet.wait()
                    rest = self._last_ended + QUIET_SPELL - loop.time()
                    if rest <= 0:
                        return
                    await asyncio.sleep(rest)
